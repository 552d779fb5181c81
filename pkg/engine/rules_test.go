package engine_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// legal returns the legal moves of fen in v's notation, sorted.
func legal(t *testing.T, v *engine.Variant, fen string) []string {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: ParseFEN(%q): %v", v.Name, fen, err)
	}
	var out []string
	for _, m := range v.Generate(nil, &p) {
		out = append(out, v.FormatMove(&p, m, false))
	}
	slices.Sort(out)
	return out
}

// play parses and plays text in fen and returns the position after it.
func play(t *testing.T, v *engine.Variant, fen, text string) engine.Position {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	m, err := v.ParseMove(&p, text)
	if err != nil {
		t.Fatalf("%s: ParseMove(%q, %q): %v", v.Name, fen, text, err)
	}
	return p.Play(m)
}

// Each case is one rule of docs/rules.md on a hand-built position: the complete list of legal
// moves expected in each variant that the position tells apart. 8x8 squares: 1=b8 ... 32=g1
// (docs/rules.md#numbering); russian and brazilian moves are written algebraically.
func TestRulesMoves(t *testing.T) {
	cases := []struct {
		rule string
		fen  string
		want map[string][]string
	}{
		{
			rule: "capture is compulsory",
			fen:  "B:W18:B14",
			want: map[string][]string{"english": {"14x23"}, "russian": {"c5:e3"}, "brazilian": {"c5xe3"}},
		},
		{
			rule: "a multi-capture must be completed",
			fen:  "B:W18,27:B14",
			want: map[string][]string{"english": {"14x32"}, "russian": {"c5:g1"}, "brazilian": {"c5xg1"}},
		},
		{
			rule: "men capture forward only in english, also backward elsewhere",
			fen:  "W:W18:B22",
			want: map[string][]string{"english": {"18-14", "18-15"}, "russian": {"d4:b2"}, "brazilian": {"d4xb2"}},
		},
		{
			rule: "men move forward only",
			fen:  "W:W18:B1",
			want: map[string][]string{"english": {"18-14", "18-15"}, "russian": {"d4-c5", "d4-e5"}},
		},
		{
			rule: "english kings are short, russian kings fly",
			fen:  "W:WK18:B1",
			want: map[string][]string{
				"english": {"18-14", "18-15", "18-22", "18-23"},
				"russian": {"d4-a1", "d4-a7", "d4-b2", "d4-b6", "d4-c3", "d4-c5", "d4-e3", "d4-e5", "d4-f2", "d4-f6", "d4-g1", "d4-g7", "d4-h8"},
			},
		},
		{
			rule: "free choice among captures (english, russian), majority rule (brazilian)",
			fen:  "B:W16,18,27:B11,14",
			want: map[string][]string{"english": {"11x20", "14x32"}, "russian": {"c5:g1", "f6:h4"}, "brazilian": {"c5xg1"}},
		},
		{
			// f6 takes e7 and reaches d8: english stops there crowned; russian is crowned and
			// goes on as a flying king over c7 (landing b6 or a5); brazilian goes on only as
			// a man would, to b6, and stays a man.
			rule: "promotion during a capture",
			fen:  "W:W11:B6,7",
			want: map[string][]string{"english": {"11x2"}, "russian": {"f6:a5", "f6:b6"}, "brazilian": {"f6xb6"}},
		},
		{
			// The king on a1 takes c3 and may stop on d4 ... h8, but only from e5 can it go on
			// (over d6 to c7 or b8): the sequence must be completed, so it lands on e5.
			rule: "a flying king must land where it can capture again",
			fen:  "W:WK29:B22,10",
			want: map[string][]string{"russian": {"a1:b8", "a1:c7"}, "brazilian": {"a1xb8", "a1xc7"}},
		},
	}
	for _, tc := range cases {
		for name, want := range tc.want {
			t.Run(tc.rule+"/"+name, func(t *testing.T) {
				v := engine.MustLookup(name)
				if got := legal(t, v, tc.fen); !slices.Equal(got, want) {
					t.Errorf("%s: legal moves of %q = %v, want %v", name, tc.fen, got, want)
				}
			})
		}
	}
}

