package pdn

import (
	"bytes"
	"io"
	"os"
	"testing"
)

func loadOCA(b *testing.B) []byte {
	path := corpusPath(b, "mzuluaga__checkers/OCA_2.0.pdn")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkRead reads the Open Checkers Archive (11.5 MB, 22,621 games)
// into Game values.
func BenchmarkRead(b *testing.B) {
	data := loadOCA(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data))
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 22621 {
			b.Fatalf("read %d games, want 22621", n)
		}
	}
}

// BenchmarkScan only tokenises the Open Checkers Archive.
func BenchmarkScan(b *testing.B) {
	data := loadOCA(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewScanner(bytes.NewReader(data))
		for {
			t, err := s.Next()
			if err != nil {
				b.Fatal(err)
			}
			if t.Kind == TokEOF {
				break
			}
		}
	}
}

// BenchmarkWrite writes the Open Checkers Archive as canonical PDN.
func BenchmarkWrite(b *testing.B) {
	data := loadOCA(b)
	r := NewReader(bytes.NewReader(data))
	var games []*Game
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		games = append(games, g)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		w := NewWriter(io.Discard)
		for _, g := range games {
			if err := w.Write(g); err != nil {
				b.Fatal(err)
			}
		}
		w.Flush()
	}
}
