package perftdiff

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// buggy is the Divider of a move generator that forgets the first move of the position
// target: its counts are consistent with its own moves, as a real engine's would be.
func buggy(target string) Divider {
	var perft func(v *engine.Variant, p engine.Position, depth int) uint64
	moves := func(v *engine.Variant, p engine.Position) []engine.Move {
		ms := v.Generate(nil, &p)
		if v.FEN(p) == target && len(ms) > 0 {
			ms = ms[1:]
		}
		return ms
	}
	perft = func(v *engine.Variant, p engine.Position, depth int) uint64 {
		if depth == 0 {
			return 1
		}
		var n uint64
		for _, m := range moves(v, p) {
			n += perft(v, p.Play(m), depth-1)
		}
		return n
	}
	return func(ctx context.Context, v *engine.Variant, p engine.Position, depth int) (Divide, error) {
		d := Divide{counts: map[engine.Move]uint64{}, names: map[engine.Move]string{}}
		for _, m := range moves(v, p) {
			n := perft(v, p.Play(m), depth-1)
			d.counts[m] += n
			d.names[m] = v.FormatMove(&p, m, false)
			d.sum += n
		}
		return d, nil
	}
}

// TestSearch: Search descends along the miscounted moves to the position where the other
// generator forgets a move, and reports it missing; a generator without the bug agrees.
func TestSearch(t *testing.T) {
	ctx := context.Background()
	v := engine.MustLookup("english")
	start := v.Start()
	first := v.Generate(nil, &start)
	slices.SortFunc(first, func(a, b engine.Move) int {
		return strings.Compare(v.FormatMove(&start, a, false), v.FormatMove(&start, b, false))
	})
	m1 := first[0] // the first by name: the one Search descends into
	p1 := start.Play(m1)
	replies := v.Generate(nil, &p1)
	p2 := p1.Play(replies[0])
	target := v.FEN(p2)

	var steps []Step
	last, err := Search(ctx, v, start, 4, Rafle(engine.PerftOptions{}), buggy(target), func(st *Step) error {
		steps = append(steps, *st)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 || steps[0].Result != Descend || steps[1].Result != Descend || last.Result != Difference {
		t.Fatalf("steps %+v, want descend, descend, difference", steps)
	}
	want := []string{v.FormatMove(&start, m1, false), v.FormatMove(&p1, replies[0], false)}
	if !slices.Equal(last.After, want) || last.FEN != target || last.Depth != 2 {
		t.Errorf("difference after %v at %s depth %d, want after %v at %s depth 2", last.After, last.FEN, last.Depth, want, target)
	}
	if len(last.Missing) != 1 || len(last.Extra)+len(last.Miscounted) != 0 || last.Reason != "" {
		t.Errorf("missing %v, extra %v, miscounted %v, reason %q; want one missing move", last.Missing, last.Extra, last.Miscounted, last.Reason)
	}

	steps = nil
	last, err = Search(ctx, v, start, 4, Rafle(engine.PerftOptions{}), buggy(""), func(st *Step) error {
		steps = append(steps, *st)
		return nil
	})
	if err != nil || len(steps) != 1 || last.Result != Agree {
		t.Errorf("without the bug: %+v, %v; want one step, agree", steps, err)
	}

	stop := errors.New("stop")
	if _, err := Search(ctx, v, start, 4, Rafle(engine.PerftOptions{}), buggy(target), func(*Step) error { return stop }); err != stop {
		t.Errorf("a step's error: Search returned %v", err)
	}
}

// TestReadDivide: MOVE COUNT lines are read in any notation, other lines ignored, and a
// total must be the sum of the moves.
func TestReadDivide(t *testing.T) {
	v := engine.MustLookup("english")
	p := v.Start()
	var out strings.Builder
	fmt.Fprintln(&out, "info engine v1")
	var sum uint64
	for i, m := range v.Generate(nil, &p) {
		fmt.Fprintf(&out, "%s: %d\n", v.FormatMove(&p, m, false), i+1)
		sum += uint64(i + 1)
	}
	total := fmt.Sprintf("Nodes searched: %d\n", sum)
	d, err := ReadDivide(strings.NewReader(out.String()+total), v, &p)
	if err != nil || d.Sum() != sum || len(d.counts) != len(v.Generate(nil, &p)) {
		t.Errorf("ReadDivide: %d moves, sum %d, %v; want %d moves, sum %d", len(d.counts), d.Sum(), err, len(v.Generate(nil, &p)), sum)
	}
	if _, err := ReadDivide(strings.NewReader(out.String()+"total 1\n"), v, &p); err == nil || !strings.Contains(err.Error(), "sum to") {
		t.Errorf("a wrong total: %v", err)
	}
	if _, err := ReadDivide(strings.NewReader("hello\n"), v, &p); err == nil || !strings.Contains(err.Error(), "no MOVE COUNT line") {
		t.Errorf("no divide: %v", err)
	}
	d, err = ReadDivide(strings.NewReader("1-2 5\n"), v, &p)
	if err != nil || d.extra["1-2"] != 5 || d.Sum() != 5 {
		t.Errorf("a move that is not legal: extra %v, %v", d.extra, err)
	}
}
