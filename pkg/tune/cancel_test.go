package tune

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

// endless is a reader of the same game over and over, each with its own Event tag so that
// none is a duplicate: an input far too long to read to its end.
type endless struct {
	n   int
	buf []byte
}

func (e *endless) Read(p []byte) (int, error) {
	if len(e.buf) == 0 {
		e.n++
		g := strings.Replace(shortGame, `[Result "1-0"]`, fmt.Sprintf("[Result \"1-0\"]\n[Event \"%d\"]", e.n), 1)
		e.buf = []byte(g + "\n")
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	return n, nil
}

// TestReadStops: reading stops soon after its context is cancelled, saying how far it got.
func TestReadStops(t *testing.T) {
	v := engine.MustLookup("english")
	csvRows := &endlessCSV{}
	for _, tc := range []struct {
		name string
		read func(ctx context.Context, d *Dataset) error
	}{
		{"pdn", func(ctx context.Context, d *Dataset) error {
			return d.ReadPDN(ctx, &endless{}, "endless.pdn", Filter{})
		}},
		{"csv", func(ctx context.Context, d *Dataset) error { return d.ReadCSV(ctx, csvRows, "endless.csv", Filter{}) }},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		d := NewDataset(v)
		err := tc.read(ctx, d)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "after") {
			t.Errorf("%s: %v, want the context's error and how far it got", tc.name, err)
		}
		if el := time.Since(start); el > time.Second {
			t.Errorf("%s: stopped after %v, want within a second", tc.name, el)
		}
		if d.Len() == 0 {
			t.Errorf("%s: nothing read before the deadline", tc.name)
		}
	}
}

// endlessCSV is an endless CSV input, one game of two rows after another.
type endlessCSV struct {
	n   int
	buf []byte
}

func (e *endlessCSV) Read(p []byte) (int, error) {
	if len(e.buf) == 0 {
		if e.n == 0 {
			e.buf = []byte("game,ply,fen,result\n")
		}
		e.n++
		e.buf = fmt.Appendf(e.buf, "g%d,0,B:W21-32:B1-12,1-0\ng%d,1,W:W21-32:B1-11,%d-0\n", e.n, e.n, e.n%2)
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	return n, nil
}
