package search

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search/internal/core"
)

// Weights are the evaluation weights of one variant: one value per feature name.
type Weights struct {
	// Variant is the name of the variant the weights are for.
	Variant string `json:"variant"`
	// Values maps each feature name (FeatureNames) to its weight, in hundredths of a man.
	Values map[string]float64 `json:"values"`
}

// Clone returns a deep copy of w.
func (w *Weights) Clone() *Weights {
	c := &Weights{Variant: w.Variant, Values: make(map[string]float64, len(w.Values))}
	for k, x := range w.Values {
		c.Values[k] = x
	}
	return c
}

// Save writes w as indented JSON ({"variant": ..., "values": {...}}, keys sorted), the
// format LoadWeights reads.
func (w *Weights) Save(out io.Writer) error {
	b, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return fmt.Errorf("engine: weights: %w", err)
	}
	b = append(b, '\n')
	_, err = out.Write(b)
	return err
}

// Check returns an error naming every feature of v that w lacks and every name in w that is
// not a feature of v, or when w is for another variant.
func (w *Weights) Check(v *engine.Variant) error {
	if w.Variant != "" && !strings.EqualFold(w.Variant, v.Name) {
		if wv, err := engine.Lookup(w.Variant); err != nil || wv != v {
			return fmt.Errorf("engine: weights are for variant %q, not %s", w.Variant, v.Name)
		}
	}
	names := core.FeatureNames(bvariant(v))
	var missing, unknown []string
	for _, n := range names {
		if _, ok := w.Values[n]; !ok {
			missing = append(missing, n)
		}
	}
	for n := range w.Values {
		if !slices.Contains(names, n) {
			unknown = append(unknown, n)
		}
	}
	sort.Strings(unknown)
	var parts []string
	if len(unknown) > 0 {
		parts = append(parts, "unknown features: "+strings.Join(unknown, ", "))
	}
	if len(missing) > 0 {
		parts = append(parts, "missing features: "+strings.Join(missing, ", "))
	}
	if len(parts) > 0 {
		return fmt.Errorf("engine: weights for %s: %s", v.Name, strings.Join(parts, "; "))
	}
	return nil
}

// LoadWeights reads weights for v in the JSON format Save writes. It rejects unknown fields,
// weights for another variant, and a set of features that is not exactly FeatureNames(v),
// with an error naming the unknown and the missing features. An empty "variant" means v.
func LoadWeights(r io.Reader, v *engine.Variant) (*Weights, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var w Weights
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("engine: weights: %w", err)
	}
	if dec.More() {
		return nil, errors.New("engine: weights: trailing data after the JSON object")
	}
	if err := w.Check(v); err != nil {
		return nil, err
	}
	if w.Variant == "" {
		w.Variant = v.Name
	}
	return &w, nil
}

//go:embed weights/*.json
var weightFiles embed.FS

// DefaultWeights returns a fresh copy of v's built-in weights, from the embedded file
// weights/<variant>.json; a variant without a file gets generic weights (those of russian
// when kings fly, of english otherwise).
func DefaultWeights(v *engine.Variant) *Weights {
	if f, err := weightFiles.Open("weights/" + v.Name + ".json"); err == nil {
		defer f.Close()
		w, err := LoadWeights(f, v)
		if err != nil {
			panic(err) // the embedded files are checked by the tests
		}
		return w
	}
	// the values of russian (flying kings) and english (short kings), tuned by hand
	w := &Weights{Variant: v.Name, Values: map[string]float64{
		"man": 100, "king": 250, "advance": 2, "back_rank": 6, "centre": 5,
		"mobility": 5, "king_mobility": 1, "runaway": 30, "tempo": 0, "king_diagonal": 15,
	}}
	if v.ShortKings {
		w.Values = map[string]float64{
			"man": 100, "king": 150, "advance": 0, "back_rank": 12, "centre": 3,
			"mobility": 4, "king_mobility": 2, "runaway": 25, "tempo": 0,
		}
	}
	return w
}
