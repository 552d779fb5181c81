package egdb

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestEnglishKingAgainstKing checks the slice of a king against a king in english draughts
// with the side to move's figures published by Ed Trice ("The 2-piece database": king
// against king with White to move, 992 positions: 230 wins, 654 draws, 108 losses, the
// longest win 11 plies).
func TestEnglishKingAgainstKing(t *testing.T) {
	dir := t.TempDir()
	v := engine.MustLookup("english")
	if _, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: 2, Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := db.Stats(Slice{0, 1, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions != 992 || st.Wins != 230 || st.Draws != 654 || st.Losses != 108 || st.LongestWin != 11 {
		t.Errorf("english king against king: %+v, want 992 positions, 230 wins, 654 draws, 108 losses, longest win 11 (Ed Trice)", st)
	}
}

// TestVerifyAndDamage builds a small database, verifies it, then damages a file in
// several ways: each is reported with the file's name, never read as values.
func TestVerifyAndDamage(t *testing.T) {
	dir := t.TempDir()
	v := engine.MustLookup("russian")
	if _, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: 3, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Verify(context.Background(), VerifyOptions{Jobs: 2}); err != nil {
		t.Fatalf("Verify of a fresh build: %v", err)
	}
	db.Close()
	name := filepath.Join(dir, fileName(Slice{1, 0, 1, 1}))
	orig, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.ParseFEN("W:Wc3:Bd6,Kh8")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		what string
		data []byte
	}{
		{"truncated", orig[:len(orig)/2]},
		{"a flipped bit", func() []byte { b := bytes.Clone(orig); b[len(b)/2] ^= 4; return b }()},
		{"empty", nil},
		{"another slice's file", func() []byte { b, _ := os.ReadFile(filepath.Join(dir, fileName(Slice{1, 1, 1, 0}))); return b }()},
	} {
		if err := os.WriteFile(name, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		db, err := Open(dir, v, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := db.Probe(&p)
		if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), name) || r.Value != Unknown {
			t.Errorf("%s file: Probe = %v, %v; want Unknown and an error naming %s", tc.what, r, err, name)
		}
		if err := db.Verify(context.Background(), VerifyOptions{}); !errors.Is(err, ErrDamaged) {
			t.Errorf("%s file: Verify = %v, want ErrDamaged", tc.what, err)
		}
		db.Close()
	}
}

// TestVerifyFindsWrongValue rewrites a slice with one value changed (a well-formed file):
// Verify names the position.
func TestVerifyFindsWrongValue(t *testing.T) {
	dir := t.TempDir()
	v := engine.MustLookup("english")
	if _, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: 3, Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	s := Slice{0, 2, 0, 1}
	db, err := Open(dir, v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	codes, err := newLoader(context.Background(), db).values(s) // with the values of the captures worked out
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	codes[100] += 2 // one ply longer
	if _, err := writeSlice(context.Background(), dir, v.Name, s, codes, true, nil); err != nil {
		t.Fatal(err)
	}
	db, err = Open(dir, v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Verify(context.Background(), VerifyOptions{Jobs: 1})
	if err == nil || !strings.Contains(err.Error(), "slice 0m2k-0m1k, position 100 ") {
		t.Errorf("Verify with a wrong value at 0m2k-0m1k #100: %v", err)
	}
}

// TestResume removes one slice of a build and builds again: only that slice is built, and
// its file is the same as before, byte for byte. What a killed build left of that slice (a
// temporary file) is removed; the temporary file of another slice, which a shard of the
// same stage running at once would be writing, is not (it was: the shard's rename failed).
func TestResume(t *testing.T) {
	dir := t.TempDir()
	v := engine.MustLookup("italian")
	if _, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: 3, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	s := Slice{1, 1, 1, 0}
	name := filepath.Join(dir, fileName(s))
	before, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(name)
	os.Remove(filepath.Join(dir, fileName(s.Swap())))
	stale := filepath.Join(dir, "."+fileName(s)+".tmp123")
	other := filepath.Join(dir, "."+fileName(Slice{0, 1, 0, 1})+".tmp456")
	for _, f := range []string{stale, other} {
		if err := os.WriteFile(f, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: 3, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	built := 0
	for _, r := range rs {
		if !r.Skipped {
			built++
			if r.Slice != s && r.Slice != s.Swap() {
				t.Errorf("resumed build rebuilt %s", r.Slice)
			}
		}
	}
	if built != 2 {
		t.Errorf("resumed build built %d slices, want 2", built)
	}
	after, err := os.ReadFile(name)
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the rebuilt %s differs from the first build's (%v)", name, err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the rebuilt slice's leftover %s is still there (%v)", stale, err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another slice's temporary file was removed: %v", err)
	}
}

// TestDistancePieces builds english up to 3 pieces with distances up to 2 only: the
// 3-piece slices hold the values of a full build without their distances (but where a
// capture leads to a slice with them), and verify.
func TestDistancePieces(t *testing.T) {
	v := engine.MustLookup("english")
	full, wdl := t.TempDir(), t.TempDir()
	if _, err := Build(context.Background(), v, BuildOptions{Dir: full, Pieces: 3, Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), v, BuildOptions{Dir: wdl, Pieces: 3, Jobs: 1, DistancePieces: 2}); err != nil {
		t.Fatal(err)
	}
	a, _ := Open(full, v, Options{})
	b, _ := Open(wdl, v, Options{})
	defer a.Close()
	defer b.Close()
	if err := b.Verify(context.Background(), VerifyOptions{Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	for _, s := range SlicesOf(v, 3) {
		for i := range a.Size(s) {
			p, _ := a.Position(s, i, engine.White)
			ra, err1 := a.Probe(&p)
			rb, err2 := b.Probe(&p)
			// a position with a capture gets its value from the slices after the capture,
			// which may have the distance
			if err1 != nil || err2 != nil || rb.Value != ra.Value || rb.Plies != -1 && rb.Plies != ra.Plies {
				t.Fatalf("%s: %v with distances, %v without (%v %v)", v.FEN(p), ra, rb, err1, err2)
			}
		}
	}
	// a build with distances on top of slices without: refused
	_, err := Build(context.Background(), v, BuildOptions{Dir: wdl, Pieces: 4, Jobs: 1})
	if err == nil || !strings.Contains(err.Error(), "has no distances") {
		t.Errorf("4 pieces with distances over 3 without: %v", err)
	}
}

// TestJobs builds international up to 3 pieces on one thread and on three: the files are
// the same, byte for byte (the retro pass applies its threads' work in order).
func TestJobs(t *testing.T) {
	v := engine.MustLookup("international")
	one, three := t.TempDir(), t.TempDir()
	for dir, jobs := range map[string]int{one: 1, three: 3} {
		if _, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: 3, Jobs: jobs}); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(one, "*"+FileExt))
	if len(files) != 16 {
		t.Fatalf("%d files, want 16", len(files))
	}
	for _, f := range files {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(three, filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: -j 3 gives another file than -j 1 (%v)", filepath.Base(f), err)
		}
	}
}
