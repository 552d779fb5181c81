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
	// Source says where the weights come from (the data and command that trained them).
	Source string `json:"source,omitempty"`
	// Patterns are the pattern weights (nil: the evaluation is Values alone).
	Patterns *Patterns `json:"patterns,omitempty"`
}

// Clone returns a deep copy of w.
func (w *Weights) Clone() *Weights {
	c := &Weights{Variant: w.Variant, Values: make(map[string]float64, len(w.Values)), Source: w.Source}
	for k, x := range w.Values {
		c.Values[k] = x
	}
	if w.Patterns != nil {
		c.Patterns = &Patterns{Windows: w.Patterns.Windows, Values: slices.Clone(w.Patterns.Values)}
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
	if w.Patterns != nil {
		return checkPatterns(w.Patterns, v)
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

//go:embed weights/*.json weights/pattern
var weightFiles embed.FS

// Evaluations returns the names of the evaluations a player may choose (PlayerSpec.Eval).
func Evaluations() []string { return []string{EvalPattern, EvalHand} }

// The evaluations (docs/evaluation.md).
const (
	// EvalPattern is the trained evaluation: the named features and the pattern weights,
	// fitted by tune (weights/pattern/<variant>.json), where rafle ships them; elsewhere
	// the hand-set one.
	EvalPattern = "pattern"
	// EvalHand is the hand-set evaluation: the named features alone, with the weights of
	// weights/<variant>.json.
	EvalHand = "hand"
)

// HasPatternWeights reports whether rafle ships trained pattern weights for v.
func HasPatternWeights(v *engine.Variant) bool {
	f, err := weightFiles.Open("weights/pattern/" + v.Name + ".json")
	if err == nil {
		f.Close()
	}
	return err == nil
}

// DefaultWeights returns a fresh copy of v's built-in weights: the trained pattern weights
// (weights/pattern/<variant>.json) where rafle ships them, else HandWeights(v).
func DefaultWeights(v *engine.Variant) *Weights {
	if f, err := weightFiles.Open("weights/pattern/" + v.Name + ".json"); err == nil {
		defer f.Close()
		w, err := LoadWeights(f, v)
		if err != nil {
			panic(err) // the embedded files are checked by the tests
		}
		return w
	}
	return HandWeights(v)
}

// EvalWeights returns the built-in weights of the evaluation named eval (Evaluations):
// DefaultWeights or HandWeights.
func EvalWeights(v *engine.Variant, eval string) (*Weights, error) {
	switch eval {
	case EvalPattern, "":
		return DefaultWeights(v), nil
	case EvalHand:
		return HandWeights(v), nil
	}
	return nil, fmt.Errorf("engine: evaluation %q: want %s", eval, strings.Join(Evaluations(), " or "))
}

// HandWeights returns a fresh copy of v's hand-set weights (the named features alone),
// from the embedded file weights/<variant>.json; a variant without a file gets generic
// weights (those of russian when kings fly, of english otherwise).
func HandWeights(v *engine.Variant) *Weights {
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
