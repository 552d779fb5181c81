package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

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
// The input cancels the context itself once it has given 1 MiB, and reading must stop
// having taken at most 1 MiB more: a bound in bytes, which the machine's load does not
// move as it would a bound in seconds.
func TestReadStops(t *testing.T) {
	v := engine.MustLookup("english")
	for _, tc := range []struct {
		name string
		in   io.Reader
		read func(ctx context.Context, d *Dataset, in io.Reader) error
	}{
		{"pdn", &endless{}, func(ctx context.Context, d *Dataset, in io.Reader) error {
			return d.ReadPDN(ctx, in, "endless.pdn", Filter{})
		}},
		{"csv", &endlessCSV{}, func(ctx context.Context, d *Dataset, in io.Reader) error {
			return d.ReadCSV(ctx, in, "endless.csv", Filter{})
		}},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		in := &cancelAfter{r: tc.in, limit: 1 << 20, cancel: cancel}
		d := NewDataset(v)
		err := tc.read(ctx, d, in)
		cancel()
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "after") {
			t.Errorf("%s: %v, want the context's error and how far it got", tc.name, err)
		}
		t.Logf("%s: %d bytes read after the cancellation", tc.name, in.n-in.limit)
		if in.n > 2<<20 {
			t.Errorf("%s: read %d bytes, %d after the context was cancelled; want at most 1 MiB more", tc.name, in.n, in.n-in.limit)
		}
		if d.Len() == 0 {
			t.Errorf("%s: nothing read before the cancellation", tc.name)
		}
	}
}

// cancelAfter reads r and calls cancel once it has given limit bytes; n counts them.
type cancelAfter struct {
	r        io.Reader
	n, limit int
	cancel   func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	if c.n >= c.limit {
		c.cancel()
	}
	return n, err
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
