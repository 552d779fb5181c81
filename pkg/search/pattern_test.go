package search_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// TestPatternWindows: 9 windows on 8x8, 16 on 10x10, none on 12x12 and on turkish's board
// of every square; each window holds 8 distinct squares and together they cover the board.
func TestPatternWindows(t *testing.T) {
	for _, v := range engine.Variants() {
		want := 0
		switch {
		case v.Orthogonal:
		case v.Width == 8 && v.Height == 8:
			want = 9
		case v.Width == 10 && v.Height == 10:
			want = 16
		}
		n := search.PatternWindows(v)
		if n != want {
			t.Errorf("%s (%dx%d): PatternWindows = %d, want %d", v.Name, v.Width, v.Height, n, want)
			continue
		}
		covered := map[int]bool{}
		for w := range n {
			sq := search.PatternSquares(v, w)
			seen := map[int]bool{}
			for _, s := range sq {
				if s < 1 || s > v.Squares() || seen[s] {
					t.Errorf("%s: window %d: squares %v", v.Name, w, sq)
				}
				seen[s], covered[s] = true, true
			}
		}
		if n > 0 && len(covered) != v.Squares() {
			t.Errorf("%s: the windows cover %d of %d squares", v.Name, len(covered), v.Squares())
		}
	}
}

// randomPatterns returns weights for v with zero features and random patterns.
func randomPatterns(v *engine.Variant, seed uint64) *search.Weights {
	rng := rand.New(rand.NewPCG(seed, 2))
	w := search.HandWeights(v)
	for k := range w.Values {
		w.Values[k] = 0
	}
	n := search.PatternWindows(v)
	w.Patterns = &search.Patterns{Windows: n, Values: make([]int16, n*search.PatternConfigs*2)}
	for i := range w.Patterns.Values {
		w.Patterns.Values[i] = int16(rng.IntN(2001) - 1000)
	}
	return w
}

// referencePattern computes the pattern term square by square: White's view of window k
// reads its squares as PatternSquares lists them; Black's view reads the same window on the
// board turned half a turn (square s is square N+1-s), its own men being Black's.
func referencePattern(v *engine.Variant, w *search.Weights, p *engine.Position) int {
	n := v.Squares()
	man := func(s int) (engine.Color, bool) {
		i, _ := v.Index(engine.Square(s))
		c, king, ok := p.At(i)
		return c, ok && !king
	}
	config := func(k int, own engine.Color, turned bool) int {
		x, pow := 0, 1
		for _, s := range search.PatternSquares(v, k) {
			if turned {
				s = n + 1 - s
			}
			if c, ok := man(s); ok {
				if c == own {
					x += pow
				} else {
					x += 2 * pow
				}
			}
			pow *= 3
		}
		return x
	}
	var mg, eg int
	vals := w.Patterns.Values
	for k := range search.PatternWindows(v) {
		i := (k*search.PatternConfigs + config(k, engine.White, false)) * 2
		j := (k*search.PatternConfigs + config(k, engine.Black, true)) * 2
		mg += int(vals[i]) - int(vals[j])
		eg += int(vals[i+1]) - int(vals[j+1])
	}
	start := v.Start()
	sm, pm := start.Material(), p.Material()
	full := sm.Pieces(engine.White) + sm.Pieces(engine.Black)
	pieces := min(pm.Pieces(engine.White)+pm.Pieces(engine.Black), full)
	s := float64(mg*pieces+eg*(full-pieces)) / float64(full*search.PatternUnit)
	r := int(s + 0.5)
	if s < 0 {
		r = -int(-s + 0.5)
	}
	if p.Side == engine.Black {
		return -r
	}
	return r
}

// TestPatternTerm: the pattern term the search computes from the bitboards equals the
// square-by-square reference, with random weights, on random positions of every variant
// with patterns; so does Evaluate.
func TestPatternTerm(t *testing.T) {
	for _, v := range engine.Variants() {
		if search.PatternWindows(v) == 0 {
			continue
		}
		w := randomPatterns(v, 5)
		s := search.New(v, w, 1)
		for _, p := range randomPositions(v, 400, 11) {
			want := referencePattern(v, w, &p)
			if got := s.Evaluate(&p); got != want {
				t.Fatalf("%s: %s: Searcher.Evaluate = %d, want the pattern term %d", v.Name, v.FEN(p), got, want)
			}
			if got := search.Evaluate(v, w, &p); got != float64(want) {
				t.Fatalf("%s: %s: Evaluate = %g, want %d", v.Name, v.FEN(p), got, want)
			}
		}
	}
}

// TestPatternIndices: the pattern term computed from PatternIndices (as tune does) equals
// the search's, before rounding.
func TestPatternIndices(t *testing.T) {
	for _, name := range []string{"english", "international", "russian", "frisian"} {
		v := engine.MustLookup(name)
		w := randomPatterns(v, 9)
		var idx []int32
		for _, p := range randomPositions(v, 300, 3) {
			var phase float64
			idx, phase = search.PatternIndices(v, &p, idx)
			if len(idx) != 2*search.PatternWindows(v) {
				t.Fatalf("%s: %d indices, want %d", name, len(idx), 2*search.PatternWindows(v))
			}
			var q float64
			for j, c := range idx {
				x := phase*float64(w.Patterns.Values[2*c]) + (1-phase)*float64(w.Patterns.Values[2*c+1])
				if j >= len(idx)/2 {
					x = -x
				}
				q += x / search.PatternUnit
			}
			if got := search.Evaluate(v, w, &p); got < q-0.5-1e-9 || got > q+0.5+1e-9 {
				t.Fatalf("%s: %s: Evaluate = %g, the indices give %g", name, v.FEN(p), got, q)
			}
		}
	}
}

