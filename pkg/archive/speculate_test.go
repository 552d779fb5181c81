package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/testcorpus"
	"github.com/rafle/rafle/pkg/pdn"
)

// TestValidateInfer: Validate with Infer gives what InferVariants and then
// Validate give, when the guess from an input's start is right, when it
// is wrong (an international game after many english ones; a larger
// square number late in the input), when too many problems are held back,
// for an input whose games are all tagged and one too small to guess, with
// 1 and 3 goroutines, with and without a Select, and for CollectStats.
func TestValidateInfer(t *testing.T) {
	defer func(g int64, m int) { guessBytes, maxHeld = g, m }(guessBytes, maxHeld)
	guessBytes = 4 << 10
	english := "[Event \"e\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n\n"
	illegal := "[Event \"bad\"]\n1. 12-19 23-18 *\n\n"
	inputs := map[string]string{
		"right":        strings.Repeat(english, 200),
		"wrong":        strings.Repeat(english, 200) + "[Event \"i\"]\n1. 33-28 18-23 *\n",
		"reason":       strings.Repeat("1. 9-13 22-18 *\n\n", 300) + "1. 11-15 24-20 *\n",
		"held":         strings.Repeat(english+illegal, 150),
		"tagged":       strings.Repeat("[GameType \"20\"]\n1. 32-28 19-23 *\n\n", 200),
		"small":        english + illegal,
		"not-readable": "",
	}
	names := []string{"right", "wrong", "reason", "held", "tagged", "small", "not-readable"}
	newJob := func() Job {
		var job Job
		for _, name := range names {
			data := inputs[name]
			open := func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(data)), nil }
			if name == "not-readable" {
				open = func() (io.ReadCloser, error) { return nil, fmt.Errorf("cannot open %s", name) }
			}
			job.Inputs = append(job.Inputs, Input{Name: name, Open: open, Size: int64(len(data))})
		}
		return job
	}
	run := func(infer bool, jobs int, sel func(int) bool, stats bool) string {
		job := newJob()
		if sel != nil {
			// called once per game, as a shard's Select counts on
			calls := 0
			job.Select = func(i int) bool {
				if i != calls {
					t.Fatalf("Select(%d) after %d calls", i, calls)
				}
				calls++
				return sel(i)
			}
		}
		if !infer {
			if err := job.InferVariants(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		var b bytes.Buffer
		problem := func(p Problem) { fmt.Fprintf(&b, "%+v\n", p) }
		if stats {
			st, err := CollectStats(context.Background(), job, StatsOptions{Jobs: jobs, Replay: &pdn.Replayer{}, Infer: infer, Problem: problem})
			js, _ := json.Marshal(st.Report(10))
			fmt.Fprintf(&b, "%s\nerr %v\n", js, err)
			return b.String()
		}
		sums, err := Validate(context.Background(), job, ValidateOptions{Jobs: jobs, Replay: &pdn.Replayer{}, Infer: infer, Problem: problem})
		js, _ := json.Marshal(sums)
		fmt.Fprintf(&b, "%s\nerr %v\n", js, err)
		return b.String()
	}
	for _, m := range []int{1 << 16, 3} {
		maxHeld = m
		for _, jobs := range []int{1, 3} {
			for _, sel := range []func(int) bool{nil, func(i int) bool { return i%3 == 1 }} {
				for _, stats := range []bool{false, true} {
					want, got := run(false, jobs, sel, stats), run(true, jobs, sel, stats)
					if got != want {
						t.Errorf("maxHeld %d, -j %d, select %v, stats %v: with Infer\n%s\nwant (InferVariants first)\n%s", m, jobs, sel != nil, stats, got, want)
					}
				}
			}
		}
	}
	// the cases are what their names say
	job := newJob()
	job.InferVariants(context.Background())
	for i, in := range job.Inputs[:4] {
		guess, whole, err := pdn.InferVariantPrefix(context.Background(), strings.NewReader(inputs[in.Name]), pdn.ReaderOptions{}, guessBytes)
		if err != nil || whole || guess.Same(in.Inferred) != (i == 0 || i == 3) {
			t.Errorf("%s: guess %v (whole %v, %v), inference %v", in.Name, guess, whole, err, in.Inferred)
		}
	}
}

// TestValidateWhileReading validates every corpus file, strictly and
// leniently, at -j 1 and -j 2 (in pieces of 4 KiB) as the pdn command
// does (each game replayed as it is read: pdn.Reader.SetReplayer) and
// with the games built and replayed after reading (what ValidateOptions.game asks for), with the variant
// guessed from a small start of each input (guessBytes), and wants the
// same problems, summaries and error.
func TestValidateWhileReading(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("shared PDN corpus not found at %s: %v", corpusDir, err)
	}
	defer func(g int64) { guessBytes = g }(guessBytes)
	guessBytes = 4 << 10
	var files []string
	filepath.WalkDir(corpusDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".pdn") {
			files = append(files, path)
		}
		return nil
	})
	if testing.Short() && len(files) > 50 {
		files = files[:50]
	}
	built := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		data = testcorpus.Sample(data) // the Open Checkers Archive: a sample of 1 MB
		for _, strict := range []bool{false, true} {
			run := func(jobs int, whole bool) string {
				job := jobOf(data)
				job.Reader.Strict, job.pieceSize = strict, 4<<10
				var b strings.Builder
				opt := ValidateOptions{Jobs: jobs, Replay: &pdn.Replayer{}, Infer: true, Problem: func(p Problem) { fmt.Fprintf(&b, "%+v\n", p) }}
				if whole {
					opt.game = func(g *pdn.Game, _ error) {
						if g.Moves != nil {
							built++
						}
					}
				}
				sums, err := Validate(context.Background(), job, opt)
				js, _ := json.Marshal(sums)
				fmt.Fprintf(&b, "%s\nerr %v\n", js, err)
				return b.String()
			}
			want := run(1, true)
			for _, jobs := range []int{1, 2} {
				if got := run(jobs, false); got != want {
					t.Fatalf("%s (strict %v, %d jobs): replayed while read:\n%s", path, strict, jobs, firstDiff(got, want))
				}
			}
		}
	}
	if built == 0 {
		t.Fatal("no game built: the comparison compared nothing")
	}
}