// international (10x10): squares 1-50, White on 31-50 moving towards 1.
func TestRulesInternational(t *testing.T) {
	v := engine.MustLookup("international")
	cases := []struct {
		rule string
		fen  string
		want []string
	}{
		{"men capture backward", "W:W28:B33", []string{"28x39"}},
		{"kings fly", "W:WK28:B1", []string{"28-10", "28-11", "28-14", "28-17", "28-19", "28-22", "28-23", "28-32", "28-33", "28-37", "28-39", "28-41", "28-44", "28-46", "28-5", "28-50", "28-6"}},
		{"a king captures at distance and lands on any free square behind", "W:WK46:B28", []string{"46x10", "46x14", "46x19", "46x23", "46x5"}},
		{"majority rule: the sequence that takes most pieces", "W:W32,35:B17,27,30", []string{"32x12"}},
		// 12 takes 8 and lands on 3 (the crown row), then goes on as a man over 9 to 14
		{"a man that passes the crown row stays a man", "W:W12:B8,9", []string{"12x14"}},
	}
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			if got := legal(t, v, tc.fen); !slices.Equal(got, tc.want) {
				t.Errorf("legal moves of %q = %v, want %v", tc.fen, got, tc.want)
			}
		})
	}
	p := play(t, v, "W:W12:B8,9", "12x14")
	if m := p.Material(); m.Kings != [2]int{} {
		t.Errorf("12x14 over the crown row: the man was crowned (%s)", v.FEN(p))
	}
}

func TestRulesPromotionResult(t *testing.T) {
	for _, tc := range []struct {
		variant, fen, move string
		king               bool
	}{
		{"english", "W:W11:B6,7", "11x2", true},
		{"russian", "W:W11:B6,7", "f6:b6", true},
		{"brazilian", "W:W11:B6,7", "f6:b6", false},
		{"international", "W:W7:B2", "7-1", true},
	} {
		v := engine.MustLookup(tc.variant)
		p := play(t, v, tc.fen, tc.move)
		if got := p.Material().Kings != [2]int{}; got != tc.king {
			t.Errorf("%s: after %s from %q: crowned = %v, want %v (%s)", tc.variant, tc.move, tc.fen, got, tc.king, v.FEN(p))
		}
	}
}

// TestRulesCapturedPiecesStay: a king that has taken a piece cannot jump it again, and the
// piece blocks the king's way until the move ends ("Turkish strike"). The russian king on
// e1 takes f2, g5... and would take f2 again from the other side were it removed at once.
func TestRulesCapturedPiecesStay(t *testing.T) {
	// King c1: over d2 to e3; over d4 (NW) to c5 or b6; from c5 over d6 (NE) to e7 or f8.
	// From e7 (only) it could go on over f6 (SE) to g5 or h4; from g5 the way back (SW) to e3
	// is free, then d2 is already taken: it blocks, the move ends.
	v := engine.MustLookup("russian")
	got := legal(t, v, "W:WK30:B26,19,10,11")
	for _, m := range got {
		if strings.Count(m, ":") != 1 {
			t.Errorf("unexpected move form %q", m)
		}
	}
	p, _ := v.ParseFEN("W:WK30:B26,19,10,11")
	for _, m := range v.Generate(nil, &p) {
		if m.CaptureCount() > 4 {
			t.Errorf("a capture of %d pieces from %q: a piece was taken twice", m.CaptureCount(), v.FEN(p))
		}
	}
}

func TestFirstMover(t *testing.T) {
	for name, want := range map[string]engine.Color{"english": engine.Black, "international": engine.White, "russian": engine.White, "brazilian": engine.White} {
		if got := engine.MustLookup(name).Start().Side; got != want {
			t.Errorf("%s: first mover %s, want %s", name, got, want)
		}
	}
}

