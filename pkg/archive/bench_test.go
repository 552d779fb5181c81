package archive

import (
	"context"
	"io"
	"strconv"
	"testing"

	"github.com/rafle/rafle/pkg/pdn"
)

// BenchmarkValidateInferred does what `pdn validate -j 1` does with the
// Open Checkers Archive, whose games have no GameType tag: validation with
// full replay, inferring the variant as it goes (ValidateOptions.Infer).
// Its CPU profile is cmd/pdn/default.pgo (see docs/benchmarks.md).
func BenchmarkValidateInferred(b *testing.B) {
	data := loadOCA(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		sums, err := Validate(context.Background(), jobOf(data), ValidateOptions{Jobs: 1, Replay: &pdn.Replayer{}, Infer: true})
		if err != nil {
			b.Fatal(err)
		}
		if sums[0].Replayed != 22621 {
			b.Fatalf("replayed %d games, want 22621", sums[0].Replayed)
		}
	}
}

// BenchmarkValidate validates the Open Checkers Archive with full replay
// (every move checked against the english rules), the variant inferred as
// it goes, as pdn validate does, with one goroutine and then two.
func BenchmarkValidate(b *testing.B) {
	data := loadOCA(b)
	for _, jobs := range []int{1, 2} {
		b.Run("j"+strconv.Itoa(jobs), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				sums, err := Validate(context.Background(), jobOf(data), ValidateOptions{Jobs: jobs, Replay: &pdn.Replayer{}, Infer: true})
				if err != nil {
					b.Fatal(err)
				}
				if sums[0].Replayed != 22621 {
					b.Fatalf("replayed %d games, want 22621", sums[0].Replayed)
				}
			}
		})
	}
}

// BenchmarkCopyJSON converts the Open Checkers Archive to JSON lines, as
// `pdn convert --to json` does, with one goroutine and then two.
func BenchmarkCopyJSON(b *testing.B) {
	data := loadOCA(b)
	for _, jobs := range []int{1, 2} {
		b.Run("j"+strconv.Itoa(jobs), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				job := jobOf(data)
				job.Jobs = jobs
				w := pdn.NewJSONWriter(io.Discard)
				res, err := Copy(context.Background(), job, w, CopyOptions{})
				if err == nil {
					err = w.Flush()
				}
				if err != nil {
					b.Fatal(err)
				}
				if res.Written != 22621 {
					b.Fatalf("wrote %d games, want 22621", res.Written)
				}
			}
		})
	}
}

// BenchmarkFinderScan follows every byte of the Open Checkers Archive with
// the chunk finder's exact mode (finder.scan), as a piece read wrong or a
// file without terminators makes it do, finding no boundary (minCut past
// the end).
func BenchmarkFinderScan(b *testing.B) {
	data := loadOCA(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		f := newFinder(0, 0)
		if i, _, found := f.scan(data, 0, 0, true, int64(len(data))+1); found || i != len(data) {
			b.Fatalf("scan stopped at %d of %d, found %v", i, len(data), found)
		}
	}
}
