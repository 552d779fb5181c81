package pdn

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rafle/rafle/pkg/engine"
)

// This file is where the package maps what a game says to a variant of
// pkg/engine: a name or GameType given by the user (LookupVariant), a
// game's GameType tag (gameTypeVariant, VariantName), and the squares and
// first moves of games without one (evidence.decide, from infer.go). Every
// variant comes from the engine's registry: its names, aliases, GameType
// numbers, boards and start positions; no variant is named here.

// LookupVariant returns the variant s names: a name or alias, as
// engine.Lookup takes them, or a PDN GameType value, the type alone ("20")
// or the full Type,Colour,Width,Height,Notation[,Invert] form, which must
// follow the PDN 3.0 syntax and give the board of its type, as the Reader
// checks GameType tags ("20,W,0,0,N2,0" is an error). It is the parser of
// a variant given by a user, such as the pdn command's --variant.
func LookupVariant(s string) (*engine.Variant, error) {
	s = strings.TrimSpace(s)
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		if msg := checkGameType(s); msg != "" {
			return nil, errors.New("pdn: " + msg)
		}
	}
	return engine.Lookup(s)
}

// Variant returns the variant Replay replays g with: its GameType tag's,
// else Default, else Inferred (unless it comes from the other games' tags
// and g's own first move says otherwise), else inferred from g alone; nil
// when no variant's board holds g's squares. It returns an error when the
// GameType tag names a variant the engine does not play.
func (rp *Replayer) Variant(g *Game) (*engine.Variant, error) {
	v, _, _, err := rp.variant(g)
	return v, err
}

// variant picks the variant of g: GameType tag, else Default, else
// Inferred, else inferred from g alone.
func (rp *Replayer) variant(g *Game) (*engine.Variant, VariantSource, *Inference, error) {
	if gt := strings.TrimSpace(g.Get("GameType")); gt != "" {
		v, err := gameTypeVariant(gt)
		if err != nil {
			return nil, 0, nil, fmt.Errorf("variant not supported: GameType %q (%s)", gt, VariantName(gt))
		}
		return v, FromGameType, nil, nil
	}
	if rp.Default != nil {
		return rp.Default, FromDefault, nil, nil
	}
	inf := rp.Inferred
	switch {
	case inf == nil || inf.Variant == nil:
		// Nothing inferred for the input, or no variant for all its
		// games together: this game's own squares and first move.
		var e evidence
		e.game(g)
		inf = e.decide()
	case inf.tags:
		// The other games' GameType tag, unless this game's first move
		// is not one of its board and is one of the board of the
		// variant its own squares and first move point to.
		var e evidence
		e.game(g)
		if own := e.decide(); own.Variant != nil && e.openings != nil {
			bs := boards()
			t, o := boardOf(bs, inf.Variant), boardOf(bs, own.Variant)
			if t >= 0 && o >= 0 && t != o && e.openings[t] == 0 && e.openings[o] > 0 {
				own.Reason += fmt.Sprintf(" and its first move, which %s has not (the GameType tag of the other games)", inf.Variant.Name)
				inf = own
			}
		}
	}
	return inf.Variant, FromInferred, inf, nil
}

// boardOf returns the index in bs of v's board, or -1.
func boardOf(bs []board, v *engine.Variant) int {
	return slices.IndexFunc(bs, func(b board) bool { return b.plain.Width == v.Width && b.plain.Height == v.Height })
}

// gameTypeVariant returns the variant of a GameType tag value gt (trimmed,
// not empty): the engine's, by the type number (and board size, when
// given).
func gameTypeVariant(gt string) (*engine.Variant, error) { return engine.Lookup(gt) }

// VariantName describes a GameType tag value: "20 (international)", or
// "no GameType tag" when the tag is missing.
func VariantName(gameType string) string {
	v := strings.TrimSpace(gameType)
	if v == "" {
		return "no GameType tag"
	}
	num := v
	if i := strings.IndexByte(v, ','); i >= 0 {
		num = v[:i]
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return v
	}
	if name := engine.GameTypeName(n); name != "" {
		return v + " (" + name + ")"
	}
	return v
}