func TestNoLegalMoveLoses(t *testing.T) {
	for _, tc := range []struct{ variant, fen string }{
		{"english", "W:W29:B25,22"},       // a1 blocked by b2, and c3 behind it: no move, no capture
		{"english", "B:W18"},              // no black pieces
		{"international", "W:W46:B41,37"}, // 46 blocked
		{"russian", "B:W18:B"},            // black has nothing
	} {
		v := engine.MustLookup(tc.variant)
		p, err := v.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		g := engine.NewGame(v, p)
		o := g.Outcome()
		if !o.Over || o.Draw || o.Winner != p.Side.Other() || o.Reason != "no-legal-move" {
			t.Errorf("%s %q: outcome %v, want a win for %s (no-legal-move)", tc.variant, tc.fen, o, p.Side.Other())
		}
	}
}

// playAll plays moves (in v's notation) in a game from fen, failing on any error.
func playAll(t *testing.T, g *engine.Game, moves ...string) {
	t.Helper()
	for _, m := range moves {
		if _, err := g.PlayText(m); err != nil {
			t.Fatalf("playing %s: %v", m, err)
		}
	}
}

func TestDrawRepetition(t *testing.T) {
	for _, tc := range []struct {
		variant, fen string
		cycle        []string
	}{
		{"english", "W:WK29:BK4", []string{"29-25", "4-8", "25-29", "8-4"}},
		{"international", "W:WK46:BK1", []string{"46-41", "1-6", "41-46", "6-1"}},
		{"russian", "W:WK29:BK1", []string{"a1-b2", "b8-a7", "b2-a1", "a7-b8"}},
	} {
		v := engine.MustLookup(tc.variant)
		p, _ := v.ParseFEN(tc.fen)
		g := engine.NewGame(v, p)
		playAll(t, g, tc.cycle...) // the start position: second occurrence
		if o := g.Outcome(); o.Over {
			t.Fatalf("%s: over after one cycle: %v", tc.variant, o)
		}
		playAll(t, g, tc.cycle[:3]...)
		if o := g.Outcome(); o.Over {
			t.Fatalf("%s: over before the third occurrence: %v", tc.variant, o)
		}
		playAll(t, g, tc.cycle[3])
		if o := g.Outcome(); !o.Draw || o.Reason != "repetition" {
			t.Errorf("%s: third occurrence: outcome %v, want draw (repetition)", tc.variant, o)
		}
	}
}

// kingWalk plays n plies of non-capturing king moves, chosen so that the opponent has no
// capture afterwards (captures are compulsory and would end the walk) and, among those, the
// least-seen position comes next.
func kingWalk(t *testing.T, g *engine.Game, n int) {
	t.Helper()
	seen := map[uint64]int{}
	for i := 0; i < n; i++ {
		if o := g.Outcome(); o.Over {
			t.Fatalf("over after %d of %d plies: %v", i, n, o)
		}
		p := g.Position()
		var best engine.Move
		bestSeen := -1
		for _, m := range g.Legal() {
			if _, king, _ := p.At(m.From); m.IsCapture() || !king {
				continue
			}
			c := p.Play(m)
			s := seen[c.Hash]
			if g.Variant().HasCapture(&c) {
				s += 1000
			}
			if bestSeen < 0 || s < bestSeen {
				best, bestSeen = m, s
			}
		}
		if bestSeen < 0 {
			t.Fatalf("no quiet king move in %s", g.Variant().FEN(p))
		}
		if err := g.Play(best); err != nil {
			t.Fatal(err)
		}
		seen[g.Position().Hash]++
	}
}

