package engine_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
)

// Generate the legal moves of a position and play one.
func Example() {
	v := engine.MustLookup("international")
	p := v.Start()
	moves := v.Generate(nil, &p)
	fmt.Println(len(moves), "moves; the first:", v.FormatMove(&p, moves[0], false))

	p = p.Play(moves[0])
	fmt.Println(p.Side, "to move:", v.FEN(p))
	// Output:
	// 9 moves; the first: 31-26
	// black to move: B:W26,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20
}

// Count the leaves of the move tree (perft), as published lists do.
func ExampleVariant_Perft() {
	v := engine.MustLookup("english")
	for depth := 1; depth <= 6; depth++ {
		n, err := v.Perft(context.Background(), v.Start(), depth, engine.PerftOptions{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(depth, n)
	}
	// Output:
	// 1 7
	// 2 49
	// 3 302
	// 4 1469
	// 5 7361
	// 6 36768
}

// Read a position in FEN, look at its squares and write it back.
func ExampleVariant_ParseFEN() {
	v := engine.MustLookup("international")
	p, err := v.ParseFEN("W:W31,K46:B18,19")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range []engine.Square{31, 46, 18} {
		i, _ := v.Index(s)
		c, king, _ := p.At(i)
		fmt.Println(s, c, "king:", king)
	}
	fmt.Println(p.Material())
	fmt.Println(v.FEN(p))

	_, err = v.ParseFEN("W:W31,99")
	fmt.Println(err)
	// Output:
	// 31 white king: false
	// 46 white king: true
	// 18 black king: false
	// {[1 2] [1 0]}
	// W:W31,K46:B18,19
	// engine: FEN "W:W31,99": "99": unknown square "99" (1-50)
}

// Read a move in any notation and write it in the variant's: a capture written short
// (from and to) is found among the legal moves; its path comes back in full.
func ExampleVariant_ParseMove() {
	v := engine.MustLookup("international")
	p, _ := v.ParseFEN("W:W32:B27,17")
	m, err := v.ParseMove(&p, "32x12")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.FormatMove(&p, m, false), v.FormatMove(&p, m, true), m.CaptureCount())

	_, err = v.ParseMove(&p, "32-28")
	fmt.Println(err)
	// Output:
	// 32x12 32x21x12 2
	// engine: illegal move "32-28"
}

// Replay the moves of a PDN game (its movetext) with a Game, which also applies the draw
// rules; pkg/pdn reads whole PDN files and replays them so.
func ExampleGame_PlayText() {
	movetext := "1. 11-15 22-18 2. 15x22 25x18 3. 8-11 29-25 4. 4-8 25-22"
	g := engine.NewGame(engine.MustLookup("english"), engine.MustLookup("english").Start())
	for _, tok := range strings.Fields(movetext) {
		if strings.HasSuffix(tok, ".") {
			continue // a move number
		}
		if _, err := g.PlayText(tok); err != nil {
			fmt.Println(err)
			return
		}
	}
	p := g.Position()
	fmt.Println(g.Ply(), "plies;", p.Side, "to move;", g.Outcome())
	fmt.Println(p.Material())
	// Output:
	// 8 plies; black to move; in progress
	// {[11 11] [0 0]}
}

// Define a variant by its rules: here russian draughts on a 6x6 board, with squares
// numbered as PDN does rather than named as in chess.
func ExampleNewVariant() {
	r := engine.MustLookup("russian").Rules
	r.Name, r.Aliases, r.GameType = "mini-russian", nil, 0
	r.Width, r.Height, r.Rows, r.Algebraic = 6, 6, 2, false
	v, err := engine.NewVariant(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := v.Start()
	fmt.Println(v.Squares(), "squares;", len(v.Generate(nil, &p)), "moves;", v.FEN(p))
	// Output:
	// 18 squares; 5 moves; W:W13,14,15,16,17,18:B1,2,3,4,5,6
}
