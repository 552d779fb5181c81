package search_test

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// randomPositions plays random games and returns the positions met.
func randomPositions(v *engine.Variant, n int, seed uint64) []engine.Position {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []engine.Position
	for len(out) < n {
		p := v.Start()
		for ply := 0; ply < 120 && len(out) < n; ply++ {
			moves := v.Generate(nil, &p)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
			out = append(out, p)
		}
	}
	return out
}

func TestDefaultWeightsFit(t *testing.T) {
	for _, v := range engine.Variants() {
		w := search.DefaultWeights(v)
		if err := w.Check(v); err != nil {
			t.Errorf("%s: %v", v.Name, err)
		}
		if w.Variant != v.Name {
			t.Errorf("%s: DefaultWeights(%s).Variant = %q", v.Name, v.Name, w.Variant)
		}
		names := search.FeatureNames(v)
		if len(names) != len(w.Values) {
			t.Errorf("%s: %d features, %d weights", v.Name, len(names), len(w.Values))
		}
	}
}

// TestEvaluateIsLinear: the evaluation with the features alone (the hand-set weights) is
// exactly the dot product of the weights and the features, and the searcher's evaluation is
// that sum rounded (the pattern term: pattern_test.go).
func TestEvaluateIsLinear(t *testing.T) {
	for _, v := range engine.Variants() {
		w := search.HandWeights(v)
		names := search.FeatureNames(v)
		s := search.New(v, w, 1)
		var f []float64
		for _, p := range randomPositions(v, 500, 7) {
			f = search.Features(v, &p, f)
			if len(f) != len(names) {
				t.Fatalf("%s: %d features, %d names", v.Name, len(f), len(names))
			}
			var dot float64
			for i, n := range names {
				dot += w.Values[n] * f[i]
			}
			if e := search.Evaluate(v, w, &p); e != dot {
				t.Fatalf("%s %s: Evaluate = %v, dot(weights, features) = %v", v.Name, v.FEN(p), e, dot)
			}
			if got, want := s.Evaluate(&p), int(math.Round(dot)); got != want {
				t.Fatalf("%s %s: Searcher.Evaluate = %d, want %d", v.Name, v.FEN(p), got, want)
			}
		}
	}
}

// TestFeaturesSymmetric: features are side-to-move minus opponent, so the colour-flipped
// position (same board seen by the other side) has the same features, and the start
// position is balanced.
func TestFeaturesSymmetric(t *testing.T) {
	for _, v := range engine.Variants() {
		p := v.Start()
		names := search.FeatureNames(v)
		for i, x := range search.Features(v, &p, nil) {
			want := 0.0
			if names[i] == "tempo" {
				want = 1
			}
			if x != want {
				t.Errorf("%s start: feature %s = %v, want %v", v.Name, names[i], x, want)
			}
		}
		for _, p := range randomPositions(v, 200, 3) {
			q := flip(v, p)
			a, b := search.Features(v, &p, nil), search.Features(v, &q, nil)
			if !slices.Equal(a, b) {
				t.Fatalf("%s: features of %s = %v, of its mirror %s = %v", v.Name, v.FEN(p), a, v.FEN(q), b)
			}
		}
	}
}

// flip turns the board round and swaps the colours (square n becomes N+1-n).
func flip(v *engine.Variant, p engine.Position) engine.Position {
	n := v.Squares()
	var text strings.Builder
	text.WriteString(map[engine.Color]string{engine.White: "B", engine.Black: "W"}[p.Side])
	for _, c := range []engine.Color{engine.White, engine.Black} {
		text.WriteString(map[engine.Color]string{engine.White: ":B", engine.Black: ":W"}[c])
		first := true
		for s := 1; s <= n; s++ {
			i, _ := v.Index(engine.Square(s))
			pc, king, ok := p.At(i)
			if !ok || pc != c {
				continue
			}
			if !first {
				text.WriteString(",")
			}
			first = false
			if king {
				text.WriteString("K")
			}
			text.WriteString(strconv.Itoa(n + 1 - s))
		}
	}
	q, err := v.ParseFEN(text.String())
	if err != nil {
		panic(err)
	}
	return q
}