// withoutRepetition returns v's rules with repetition turned off, to test a counter alone.
func withoutRepetition(t *testing.T, name string, edit func(*engine.Rules)) *engine.Variant {
	r := engine.MustLookup(name).Rules
	r.Draw.Repetition = 0
	r.Name += "-test"
	if edit != nil {
		edit(&r)
	}
	v, err := engine.NewVariant(r)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestDrawCounters(t *testing.T) {
	for _, tc := range []struct {
		name    string
		variant string
		edit    func(*engine.Rules)
		fen     string
		cycle   []string // moves played in turn; nil: a walk of king moves
		plies   int
		reason  string
	}{
		// english: 100 plies without a capture (seed 003)
		{"english 100 plies", "english", nil, "W:WK29,K31:BK2,K4", nil, 100, "no-capture-100"},
		// international: 25 moves each with kings only
		{"international 50 king plies", "international", nil, "W:WK46,K47,K48:BK1,K2,K3,K4", nil, 50, "king-moves-50"},
		// international: lone king against three pieces with a king, 16 moves each
		{"international 16-move ending", "international", func(r *engine.Rules) { r.Draw.KingMovePlies = 0 }, "W:WK46,K47,K48:BK3", nil, 32, "16-move-ending"},
		// russian: three kings against a lone king, the stronger side's 15th move
		// (the kings shuffle out of each other's lines: white moves on odd plies, so ply 29
		// is White's 15th move)
		{"russian three kings", "russian", nil, "W:WK29,K30,K20:BK5", []string{"c1-d2", "a7-b8", "d2-c1", "b8-a7"}, 29, "three-kings-15-moves"},
		// spanish: 40 king moves, 20 each, without a capture
		{"spanish 40 king plies", "spanish", nil, "W:WK29,K30:BK1,K2", nil, 40, "king-moves-40"},
		// pool: three kings against a lone king, the stronger side's 13th move (APCA)
		{"pool three kings", "pool", nil, "W:WK29,K30,K31:BK5", nil, 25, "three-kings-13-moves"},
		// frisian: two kings against one king, the stronger side's 7th move (Official Rules
		// 2011), and one king each, two moves each
		{"frisian two kings", "frisian", nil, "W:WK46,K50:BK1", []string{"46-41", "1-6", "41-46", "6-1"}, 13, "two-kings-7-moves"},
		{"frisian one king each", "frisian", nil, "W:WK46:BK1", []string{"46-41", "1-6", "41-46", "6-1"}, 4, "one-king-each"},
		// canadian: international's rules, with the kings on squares of index 64 and above
		{"canadian 50 king plies", "canadian", nil, "W:WK67,K68,K69:BK1,K2,K3,K4", nil, 50, "king-moves-50"},
		{"canadian 16-move ending", "canadian", func(r *engine.Rules) { r.Draw.KingMovePlies = 0 }, "W:WK67,K68,K72:BK3", nil, 32, "16-move-ending"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := withoutRepetition(t, tc.variant, tc.edit)
			p, err := v.ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			g := engine.NewGame(v, p)
			step := func(n int) {
				if tc.cycle == nil {
					kingWalk(t, g, n)
					return
				}
				for i := 0; i < n; i++ {
					playAll(t, g, tc.cycle[g.Ply()%len(tc.cycle)])
				}
			}
			step(tc.plies - 1)
			if o := g.Outcome(); o.Over {
				t.Fatalf("over one ply early: %v", o)
			}
			step(1)
			if o := g.Outcome(); !o.Draw || o.Reason != tc.reason {
				t.Errorf("after %d plies: %v, want draw (%s)", tc.plies, o, tc.reason)
			}
		})
	}
	// brazilian: one king each and nothing else is drawn at once
	v := engine.MustLookup("brazilian")
	p, _ := v.ParseFEN("W:WK29:BK4")
	if o := engine.NewGame(v, p).Outcome(); !o.Draw || o.Reason != "one-king-each" {
		t.Errorf("brazilian one king each: %v, want draw (one-king-each)", o)
	}
	// a man move resets the international king-move counter and is no draw reason itself
	v = engine.MustLookup("international")
	p, _ = v.ParseFEN("W:WK46,35:BK5")
	g := engine.NewGame(v, p)
	if _, err := g.PlayText("35-30"); err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); o.Over {
		t.Errorf("after a man move: %v", o)
	}
}

