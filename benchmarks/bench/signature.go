package bench

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// SignatureDepth is the depth of the signature searches and SignatureHashMB the size of
// their transposition table; a change of either changes every signature.
const (
	SignatureDepth  = 7
	SignatureHashMB = 16
)

// Signature returns the bench signature of v: the total number of nodes visited by a
// search to SignatureDepth of each position of Positions[v.Name], with a new searcher of
// SignatureHashMB MiB cleared before each position. It depends only on the behaviour of
// the search, the evaluation and the move generator.
func Signature(ctx context.Context, v *engine.Variant) (int64, error) {
	ps, err := parsePositions(v)
	if err != nil {
		return 0, err
	}
	return searchNodes(ctx, v, search.New(v, nil, SignatureHashMB), ps, SignatureDepth), ctx.Err()
}

// searchNodes searches each of ps (positions of v) to depth with s, cleared before each
// position, and returns the nodes visited in all.
func searchNodes(ctx context.Context, v *engine.Variant, s *search.Searcher, ps []engine.Position, depth int) int64 {
	var nodes int64
	for _, p := range ps {
		s.Clear()
		nodes += s.Search(ctx, engine.NewGame(v, p), search.Limits{Depth: depth}).Nodes
	}
	return nodes
}

func parsePositions(v *engine.Variant) ([]engine.Position, error) {
	fens, ok := Positions[v.Name]
	if !ok {
		// a variant without a frozen set: its start position only
		return []engine.Position{v.Start()}, nil
	}
	ps := make([]engine.Position, len(fens))
	for i, f := range fens {
		p, err := v.ParseFEN(f)
		if err != nil {
			return nil, fmt.Errorf("bench: %s position %d: %w", v.Name, i+1, err)
		}
		ps[i] = p
	}
	return ps, nil
}

// Signatures is the committed file of expected signatures (benchmarks/signatures.json).
type Signatures struct {
	// Depth and HashMB record SignatureDepth and SignatureHashMB.
	Depth  int `json:"depth"`
	HashMB int `json:"hash_mb"`
	// Nodes is the signature per variant name.
	Nodes map[string]int64 `json:"nodes"`
}

// ComputeSignatures returns the signatures of every registered variant.
func ComputeSignatures(ctx context.Context) (*Signatures, error) {
	s := &Signatures{Depth: SignatureDepth, HashMB: SignatureHashMB, Nodes: map[string]int64{}}
	for _, v := range engine.Variants() {
		n, err := Signature(ctx, v)
		if err != nil {
			return nil, err
		}
		s.Nodes[v.Name] = n
	}
	return s, nil
}

// ReadSignatures reads a signatures file.
func ReadSignatures(path string) (*Signatures, error) {
	var s Signatures
	if err := readJSON(path, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Write writes s to path as indented JSON (map keys sorted).
func (s *Signatures) Write(path string) error { return writeJSON(path, s) }

// Diff lists, one line per variant in name order, how got differs from the expected
// signatures s: changed, new or missing variants, or a changed depth or hash size. It
// returns nil when they agree.
func (s *Signatures) Diff(got *Signatures) []string {
	var out []string
	if s.Depth != got.Depth || s.HashMB != got.HashMB {
		out = append(out, fmt.Sprintf("settings: depth %d, hash %d MiB; expected depth %d, hash %d MiB", got.Depth, got.HashMB, s.Depth, s.HashMB))
	}
	names := map[string]int64{}
	maps.Copy(names, s.Nodes)
	maps.Copy(names, got.Nodes)
	for _, n := range slices.Sorted(maps.Keys(names)) {
		want, hasWant := s.Nodes[n]
		have, hasHave := got.Nodes[n]
		switch {
		case !hasWant:
			out = append(out, fmt.Sprintf("%s: signature %d, but no expected signature (a new variant?)", n, have))
		case !hasHave:
			out = append(out, fmt.Sprintf("%s: expected signature %d, but the variant is not registered", n, want))
		case want != have:
			out = append(out, fmt.Sprintf("%s: signature %d, expected %d (%+d nodes, %+.2f%%)", n, have, want, have-want, 100*float64(have-want)/float64(want)))
		}
	}
	return out
}