func TestWeightsRoundTrip(t *testing.T) {
	for _, v := range engine.Variants() {
		w := search.DefaultWeights(v)
		w.Values["man"] = 123.25
		var buf bytes.Buffer
		if err := w.Save(&buf); err != nil {
			t.Fatal(err)
		}
		got, err := search.LoadWeights(bytes.NewReader(buf.Bytes()), v)
		if err != nil {
			t.Fatalf("%s: LoadWeights(Save(w)): %v\n%s", v.Name, err, buf.String())
		}
		if got.Variant != w.Variant || len(got.Values) != len(w.Values) {
			t.Fatalf("%s: round trip: got %+v, want %+v", v.Name, got, w)
		}
		for k, x := range w.Values {
			if got.Values[k] != x {
				t.Errorf("%s: round trip: %s = %v, want %v", v.Name, k, got.Values[k], x)
			}
		}
		var again bytes.Buffer
		if err := got.Save(&again); err != nil || again.String() != buf.String() {
			t.Errorf("%s: saving the loaded weights gives other bytes", v.Name)
		}
	}
}

func TestLoadWeightsErrors(t *testing.T) {
	v := engine.MustLookup("english")
	good := search.HandWeights(v)
	var buf bytes.Buffer
	if err := good.Save(&buf); err != nil {
		t.Fatal(err)
	}
	valid := buf.String()
	tests := []struct {
		name, json string
		want       []string // substrings of the error
	}{
		{"unknown feature", strings.Replace(valid, `"man"`, `"mann"`, 1), []string{"unknown features: mann", "missing features: man"}},
		{"missing feature", strings.Replace(valid, `"tempo": 0`, `"x": 1`, 1), []string{"unknown features: x", "missing features: tempo"}},
		{"flying feature in english", strings.Replace(valid, `"tempo": 0`, `"tempo": 0, "king_diagonal": 3`, 1), []string{"unknown features: king_diagonal"}},
		{"other variant", strings.Replace(valid, `"english"`, `"russian"`, 1), []string{`for variant "russian"`}},
		{"unknown variant", strings.Replace(valid, `"english"`, `"chess"`, 1), []string{`"chess"`}},
		{"unknown field", strings.Replace(valid, `"variant"`, `"comment": "x", "variant"`, 1), []string{"comment"}},
		{"not json", "man=100", []string{"engine: weights"}},
		{"wrong type", `{"variant": "english", "values": {"man": "a"}}`, []string{"engine: weights"}},
		{"trailing data", valid + "{}", []string{"trailing"}},
		{"empty", "", []string{"EOF"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := search.LoadWeights(strings.NewReader(tc.json), v)
			if err == nil {
				t.Fatalf("LoadWeights(%q) succeeded", tc.json)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("LoadWeights: error %q does not contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
	// An alias names the same variant; an empty variant means the one asked for.
	for _, name := range []string{"checkers", ""} {
		text := strings.Replace(valid, `"english"`, `"`+name+`"`, 1)
		if _, err := search.LoadWeights(strings.NewReader(text), v); err != nil {
			t.Errorf("variant %q: %v", name, err)
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	for _, v := range engine.Variants() {
		b.Run(v.Name, func(b *testing.B) {
			ps := randomPositions(v, 1000, 5)
			s := search.New(v, nil, 1)
			b.ResetTimer()
			n := 0
			for b.Loop() {
				for i := range ps {
					n += s.Evaluate(&ps[i])
				}
			}
		})
	}
}

// TestDefaultWeightsCustomVariant: a variant without a weights file gets generic weights
// that fit it, and can be searched.
func TestDefaultWeightsCustomVariant(t *testing.T) {
	for _, short := range []bool{false, true} {
		v, err := engine.NewVariant(engine.Rules{Name: "mini", Width: 6, Height: 6, Rows: 2, ShortKings: short})
		if err != nil {
			t.Fatal(err)
		}
		w := search.DefaultWeights(v)
		if err := w.Check(v); err != nil {
			t.Fatalf("short kings %v: %v", short, err)
		}
		g := engine.NewGame(v, v.Start())
		r := search.New(v, w, 1).Search(context.Background(), g, search.Limits{Depth: 4})
		if r.Depth != 4 || len(r.PV) == 0 {
			t.Errorf("short kings %v: search of a custom variant: %+v", short, r)
		}
	}
}