func TestParseMoveErrors(t *testing.T) {
	v := engine.MustLookup("international")
	for _, tc := range []struct {
		fen, move string
		want      error
	}{
		{"W:W32:B1", "32-28x", nil},
		{"W:W32:B1", "32-99", engine.ErrInvalidMove},
		{"W:W32:B1", "32", engine.ErrInvalidMove},
		{"W:W32:B1", "32-23", engine.ErrIllegalMove},
		{"W:W32:B1", "33-28", engine.ErrIllegalMove},
	} {
		p, _ := v.ParseFEN(tc.fen)
		_, err := v.ParseMove(&p, tc.move)
		if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("ParseMove(%q, %q) = %v, want %v", tc.fen, tc.move, err, tc.want)
		}
	}
}

// TestDuplicateCaptures: the man on 42 takes the ring 37, 27, 28, 38 round square 32 both
// ways and comes back to 42. For the rules that is one move; Keep counts both orders.
func TestDuplicateCaptures(t *testing.T) {
	v := engine.MustLookup("international")
	p, err := v.ParseFEN("W:W42:B27,28,37,38")
	if err != nil {
		t.Fatal(err)
	}
	unique := v.Generate(nil, &p)
	keep := v.GenerateDup(nil, &p, engine.Keep)
	if len(unique) != 1 || len(keep) != 2 || keep[0] != keep[1] || unique[0] != keep[0] {
		t.Fatalf("ring capture: unique %v, keep %v; want one move, and the same move twice", unique, keep)
	}
	if paths := v.Paths(&p, unique[0]); len(paths) != 2 {
		t.Errorf("Paths = %v, want the two orders", paths)
	}
	if got := v.FormatMove(&p, unique[0], true); got != "42x31x22x33x42" && got != "42x33x22x31x42" {
		t.Errorf("full notation %q, want a path round the ring", got)
	}
}

// TestAmbiguousCapture looks, in random games, for captures that share their two ends but
// take different pieces: the short form must be ambiguous and name every path, and each
// full path must resolve to its own move.
func TestAmbiguousCapture(t *testing.T) {
	for _, name := range []string{"russian", "international"} {
		v := engine.MustLookup(name)
		rng := rand.New(rand.NewPCG(1, 2))
		found := 0
		for game := 0; game < 3000 && found < 5; game++ {
			p := v.Start()
			for ply := 0; ply < 200; ply++ {
				moves := v.Generate(nil, &p)
				if len(moves) == 0 {
					break
				}
				byEnds := map[[2]engine.Index][]engine.Move{}
				for _, m := range moves {
					k := [2]engine.Index{m.From, m.To}
					byEnds[k] = append(byEnds[k], m)
				}
				for _, ms := range byEnds {
					if len(ms) > 1 {
						found++
						checkAmbiguous(t, v, &p, ms)
					}
				}
				p = p.Play(moves[rng.IntN(len(moves))])
			}
		}
		if found == 0 {
			t.Errorf("%s: no ambiguous capture in 3000 random games", name)
		}
	}
}

func checkAmbiguous(t *testing.T, v *engine.Variant, p *engine.Position, ms []engine.Move) {
	t.Helper()
	capture := "x"
	if v.Algebraic {
		capture = ":"
	}
	texts := map[string]bool{}
	for _, m := range ms {
		text := v.FormatMove(p, m, false)
		if texts[text] {
			t.Errorf("%s %s: two moves written %q", v.Name, v.FEN(*p), text)
		}
		texts[text] = true
		got, err := v.ParseMove(p, text)
		if err != nil || got != m {
			t.Errorf("%s %s: ParseMove(%q) = %v, %v; want the move it was written from", v.Name, v.FEN(*p), text, got, err)
		}
	}
	// The two ends alone name a move only when that move takes a single piece (its full
	// path); otherwise they are ambiguous and every candidate is listed.
	short := v.SquareName(v.Square(ms[0].From)) + capture + v.SquareName(v.Square(ms[0].To))
	_, err := v.ParseMove(p, short)
	var me *engine.MoveError
	if !texts[short] && (!errors.As(err, &me) || !errors.Is(err, engine.ErrAmbiguousMove) || len(me.Candidates) != len(ms)) {
		t.Errorf("%s %s: ParseMove(%q) = %v, want ErrAmbiguousMove with %d candidates", v.Name, v.FEN(*p), short, err, len(ms))
	}
}

