package dxp

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// chunkReader returns data in pieces whose sizes come from rng (1 to max bytes).
type chunkReader struct {
	data []byte
	rng  *rand.Rand
	max  int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(1+c.rng.IntN(c.max), len(c.data), len(p))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// readAll reads messages until an error, which it returns with them.
func readAll(r *Reader) ([]string, error) {
	var msgs []string
	for {
		b, err := r.Read()
		if err != nil {
			return msgs, err
		}
		msgs = append(msgs, string(b))
	}
}

// wantMessages is the Reader's behaviour worked out by splitting data at every NUL: the
// non-empty messages up to the first one longer than MaxLen (the error then is
// ErrProtocol), and at the end io.EOF, or io.ErrUnexpectedEOF for a message without its NUL.
func wantMessages(data []byte) ([]string, error) {
	var msgs []string
	parts := bytes.Split(data, []byte{0})
	for i, p := range parts {
		switch {
		case len(p) > MaxLen:
			return msgs, ErrProtocol
		case i == len(parts)-1 && len(p) > 0:
			return msgs, io.ErrUnexpectedEOF
		case i < len(parts)-1 && len(p) > 0:
			msgs = append(msgs, string(p))
		}
	}
	return msgs, io.EOF
}

func TestReaderSplitsAndMerges(t *testing.T) {
	var stream []byte
	var want []string
	for _, tc := range specExamples {
		stream = append(append(stream, tc.text...), 0)
		want = append(want, tc.text)
	}
	// the whole stream in one read (every message merged), then in random pieces
	for i, max := range []int{len(stream), 1, 2, 3, 7, 40} {
		r := NewReader(&chunkReader{data: stream, rng: rand.New(rand.NewPCG(uint64(i), 1)), max: max})
		got, err := readAll(r)
		if err != io.EOF || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("pieces of at most %d bytes: got %q, %v; want %q, EOF", max, got, err, want)
		}
	}
}

func TestReaderRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 300 {
		// a stream of messages of random lengths (some empty, some too long at the end),
		// maybe cut short
		var data []byte
		for range rng.IntN(12) {
			n := rng.IntN(MaxLen + 1)
			if rng.IntN(40) == 0 {
				n = MaxLen + 1 + rng.IntN(20)
			}
			for range n {
				data = append(data, byte(1+rng.IntN(127)))
			}
			data = append(data, 0)
		}
		if rng.IntN(4) == 0 {
			data = data[:rng.IntN(len(data)+1)]
		}
		checkReader(t, data, rng.Uint64())
	}
}

// checkReader reads data in random pieces and compares with wantMessages.
func checkReader(t *testing.T, data []byte, seed uint64) {
	t.Helper()
	want, wantErr := wantMessages(data)
	r := NewReader(&chunkReader{data: data, rng: rand.New(rand.NewPCG(seed, 3)), max: 1 + int(seed%200)})
	got, err := readAll(r)
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) || !errors.Is(err, wantErr) {
		t.Fatalf("Reader(%q) in pieces (seed %d) = %q, %v; want %q, %v", data, seed, got, err, want, wantErr)
	}
	if _, again := r.Read(); !errors.Is(again, wantErr) {
		t.Fatalf("Reader(%q): Read after %v = %v", data, err, again)
	}
}

// FuzzReader checks the Reader against splitting at every NUL, with split points drawn
// from seed.
func FuzzReader(f *testing.F) {
	f.Add([]byte("E00\x00M0012061100\x00\x00K1"), uint64(1))
	f.Add([]byte(strings.Repeat("a", 130)+"\x00"), uint64(2))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) { checkReader(t, data, seed) })
}

// scripted returns its reads in order: data, or os.ErrDeadlineExceeded for "timeout", as
// a net.Conn with a read deadline does.
type scripted []string

func (s *scripted) Read(p []byte) (int, error) {
	if len(*s) == 0 {
		return 0, io.EOF
	}
	step := (*s)[0]
	*s = (*s)[1:]
	if step == "timeout" {
		return 0, os.ErrDeadlineExceeded
	}
	return copy(p, step), nil
}

func TestReaderRetriesAfterTimeout(t *testing.T) {
	r := NewReader(&scripted{"timeout", "E0", "timeout", "0\x00"})
	for i, want := range []string{"timeout", "timeout", "E00"} {
		b, err := r.Read()
		if want == "timeout" && !errors.Is(err, os.ErrDeadlineExceeded) || want != "timeout" && (err != nil || string(b) != want) {
			t.Fatalf("Read %d = %q, %v; want %s", i+1, b, err, want)
		}
	}
	if _, err := r.Read(); err != io.EOF {
		t.Fatalf("last Read: %v, want EOF", err)
	}
}
