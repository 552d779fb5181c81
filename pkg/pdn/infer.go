package pdn

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
)

// This file gathers what the games of an input say about the variant of
// those without a GameType tag: their largest squares and first moves;
// evidence.decide (variant.go) infers the variant from it.

// Inference is the variant of the games of one input that have no GameType
// tag, inferred from the whole input by InferVariant (or from one game by
// a Replayer that has no inference for its input).
type Inference struct {
	// Variant is the inferred variant; nil when every game of the input
	// has a GameType tag.
	Variant *engine.Variant
	// Reason says what the variant was inferred from, e.g. "square
	// numbers up to 50".
	Reason string
	// Games is the number of games without a GameType tag.
	Games int
	// tags says the variant is the GameType tags' of the other games: a
	// game whose own first move says otherwise is inferred alone (see
	// Replayer.variant).
	tags bool
}

// String returns "english, inferred from square numbers up to 32",
// "nothing to infer" when no game lacks a GameType tag, or "no variant
// (REASON)" when no variant's board holds their squares.
func (inf *Inference) String() string {
	if inf == nil || inf.Variant == nil && inf.Games == 0 {
		return "nothing to infer"
	}
	if inf.Variant == nil {
		return "no variant (" + inf.Reason + "): each game is inferred alone"
	}
	return inf.Variant.Name + ", inferred from " + inf.Reason
}

// InferVariant reads a whole input, PDN or JSON lines as NewGameReader
// reads them (gzip undone), and infers the variant of its games that have
// no GameType tag. The evidence is the input's, not one game's, so that a
// short game whose squares fit several boards gets the variant of its
// file. The variants are the engine's registered ones that have a PDN
// GameType:
//
//  1. when every game with a GameType tag names the same variant and the
//     squares of the games without one fit its board, that variant;
//  2. else the common variant (the first registered) of the smallest board
//     that the largest square of the games without a GameType tag fits (in
//     the main line, variations, FEN tags); none when no board holds it
//     (Variant nil, Games above 0, Reason says why: the Replayer then
//     infers each game alone, and a game no board holds is an
//     ErrNoVariant error); with
//     algebraic squares, the board's first variant written so, if any.
//     For the built-in variants: numbers above 50 or algebraic squares
//     beyond j10: canadian; above 32 or beyond h8: international; other
//     algebraic squares: russian; numbers up to 32: english;
//  3. for square numbers alone, the next larger board's common variant
//     instead when more of the games that start from the start position
//     open with a move legal there than with one legal in the first
//     (international against english for numbers up to 32).
//
// A game without a GameType tag whose input was inferred from the other
// games' tags (rule 1) is replayed with the variant of its own squares and
// first move when that first move is not one of the tags' board and is one
// of its own (Replayer.Variant).
//
// Replayer.Inferred takes the result. The games are read with the Reader's
// grammar, keeping of their movetext only the squares (as a Reader that
// replays while it reads keeps its main line: see SetReplayer), so that a
// game is weighed as the Reader reads it, damaged or not. InferVariant returns
// ctx.Err() when ctx is done, and the errors NewGameReader and Next return
// for input that cannot be read.
func InferVariant(ctx context.Context, r io.Reader, opt ReaderOptions) (*Inference, error) {
	inf, _, err := inferVariant(ctx, r, opt, -1)
	return inf, err
}

// InferVariantPrefix is InferVariant on about the first n bytes of the
// input's text (of the input itself for JSON lines): a guess, for a caller
// that cannot wait for the whole input and can check the guess later
// against an Evidence of all its games. whole reports that the bytes read
// were the whole input, so that inf is InferVariant's.
func InferVariantPrefix(ctx context.Context, r io.Reader, opt ReaderOptions, n int64) (inf *Inference, whole bool, err error) {
	return inferVariant(ctx, r, opt, max(n, 0))
}