// TestEndgameConditions: the special endings hold for exactly the material their rules name
// (pool: three kings and nothing else against a lone king; frisian: two kings against one).
func TestEndgameConditions(t *testing.T) {
	for _, tc := range []struct {
		variant, fen string
		holds        bool
		strong       engine.Color
	}{
		{"pool", "W:WK29,K30,K31:BK1", true, engine.White},
		{"pool", "B:WK29:BK1,K2,K3", true, engine.Black},
		{"pool", "W:WK29,K30,K31,25:BK1", false, 0}, // a man besides the three kings
		{"pool", "W:WK29,K30:BK1", false, 0},        // two kings only
		{"pool", "W:WK29,K30,K31:B1", false, 0},     // the lone piece is a man
		{"frisian", "W:WK46,K50:BK1", true, engine.White},
		{"frisian", "W:WK46,K50,K49:BK1", false, 0},
		{"frisian", "W:WK46,45:BK1", false, 0},
	} {
		v := engine.MustLookup(tc.variant)
		p, err := v.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		holds, strong := v.Draw.Endgames[0].Holds(p.Material())
		if holds != tc.holds || holds && strong != tc.strong {
			t.Errorf("%s %q: holds %v (strong %s), want %v (strong %s)", tc.variant, tc.fen, holds, strong, tc.holds, tc.strong)
		}
	}
}

// TestTooManyEndgames: a game and the search count at most four special endings, so
// NewVariant refuses a fifth rather than let one be ignored.
func TestTooManyEndgames(t *testing.T) {
	r := engine.MustLookup("international").Rules
	r.Name = "five-endings"
	rule := r.Draw.Endgames[0]
	r.Draw.Endgames = []engine.EndgameRule{rule, rule, rule, rule}
	if _, err := engine.NewVariant(r); err != nil {
		t.Fatalf("four endings: %v", err)
	}
	r.Draw.Endgames = append(r.Draw.Endgames, rule)
	if _, err := engine.NewVariant(r); err == nil || !strings.Contains(err.Error(), "5 special endings") {
		t.Errorf("five endings: err = %v, want one naming the 5 special endings", err)
	}
}

// TestBoardSizes: boards up to 80 bits in the padded layout are played (a 12x12 board
// takes 77, frisian's layout of a 12x12 board 88: too many), larger ones are refused with
// ErrUnsupported, and a 12x12 board without a variant of its own plays like canadian.
func TestBoardSizes(t *testing.T) {
	r := engine.MustLookup("canadian").Rules
	r.Name, r.GameType = "twelve", 0
	v, err := engine.NewVariant(r)
	if err != nil {
		t.Fatalf("12x12: %v", err)
	}
	if n, err := v.Perft(context.Background(), v.Start(), 4, engine.PerftOptions{}); err != nil || n != 10053 {
		t.Errorf("12x12 perft(4) = %d, %v; want 10053 (dctl, as canadian)", n, err)
	}
	for _, tc := range []struct {
		w, h       int
		orthogonal bool
	}{{14, 14, false}, {12, 12, true}} {
		r := r
		r.Width, r.Height, r.OrthogonalCaptures = tc.w, tc.h, tc.orthogonal
		if _, err := engine.NewVariant(r); !errors.Is(err, engine.ErrUnsupported) {
			t.Errorf("%dx%d (orthogonal %v): err = %v, want ErrUnsupported", tc.w, tc.h, tc.orthogonal, err)
		}
	}
}