// board is the variants of one board size that inference chooses from.
type board struct {
	// plain is the first registered variant of the board that has a PDN
	// GameType (the board's common variant); alg the first of those that
	// write squares as coordinates, if any.
	plain, alg *engine.Variant
	// opening holds the from-to square numbers of plain's first moves.
	opening map[[2]int]bool
}

// boards returns the boards of the registered variants that have a PDN
// GameType, by increasing number of squares (8x8, 10x10, 12x12 for the
// built-in variants).
var boards = sync.OnceValue(func() []board {
	var bs []board
	for _, v := range engine.Variants() {
		if v.GameType == 0 {
			continue
		}
		i := slices.IndexFunc(bs, func(b board) bool { return b.plain.Width == v.Width && b.plain.Height == v.Height })
		if i < 0 {
			bs = append(bs, board{plain: v})
			i = len(bs) - 1
		}
		if v.Algebraic && bs[i].alg == nil {
			bs[i].alg = v
		}
	}
	slices.SortStableFunc(bs, func(a, b board) int { return a.plain.Squares() - b.plain.Squares() })
	for i := range bs {
		v := bs[i].plain
		start := v.Start()
		bs[i].opening = map[[2]int]bool{}
		for _, m := range v.Generate(nil, &start) {
			bs[i].opening[[2]int{int(v.Square(m.From)), int(v.Square(m.To))}] = true
		}
	}
	return bs
})

// decide infers the variant from the evidence of an input (see
// InferVariant): the variant the GameType tags of the other games agree
// on, if the squares fit its board; else the common variant of the
// smallest board the squares fit (no variant when none does), or
// its variant with coordinates when some squares are written so; and for
// square numbers alone, the next larger board's common variant when more
// games open with one of its first moves.
func (e *evidence) decide() *Inference {
	inf := &Inference{Games: e.untagged}
	if e.untagged == 0 {
		return inf
	}
	fits := func(v *engine.Variant) bool {
		return e.maxNum <= v.Squares() && e.maxFile <= v.Width && e.maxRank <= v.Height
	}
	var squares []string
	if e.maxNum > 0 {
		squares = append(squares, "square numbers up to "+strconv.Itoa(e.maxNum))
	}
	if e.maxFile > 0 {
		squares = append(squares, fmt.Sprintf("algebraic squares up to %c%d", 'a'+e.maxFile-1, e.maxRank))
	}
	reason := strings.Join(squares, " and ")
	if e.tagged != nil && !e.disagree && fits(e.tagged) {
		inf.Variant, inf.Reason, inf.tags = e.tagged, "the GameType tag of the other games of the input", true
		return inf
	}
	bs := boards()
	i := slices.IndexFunc(bs, func(b board) bool { return fits(b.plain) })
	if i < 0 {
		// No board holds the squares: no variant (never one whose board is too small).
		inf.Reason = reason + fmt.Sprintf(", more than the %d squares of the largest board, %s's", bs[len(bs)-1].plain.Squares(), bs[len(bs)-1].plain.Name)
		if e.maxFile > 0 && (e.maxFile > bs[len(bs)-1].plain.Width || e.maxRank > bs[len(bs)-1].plain.Height) {
			inf.Reason = reason + fmt.Sprintf(", beyond the largest board, %s's", bs[len(bs)-1].plain.Name)
		}
		return inf
	}
	v := bs[i].plain
	switch {
	case e.maxFile > 0:
		if bs[i].alg != nil {
			v = bs[i].alg
		}
	case e.maxNum == 0:
		reason = "no moves (" + v.Name + " by default)"
	case i+1 < len(bs) && e.openings != nil && e.openings[i+1] > e.openings[i]:
		v = bs[i+1].plain
		reason += fmt.Sprintf(", with %s first moves in %d of %d games", v.Name, e.openings[i+1], e.untagged)
	}
	inf.Variant, inf.Reason = v, reason
	return inf
}