// inferVariant is InferVariant reading at most about limit bytes (all of
// them when limit < 0); whole reports that it read the whole input. It
// reads the games as NewGameReader's reader reads them (the Reader's
// grammar, its fast paths included), into an arena recycled every
// inferBatch games, and weighs each as Evidence.Add does.
func inferVariant(ctx context.Context, r io.Reader, opt ReaderOptions, limit int64) (*Inference, bool, error) {
	cr := &countReader{r: r}
	gr, err := NewGameReader(cr, opt)
	if err != nil {
		return nil, false, err
	}
	read := func() int64 { return cr.n } // JSON lines: the input's bytes
	var arena *Arena
	if pr, ok := gr.(*Reader); ok {
		arena = new(Arena)
		pr.SetArena(arena)
		pr.gatherEvidence()
		read = pr.Offset // PDN: the bytes of its text
	}
	var e evidence
	for n := 0; ; n++ {
		if limit >= 0 && read() >= limit {
			return e.decide(), false, nil
		}
		if n%inferBatch == 0 {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
			if arena != nil {
				arena.Reset()
			}
		}
		g, err := gr.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, ErrNotPDN) {
			continue // (io.EOF follows)
		}
		if err != nil && !isGameError(err) {
			return nil, false, err
		}
		e.game(g)
	}
	return e.decide(), true, nil
}

// inferBatch is how many games inferVariant reads between two looks at
// its context (and two resets of its arena).
const inferBatch = 64

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Evidence gathers, game by game, what the games of one input say about
// the variant of those without a GameType tag: Infer then comes to the
// inference InferVariant makes of an input of these games. The zero value
// holds no game.
type Evidence struct{ e evidence }

// Add adds the evidence of g, a game as the Reader returns it (with or
// without an error).
func (e *Evidence) Add(g *Game) { e.e.game(g) }

// Merge adds the evidence of o's games (none if o is nil) to e's.
func (e *Evidence) Merge(o *Evidence) {
	if o == nil {
		return
	}
	a, b := &e.e, &o.e
	if b.tagged != nil {
		if a.tagged == nil {
			a.tagged = b.tagged
		} else if a.tagged != b.tagged {
			a.disagree = true
		}
	}
	a.disagree = a.disagree || b.disagree
	a.untagged += b.untagged
	a.maxNum, a.maxFile, a.maxRank = max(a.maxNum, b.maxNum), max(a.maxFile, b.maxFile), max(a.maxRank, b.maxRank)
	if b.openings != nil {
		if a.openings == nil {
			a.openings = make([]int, len(b.openings))
		}
		for i, n := range b.openings {
			a.openings[i] += n
		}
	}
}

// Infer returns the inference from the games added.
func (e *Evidence) Infer() *Inference { return e.e.decide() }

// Same reports whether a Replayer replays games alike with inference a
// as with b, as Replayer.Inferred: both have no variant (nil counts as
// none), or the same variant, inferred for the same reason.
func (a *Inference) Same(b *Inference) bool {
	if a == nil || a.Variant == nil || b == nil || b.Variant == nil {
		return (a == nil || a.Variant == nil) == (b == nil || b.Variant == nil) &&
			(a == nil || a.Variant != nil || b == nil || b.Variant != nil || a.Reason == b.Reason)
	}
	return a.Variant == b.Variant && a.Reason == b.Reason
}

// evidence is what an input says about the variant of its games without a
// GameType tag.
type evidence struct {
	untagged int
	// tagged is the variant of the GameType tags while they agree;
	// disagree is set when two name different variants.
	tagged   *engine.Variant
	disagree bool
	// The largest square of the games without a GameType tag: number,
	// and algebraic file (1 for a) and rank.
	maxNum, maxFile, maxRank int
	// openings counts, for each of boards(), the games without a GameType
	// tag that start from the start position and whose first move is legal
	// in the board's variant.
	openings []int
}

// gameEvidence is the evidence of one game.
type gameEvidence struct {
	gameType                 string
	custom                   bool // FEN tag or setup command: not the start position
	maxNum, maxFile, maxRank int
	from, to                 int  // the first main-line move, numeric squares (0: none)
	moved                    bool // the first main-line move was seen
}

// square notes a square of the game.
func (g *gameEvidence) square(s Square) {
	if s.IsAlgebraic() {
		g.maxFile = max(g.maxFile, int(s.File()-'a'+1))
		g.maxRank = max(g.maxRank, s.Rank())
		return
	}
	g.maxNum = max(g.maxNum, s.Num())
}

