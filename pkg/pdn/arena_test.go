package pdn

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

// fill takes the elements of a batch from s, in takes of 1 to 7, numbers
// them, and checks that no take overlaps another.
func fill(t *testing.T, s *slab[int], total int) {
	t.Helper()
	got := make([][]int, 0, total)
	for n, k := 0, 1; n < total; n, k = n+k, k%7+1 {
		out := s.take(k, 16)
		if len(out) != k || cap(out) != k {
			t.Fatalf("take(%d) = len %d, cap %d", k, len(out), cap(out))
		}
		for i := range out {
			out[i] = n + i
		}
		got = append(got, out)
	}
	for n, k, j := 0, 1, 0; n < total; n, k, j = n+k, k%7+1, j+1 {
		for i, v := range got[j] {
			if v != n+i {
				t.Fatalf("element %d of take %d is %d, want %d: takes overlap", i, j, v, n+i)
			}
		}
	}
}

func TestSlabReusesChunks(t *testing.T) {
	var s slab[int]
	fill(t, &s, 1000)
	chunks := len(s.used) + 1
	s.reset()
	if len(s.spare)+1 != chunks || len(s.used) != 0 || len(s.cur) != 0 {
		t.Fatalf("after reset: %d spare chunks, %d used, cur of %d; want %d spare, 0 used, empty cur",
			len(s.spare), len(s.used), len(s.cur), chunks-1)
	}
	// The same batch again fits in the chunks of the first.
	allocs := testing.AllocsPerRun(10, func() {
		s.reset()
		fill(t, &s, 1000)
	})
	if allocs != 1 { // fill's got
		t.Errorf("a batch read again allocated %v times, want 1 (fill's own)", allocs)
	}
	// A take larger than a chunk gets one of its own.
	s.reset()
	if out := s.take(100, 16); len(out) != 100 {
		t.Errorf("take(100) returned %d elements", len(out))
	}
}

// Games read into an arena, reset and reused, are the games read without
// one.
func TestArenaGames(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		b.WriteString(`[Event "e"]
[Round "`)
		b.WriteString(strings.Repeat("1", i%5+1))
		b.WriteString(`"]
1. 11-15 23-19 {a comment} 2. 8-11 (2. 9-13 22-18) 22-17 3. 15x24 28x19 1-0

`)
	}
	in := b.String()
	want := readAll(t, NewReader(strings.NewReader(in)))
	var a Arena
	for range 3 {
		a.Reset()
		r := NewReader(strings.NewReader(in))
		r.SetArena(&a)
		got := readAll(t, r)
		if !reflect.DeepEqual(got, want) {
			t.Fatal("games read into an arena differ from those read without one")
		}
	}
}

func readAll(t *testing.T, r *Reader) []Game {
	t.Helper()
	var gs []Game
	for {
		g, err := r.Next()
		if err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			return gs
		}
		gs = append(gs, *g)
	}
}
