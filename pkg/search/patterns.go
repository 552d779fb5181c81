package search

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search/internal/core"
)

// Pattern evaluation constants (docs/evaluation.md).
const (
	// PatternConfigs is the number of configurations of a window of 8 squares, each empty,
	// own man or other man: 3^8.
	PatternConfigs = core.PatternConfigs
	// PatternUnit is the number of pattern weight units per hundredth of a man.
	PatternUnit = core.PatternUnit
)

// Patterns are the pattern weights of a variant: for each window of its board
// (PatternWindows) and each configuration of the window's squares, a middle-game and an
// endgame weight, in 1/PatternUnit hundredths of a man. Values is indexed
// (window×PatternConfigs + configuration)×2 + phase (0 middle game, 1 endgame); a
// configuration is Σ 3^i·d_i over the window's squares i (PatternSquares), d 0 empty, 1 own
// man, 2 the other side's man, seen from the side whose view it is.
//
// In JSON, Patterns is an object {"windows": N, "encoding": "gzip-base64-int16le", "data":
// "..."}: Values as little-endian int16, gzipped, in base64 (most configurations never
// occur, so the data is mostly zeros).
type Patterns struct {
	Windows int
	Values  []int16
}

const patternEncoding = "gzip-base64-int16le"

type patternsJSON struct {
	Windows  int    `json:"windows"`
	Encoding string `json:"encoding"`
	Data     string `json:"data"`
}

// MarshalJSON encodes p as described at Patterns.
func (p *Patterns) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err := binary.Write(zw, binary.LittleEndian, p.Values); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return json.Marshal(patternsJSON{Windows: p.Windows, Encoding: patternEncoding,
		Data: base64.StdEncoding.EncodeToString(buf.Bytes())})
}

// maxPatternValues bounds the values a weights file may hold (16 windows on 10x10).
const maxPatternValues = 16 * PatternConfigs * 2

// UnmarshalJSON decodes p as described at Patterns.
func (p *Patterns) UnmarshalJSON(b []byte) error {
	var j patternsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	if j.Encoding != patternEncoding {
		return fmt.Errorf("patterns: encoding %q, want %q", j.Encoding, patternEncoding)
	}
	if j.Windows < 1 || j.Windows*PatternConfigs*2 > maxPatternValues {
		return fmt.Errorf("patterns: %d windows: want 1 to %d", j.Windows, maxPatternValues/PatternConfigs/2)
	}
	raw, err := base64.StdEncoding.DecodeString(j.Data)
	if err != nil {
		return fmt.Errorf("patterns: data: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("patterns: data: %w", err)
	}
	n := j.Windows * PatternConfigs * 2
	vals := make([]int16, n)
	if err := binary.Read(zr, binary.LittleEndian, vals); err != nil {
		return fmt.Errorf("patterns: data: want %d values: %w", n, err)
	}
	if k, _ := zr.Read(make([]byte, 1)); k != 0 {
		return errors.New("patterns: data: more values than the windows hold")
	}
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return fmt.Errorf("patterns: data: %w", err)
	}
	p.Windows, p.Values = j.Windows, vals
	return nil
}

// PatternWindows returns the number of pattern windows of v's board: 9 on 8x8, 16 on 10x10,
// 0 on boards without patterns (12x12, turkish).
func PatternWindows(v *engine.Variant) int { return core.PatternWindows(bvariant(v)) }

// PatternSquares returns the PDN squares of window w of v (0 ≤ w < PatternWindows(v)), in
// the order of a configuration's digits, from White's view.
func PatternSquares(v *engine.Variant, w int) []int { return core.PatternSquaresOf(bvariant(v), w) }

// PatternIndices appends to dst[:0] the pattern weights the evaluation of p reads, as
// window×PatternConfigs+configuration: the side to move's view of each window, then the
// other side's. The pattern term is Σ own − Σ other of phase·middle + (1−phase)·endgame
// weight, phase the returned share of the starting pieces left. nil for a variant without
// patterns.
func PatternIndices(v *engine.Variant, p *engine.Position, dst []int32) ([]int32, float64) {
	return core.PatternIndices(bvariant(v), bposition(p), dst)
}

// checkPatterns checks p against v's board.
func checkPatterns(p *Patterns, v *engine.Variant) error {
	n := core.PatternWindows(bvariant(v))
	switch {
	case n == 0:
		return fmt.Errorf("engine: weights for %s: patterns, but the variant's board has none", v.Name)
	case p.Windows != n || len(p.Values) != n*PatternConfigs*2:
		return fmt.Errorf("engine: weights for %s: patterns of %d windows, the board has %d", v.Name, p.Windows, n)
	}
	return nil
}
