package pdn

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// pathological lists generators of damaged or hostile input of about n
// bytes: each was once read in memory or time out of proportion to its
// size (issue 15).
var pathological = []struct {
	name string
	gen  func(n int) []byte
}{
	{"open brackets", func(n int) []byte { return bytes.Repeat([]byte("["), n) }},
	{"stars", func(n int) []byte { return bytes.Repeat([]byte("*"), n) }},
	{"digits", func(n int) []byte { return bytes.Repeat([]byte("1"), n) }},
	{"repeated tag", func(n int) []byte { return bytes.Repeat([]byte(`[Event "x"]`), n/11) }},
	{"close parens", func(n int) []byte { return bytes.Repeat([]byte(")"), n) }},
	{"open parens", func(n int) []byte { return bytes.Repeat([]byte("("), n) }},
	{"dashes", func(n int) []byte { return bytes.Repeat([]byte("- "), n/2) }},
	{"open quotes", func(n int) []byte { return bytes.Repeat([]byte("\"\n"), n/2) }},
	{"open comments", func(n int) []byte { return bytes.Repeat([]byte("{\n[A \"\n"), n/7) }},
	{"binary", func(n int) []byte {
		b := make([]byte, n)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}},
}

// normalText returns about n bytes of ordinary games.
func normalText(n int) []byte {
	var b []byte
	for len(b) < n {
		b = append(b, strings.Join(gamesText(100, "\n"), "")...)
	}
	return b[:n]
}

// allocRead reads every game of data with a Reader over the whole of data
// in its buffer (as the parallel reading of Job does; whole set) or
// through a 64 KiB buffer, and returns the bytes allocated meanwhile and
// the largest ratio of a game's memory (gameSize) to the input it was
// read from.
func allocRead(t testing.TB, data []byte, whole bool) (alloc uint64, worst, mean float64) {
	var r *Reader
	if whole {
		r = ResumeBytes(data, io.EOF, Boundary{}, EncodingAuto)
	} else {
		r = NewReader(bytes.NewReader(data))
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for {
		off := r.Offset()
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, ErrNotPDN) {
			continue // (nothing of PDN: the input is read, then io.EOF)
		}
		var ge *GameError
		if err != nil && !errors.As(err, &ge) {
			t.Fatal(err)
		}
		// 1 KiB for the first bytes of a game: a Game, a warning.
		size, span := gameSize(g), r.Offset()-off
		worst = max(worst, float64(size-1024)/float64(span))
		mean += float64(size)
	}
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc, worst, mean / float64(len(data))
}

// gameSize returns the bytes of memory that g holds (strings counted
// each time they are referred to).
func gameSize(g *Game) int {
	n := int(unsafe.Sizeof(*g)) + cap(g.Tags)*int(unsafe.Sizeof(Tag{})) + nodesSize(g.Moves) +
		cap(g.Warnings)*int(unsafe.Sizeof(Warning{}))
	for _, t := range g.Tags {
		n += len(t.Name) + len(t.Value)
	}
	for _, w := range g.Warnings {
		n += len(w.Text)
	}
	return n
}

func nodesSize(ns []Node) int {
	n := cap(ns) * int(unsafe.Sizeof(Node{}))
	for _, nd := range ns {
		n += len(nd.Text) + nodesSize(nd.Variation)
		if m := nd.Move; m != nil {
			n += int(unsafe.Sizeof(*m)) + cap(m.Squares)*int(unsafe.Sizeof(Square(0))) + len(m.Text) + len(m.Strength)
		}
	}
	return n
}

