package archive

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rafle/rafle/pkg/pdn"
)

// TestCancel runs the streaming operations over the Open Checkers Archive repeated four
// times (90,484 games) and cancels their context once 1 MB has been read: each must
// return ctx's error having handled far fewer games than there are, and Split must leave
// only complete files.
func TestCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 46 MB")
	}
	oca, err := os.ReadFile(corpusPath(t, "mzuluaga__checkers/OCA_2.0.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	const copies, ocaGames = 4, 22621
	total := copies * ocaGames
	big := bytes.Repeat(oca, copies)
	for _, jobs := range []int{1, 2} {
		// job returns a job over big whose context is cancelled after 1 MB.
		job := func() (Job, context.Context) {
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			j := jobOf(big)
			j.Jobs = jobs
			j.Progress = func(done, _ int64) {
				if done > 1<<20 {
					cancel()
				}
			}
			return j, ctx
		}
		check := func(what string, n int, err error) {
			t.Helper()
			if !errors.Is(err, context.Canceled) || n <= 0 || n >= total/2 {
				t.Errorf("%s, %d jobs: %d of %d games, error %v; want some games, fewer than half, and context.Canceled",
					what, jobs, n, total, err)
			}
		}
		for _, rp := range []*pdn.Replayer{nil, {}} {
			j, ctx := job()
			sums, err := Validate(ctx, j, ValidateOptions{Jobs: jobs, Replay: rp})
			check("Validate", sums[0].Games, err)
		}
		j, ctx := job()
		res, err := Copy(ctx, j, pdn.NewJSONWriter(io.Discard), CopyOptions{})
		check("Copy", res.Read, err)
		for _, rp := range []*pdn.Replayer{nil, {}} {
			j, ctx = job()
			st, err := CollectStats(ctx, j, StatsOptions{Jobs: jobs, Replay: rp})
			check("CollectStats", st.Report(0).Games, err)
		}
		j, ctx = job()
		n := 0
		err = j.Each(ctx, func(*Input, int, *pdn.Game, error) error { n++; return nil })
		check("Each", n, err)

		dir := t.TempDir()
		j, ctx = job()
		sres, err := Split(ctx, j, SplitOptions{Every: 1000, Prefix: filepath.Join(dir, "part-")})
		check("Split", sres.Read, err)
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		if len(files) != len(sres.Files) || len(files) == 0 {
			t.Errorf("Split: %d files in the folder, %d listed; want the same, at least one", len(files), len(sres.Files))
		}
		for _, f := range sres.Files {
			if f.Games != 1000 {
				t.Errorf("Split: %s has %d games, want 1000", f.Name, f.Games)
			}
		}
	}
}