// TestPatternsJSON: weights with patterns survive Save and LoadWeights; a file whose
// patterns do not fit the board is refused.
func TestPatternsJSON(t *testing.T) {
	v := engine.MustLookup("english")
	w := randomPatterns(v, 1)
	w.Source = "test"
	var buf bytes.Buffer
	if err := w.Save(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := search.LoadWeights(bytes.NewReader(buf.Bytes()), v)
	if err != nil {
		t.Fatal(err)
	}
	if got.Source != "test" || got.Patterns.Windows != 9 || !slicesEqual(got.Patterns.Values, w.Patterns.Values) {
		t.Fatalf("LoadWeights(Save(w)) differs: source %q, %d windows", got.Source, got.Patterns.Windows)
	}
	_, err = search.LoadWeights(bytes.NewReader(buf.Bytes()), engine.MustLookup("international"))
	if err == nil || !strings.Contains(err.Error(), "not international") {
		t.Errorf("english patterns loaded for international: %v", err)
	}
	c := search.HandWeights(engine.MustLookup("canadian"))
	c.Patterns = w.Patterns
	buf.Reset()
	if err := c.Save(&buf); err != nil {
		t.Fatal(err)
	}
	_, err = search.LoadWeights(bytes.NewReader(buf.Bytes()), engine.MustLookup("canadian"))
	if err == nil || !strings.Contains(err.Error(), "has none") {
		t.Errorf("patterns loaded for canadian: %v", err)
	}
	buf.Reset()
	if err := w.Save(&buf); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(buf.String(), `"windows": 9`, `"windows": 8`, 1)
	if bad == buf.String() {
		t.Fatal("no windows field in the JSON")
	}
	if _, err := search.LoadWeights(strings.NewReader(bad), v); err == nil {
		t.Error("patterns with a wrong window count loaded")
	}
}

func slicesEqual(a, b []int16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestEvalOption: eval=hand plays the hand-set weights, eval=pattern (the default) the
// shipped pattern weights where there are some (english at least).
func TestEvalOption(t *testing.T) {
	if !search.HasPatternWeights(engine.MustLookup("english")) {
		t.Error("english: no shipped pattern weights")
	}
	for _, v := range engine.Variants() {
		w := search.DefaultWeights(v)
		if search.HasPatternWeights(v) != (w.Patterns != nil) || w.Patterns != nil && w.Source == "" {
			t.Errorf("%s: shipped %v, DefaultWeights with patterns %v, source %q", v.Name, search.HasPatternWeights(v), w.Patterns != nil, w.Source)
		}
		if w := search.HandWeights(v); w.Patterns != nil {
			t.Errorf("%s: HandWeights with patterns", v.Name)
		}
	}
	if _, err := search.ParsePlayer("hard:eval=hand:weights=w.json"); err == nil {
		t.Error("eval= and weights= together accepted")
	}
	if _, err := search.ParsePlayer("hard:eval=neural"); err == nil {
		t.Error("eval=neural accepted")
	}
	v := engine.MustLookup("english")
	hand, _ := search.ParsePlayer("hard:eval=hand")
	def, _ := search.ParsePlayer("hard")
	ph, err := hand.New(v, 1)
	if err != nil {
		t.Fatal(err)
	}
	pd, err := def.New(v, 1)
	if err != nil {
		t.Fatal(err)
	}
	sh, sd := search.New(v, search.HandWeights(v), 1), search.New(v, nil, 1)
	for _, p := range randomPositions(v, 200, 4) {
		if a, b := ph.Searcher().Evaluate(&p), sh.Evaluate(&p); a != b {
			t.Fatalf("eval=hand evaluates %s as %d, HandWeights as %d", v.FEN(p), a, b)
		}
		if a, b := pd.Searcher().Evaluate(&p), sd.Evaluate(&p); a != b {
			t.Fatalf("hard evaluates %s as %d, DefaultWeights as %d", v.FEN(p), a, b)
		}
	}
}

// TestPatternSymmetric: the same board seen by the other side (flip) has the same pattern
// term for its side to move, with random weights.
func TestPatternSymmetric(t *testing.T) {
	for _, v := range engine.Variants() {
		if search.PatternWindows(v) == 0 {
			continue
		}
		w := randomPatterns(v, 3)
		for _, p := range randomPositions(v, 200, 5) {
			q := flip(v, p)
			if a, b := search.Evaluate(v, w, &p), search.Evaluate(v, w, &q); a != b {
				t.Fatalf("%s: pattern term of %s = %g, of its mirror %s = %g", v.Name, v.FEN(p), a, v.FEN(q), b)
			}
		}
	}
}