// fen notes the squares of a FEN tag or setup command.
func (g *gameEvidence) fen(fen string) {
	if strings.TrimSpace(fen) == "" {
		return
	}
	g.custom = true
	fields := strings.Split(fen, ":")
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" || (f[0]|0x20 != 'w' && f[0]|0x20 != 'b') {
			continue // H0, F1: clocks
		}
		for _, item := range strings.Split(f[1:], ",") {
			item = strings.TrimLeft(strings.TrimSpace(item), "Kk")
			if item == "" {
				continue
			}
			if c := item[0] | 0x20; c >= 'a' && c <= 'z' {
				if r, err := strconv.Atoi(strings.TrimRight(item[1:], ".")); err == nil && r > 0 && r < 100 && c != 'x' {
					g.square(AlgSquare(c, r))
				}
				continue
			}
			for _, part := range strings.Split(strings.TrimRight(item, "."), "-") {
				if n, err := strconv.Atoi(strings.TrimLeft(part, "Kk")); err == nil && n > 0 && n <= MaxSquareNumber {
					g.square(NumSquare(n))
				}
			}
		}
	}
}

// move notes a move of the game; main says it is in the main line.
func (g *gameEvidence) move(sq []Square, main bool) {
	for _, s := range sq {
		g.square(s)
	}
	if main && !g.moved {
		g.moved = true
		if len(sq) >= 2 && !sq[0].IsAlgebraic() && !sq[len(sq)-1].IsAlgebraic() {
			g.from, g.to = sq[0].Num(), sq[len(sq)-1].Num()
		}
	}
}

// add adds the evidence of one game.
func (e *evidence) add(g *gameEvidence) {
	if gt := strings.TrimSpace(g.gameType); gt != "" {
		if v, err := gameTypeVariant(gt); err == nil {
			if e.tagged == nil {
				e.tagged = v
			} else if e.tagged != v {
				e.disagree = true
			}
		}
		return
	}
	e.untagged++
	e.maxNum = max(e.maxNum, g.maxNum)
	e.maxFile = max(e.maxFile, g.maxFile)
	e.maxRank = max(e.maxRank, g.maxRank)
	if !g.custom && g.from > 0 {
		bs := boards()
		if e.openings == nil {
			e.openings = make([]int, len(bs))
		}
		for i := range bs {
			if bs[i].opening[[2]int{g.from, g.to}] {
				e.openings[i]++
			}
		}
	}
}

// game adds the evidence of a Game (JSON input, or one game alone).
func (e *evidence) game(g *Game) {
	var ge gameEvidence
	if g.read != nil {
		ge = g.read.ev // (the squares of its moves, gathered as it was read)
	}
	ge.gameType = g.Get("GameType")
	if strings.TrimSpace(ge.gameType) == "" { // (add uses the squares of untagged games alone)
		ge.fen(g.Get("FEN"))
		ge.nodes(g.Moves, true)
	}
	e.add(&ge)
}

func (g *gameEvidence) nodes(ns []Node, main bool) {
	// The largest square so far, in a register for the commonest move
	// (g.maxNum is brought up to date around the calls).
	maxNum := g.maxNum
	for i := range ns {
		switch n := &ns[i]; n.Kind {
		case MoveNode:
			// The commonest move, two numeric squares after the first
			// move of the main line, without a call.
			if sq := n.Move.Squares; len(sq) == 2 && (sq[0]|sq[1])&algebraicBit == 0 && (g.moved || !main) {
				maxNum = max(maxNum, int(sq[0]), int(sq[1]))
			} else if !n.Move.IsPlaceholder() {
				g.maxNum = maxNum
				g.move(n.Move.Squares, main)
				maxNum = g.maxNum
			}
		case SetupNode:
			if !g.moved && main {
				g.custom = true
			}
		case VariationNode:
			g.maxNum = maxNum
			g.nodes(n.Variation, false)
			maxNum = g.maxNum
		}
	}
	g.maxNum = maxNum
}
