package match

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/search"

	"github.com/rafle/rafle/pkg/engine"
)

// TestGenerateOpenings: a suite of four-ply english openings is the same for the same seed
// and another for another seed; every opening is legal, balanced in material, scored
// within the window (checked again with the same search), and no two are transpositions or
// near-duplicates.
func TestGenerateOpenings(t *testing.T) {
	cfg := GenerateConfig{Variant: english, Plies: 4, Count: 12, Depth: 3, Window: 20, Seed: 7, Jobs: 2}
	a, st, err := GenerateOpenings(context.Background(), cfg)
	if err != nil || len(a) != 12 {
		t.Fatalf("%d openings, %v", len(a), err)
	}
	if st.Positions < 12 || st.Scored < 12 {
		t.Errorf("stats %+v", st)
	}
	cfg.Jobs = 1
	b, _, _ := GenerateOpenings(context.Background(), cfg)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed with another number of jobs gave another suite")
	}
	cfg.Seed = 8
	if c, _, _ := GenerateOpenings(context.Background(), cfg); reflect.DeepEqual(a, c) {
		t.Error("seeds 7 and 8 gave the same suite")
	}
	check := SearchBalanced(english, 3, 20)
	for i, op := range a {
		p := op.Position()
		if len(op.Moves) != 4 || !MaterialBalanced(&p) || op.Score < -20 || op.Score > 20 || op.Name != fmt.Sprintf("gen-%d", i+1) {
			t.Errorf("%s: %d moves, score %d", op.Name, len(op.Moves), op.Score)
		}
		if err := checkPlayable(english, &op.Opening); err != nil {
			t.Error(err)
		}
		g := replayOpening(t, &op.Opening)
		if !check(g) {
			t.Errorf("%s: not balanced by the same search", op.Name)
		}
		for _, o := range a[:i] {
			q := o.Position()
			if nearDuplicate(&p, &q) {
				t.Errorf("%s and %s are near-duplicates", op.Name, o.Name)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := GenerateOpenings(ctx, cfg); err == nil {
		t.Error("a cancelled generation returned no error")
	}
}

// replayOpening returns the game after op's moves.
func replayOpening(t *testing.T, op *Opening) *engine.Game {
	g := engine.NewGame(english, op.Root)
	for _, m := range op.Moves {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestNearDuplicate: one man elsewhere is a near-duplicate, two are not, nor is the same
// board with the other side to move.
func TestNearDuplicate(t *testing.T) {
	fen := func(s string) engine.Position {
		p, err := english.ParseFEN(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	start := fen("B:W21-32:B1-12")
	for _, tt := range []struct {
		fen  string
		want bool
	}{
		{"B:W21-32:B1-12", true},
		{"B:W20,22-32:B1-12", true},      // one man elsewhere
		{"B:W21-31:B1-12", true},         // one man fewer
		{"B:W20,22-32:B1-11,13", false},  // two men elsewhere
		{"W:W21-32:B1-12", false},        // the other side to move
		{"B:W21-31,K32:B1-12", true},     // a man made a king: one square
		{"B:W20,22-31,K32:B1-12", false}, // and one man elsewhere
	} {
		p := fen(tt.fen)
		if got := nearDuplicate(&start, &p); got != tt.want {
			t.Errorf("%s: near-duplicate %v, want %v", tt.fen, got, tt.want)
		}
	}
}

// calibrationPlayer is a fast player with random moves for the calibration tests.
func calibrationPlayer(t *testing.T, spec string) search.PlayerSpec {
	t.Helper()
	ps, err := search.ParsePlayer(spec)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestGenerateCalibrated: with a calibration, every opening kept has calibration games
// that split evenly for the side to move, some positions are left out for games that did
// not, the counts add up, and the suite and its counts are the same with one job or two.
func TestGenerateCalibrated(t *testing.T) {
	cfg := GenerateConfig{Variant: english, Plies: 4, Count: 8, Depth: 3, Window: 30, Seed: 7, Jobs: 2,
		Calibration: Calibration{Games: 2, Player: calibrationPlayer(t, "depth=2:random=0.2:hash=1"), MaxPlies: 80}}
	a, st, err := GenerateOpenings(context.Background(), cfg)
	if err != nil || len(a) != 8 {
		t.Fatalf("%d openings, %v", len(a), err)
	}
	for _, op := range a {
		if op.Wins+op.Draws+op.Losses != 2 || 2*op.Wins+op.Draws != 2 || op.Score < -30 || op.Score > 30 {
			t.Errorf("%s: score %d, calibration +%d =%d -%d: want two games that split", op.Name, op.Score, op.Wins, op.Draws, op.Losses)
		}
	}
	if st.Unsplit == 0 || st.Calibrated < len(a)+st.Unsplit || st.Scored != len(a)+st.OutWindow+st.NearDups+st.Unsplit {
		t.Errorf("stats %+v: want some positions left out by the calibration, and the counts adding up", st)
	}
	cfg.Jobs = 1
	b, st1, err := GenerateOpenings(context.Background(), cfg)
	if err != nil || !reflect.DeepEqual(a, b) || st1.Unsplit != st.Unsplit || st1.Scored != st.Scored {
		t.Errorf("one job: %d openings, stats %+v, %v; two jobs: stats %+v", len(b), st1, err, st)
	}
	for _, bad := range []Calibration{
		{Games: -1, Player: cfg.Calibration.Player},
		{Games: 2, Player: calibrationPlayer(t, "depth=2")},               // the same game twice
		{Games: 1, Player: calibrationPlayer(t, "depth=2:movetime=10ms")}, // depends on the machine
		{Games: 1, Player: cfg.Calibration.Player, MaxPlies: -1},
	} {
		cfg.Calibration = bad
		if _, _, err := GenerateOpenings(context.Background(), cfg); err == nil {
			t.Errorf("calibration %+v: no error", bad)
		}
	}
}

// TestCalibratorSide: the calibration games count the results of the side to move after
// the opening, whichever colour it is: white to move takes black's last man (a win),
// black to move has no move (a loss), and a king each is a draw after the plies allowed.
func TestCalibratorSide(t *testing.T) {
	cfg := GenerateConfig{Variant: english, Seed: 3, Calibration: Calibration{Games: 1, Player: calibrationPlayer(t, "depth=4"), MaxPlies: 10}}
	c := newCalibrator(cfg)
	defer c.close()
	for _, tt := range []struct {
		fen  string
		want [3]int
	}{
		{"W:W18:B14", [3]int{1, 0, 0}},
		{"B:W32:B28", [3]int{0, 0, 1}},
		{"W:WK18:BK5", [3]int{0, 1, 0}},
	} {
		root, err := english.ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.play(context.Background(), 0, Opening{Name: tt.fen, Root: root})
		if err != nil || got != tt.want {
			t.Errorf("%s: wins, draws, losses %v, %v; want %v", tt.fen, got, err, tt.want)
		}
	}
}

// TestGenerateCalibrationCancelled: a calibration game that would take hours stops when
// the context is cancelled, and GenerateOpenings returns the context's error.
func TestGenerateCalibrationCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := GenerateConfig{Variant: english, Plies: 2, Count: 3, Depth: 1, Window: 1000, Seed: 1, Jobs: 2,
		Calibration: Calibration{Games: 1, Player: calibrationPlayer(t, "depth=60:hash=1")}}
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, _, err := GenerateOpenings(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want %v", err, context.Canceled)
	}
}