// TestPathologicalMemory checks that what the Reader allocates for
// hostile input grows linearly with its size, and that no game holds
// more memory for its part of the input than ordinary games do (80 bytes
// a byte of input: a move node and its move take about 160 bytes for the
// 6 bytes of "11-15 ").
func TestPathologicalMemory(t *testing.T) {
	const n = 256 << 10
	normal, _, normalMean := allocRead(t, normalText(4*n), false)
	t.Logf("ordinary games: %.1f bytes allocated, %.1f held by the games, per byte of input", float64(normal)/(4*n), normalMean)
	for _, p := range pathological {
		t.Run(p.name, func(t *testing.T) {
			small, _, _ := allocRead(t, p.gen(n), false)
			large, worst, _ := allocRead(t, p.gen(4*n), false)
			if worst > 80 {
				t.Errorf("a game holds %.0f bytes per byte of input", worst)
			}
			// Every '*' is a game: a Game and its warning, 160 bytes.
			if perByte := float64(large) / (4 * n); perByte > 256 {
				t.Errorf("%d bytes allocated for %d bytes of input (%.0f per byte)", large, 4*n, perByte)
			}
			if ratio := float64(large) / float64(small); ratio > 6 {
				t.Errorf("4 times the input allocates %.1f times the memory (%d bytes, then %d), want about 4", ratio, small, large)
			}
		})
	}
}

// TestPathologicalTime checks that reading each hostile shape takes time linear in its
// size: four times the input may take at most ten times as long (the quadratic runs of
// digits took sixteen times as long). It compares one shape with itself at two sizes, best
// of three readings each, taken in turn, so that the shape's own cost per byte does not
// decide. The time is the CPU time of the thread that reads (threadCPU), which other
// processes do not stretch as they do the time on the clock (a loaded machine once gave
// 11 times for a linear shape by the clock); a shape over the bound is measured again, up
// to three times, before the test fails (a quadratic one stays near 16 however often it
// is measured).
func TestPathologicalTime(t *testing.T) {
	if testing.Short() {
		t.Skip("times several readings of up to 1 MB")
	}
	const n = 1 << 18
	// timed returns the CPU time of a reading of data, averaged over runs readings.
	timed := func(data []byte, runs int) time.Duration {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		start := threadCPU()
		for range runs {
			allocRead(t, data, true)
		}
		return (threadCPU() - start) / time.Duration(runs)
	}
	for _, p := range pathological {
		t.Run(p.name, func(t *testing.T) {
			smallData, largeData := p.gen(n), p.gen(4*n)
			// A shape read in microseconds is read several times a measure, so that a
			// page fault or a collection does not make the measure.
			runs := 1
			for runs < 64 && timed(smallData, runs)*time.Duration(runs) < 2*time.Millisecond {
				runs *= 2
			}
			timed := func(data []byte) time.Duration { return timed(data, runs) }
			var small, large time.Duration
			for range 3 {
				small, large = time.Duration(1<<62), time.Duration(1<<62)
				for range 3 {
					small = min(small, timed(smallData))
					large = min(large, timed(largeData))
				}
				if large <= 10*small {
					return
				}
			}
			t.Errorf("%v for %d bytes, %v for %d: %.1f times as long for 4 times the input", small, n, large, 4*n, float64(large)/float64(small))
		})
	}
}

// BenchmarkPathological reads 1 MB of each hostile input of pathological
// (generated, not stored) from a buffer that holds all of it, and reports
// its time and allocated bytes as ratios to those of 1 MB of ordinary
// games read the same way (the start of the Open Checkers Archive when
// the corpus is there): time-ratio and alloc-ratio should stay near 1.
func BenchmarkPathological(b *testing.B) {
	const n = 1 << 20
	normal := normalText(n)
	if data, err := os.ReadFile(filepath.Join(corpusDir, "mzuluaga__checkers/OCA_2.0.pdn")); err == nil {
		normal = data[:n]
	}
	measure := func(data []byte, runs int) (time.Duration, uint64) {
		start := time.Now()
		var alloc uint64
		for range runs {
			a, _, _ := allocRead(b, data, true)
			alloc += a
		}
		return time.Since(start) / time.Duration(runs), alloc / uint64(runs)
	}
	normalTime, normalAlloc := measure(normal, 5)
	for _, p := range pathological {
		b.Run(p.name, func(b *testing.B) {
			data := p.gen(n)
			b.SetBytes(int64(len(data)))
			var d time.Duration
			var alloc uint64
			for b.Loop() {
				t, a := measure(data, 1)
				d += t
				alloc += a
			}
			runs := float64(b.N)
			b.ReportMetric(float64(d)/runs/float64(normalTime), "time-ratio")
			b.ReportMetric(float64(alloc)/runs/float64(normalAlloc), "alloc-ratio")
		})
	}
}
