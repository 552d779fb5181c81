package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// ocaPath is the Open Checkers Archive (11.5 MB of english games), when the shared corpus
// is present.
const ocaPath = "../../../shared/pdn/corpus/mzuluaga__checkers/OCA_2.0.pdn"

// BenchmarkReadPDN measures ReadPDN over the Open Checkers Archive (english, no GameType
// tags) as the pdn/replay benchmark does: SkipPlies 8.
func BenchmarkReadPDN(b *testing.B) {
	data, err := os.ReadFile(ocaPath)
	if err != nil {
		b.Skipf("no corpus: %v", err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d := NewDataset(engine.MustLookup("english"))
		if err := d.ReadPDN(context.Background(), bytes.NewReader(data), "OCA_2.0.pdn", Filter{SkipPlies: 8}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadPDNDigest writes a digest of the data sets ReadPDN builds from the shared corpus
// (every row, label and game id, the Stats and the error) with several filters and variants
// to the file named by $TUNE_DIGEST, to compare two versions of ReadPDN.
func TestReadPDNDigest(t *testing.T) {
	out := os.Getenv("TUNE_DIGEST")
	if out == "" {
		t.Skip("set TUNE_DIGEST to a file to write the digest to")
	}
	files, _ := filepath.Glob("../../../shared/pdn/corpus/wiegerw__pdn/games/*/*.pdn")
	sort.Strings(files)
	files = append([]string{ocaPath}, files...)
	filters := map[string]Filter{
		"default": {},
		"skip10":  {SkipPlies: 10},
		"strict":  {Quiet: QuietStrict},
		"resolve": {Quiet: QuietResolve},
		"none":    {Quiet: QuietNone, KeepDuplicates: true},
		"keepdup": {KeepDuplicates: true, SkipPlies: 3},
	}
	names := []string{"default", "skip10", "strict", "resolve", "none", "keepdup"}
	variants := []string{"", "english", "international", "frisian", "russian", "italian"}
	var buf bytes.Buffer
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, vn := range variants {
			for _, fn := range names {
				if file != ocaPath && fn != "default" && fn != "strict" && fn != "keepdup" {
					continue
				}
				var v *engine.Variant
				if vn != "" {
					v = engine.MustLookup(vn)
				}
				d := NewDataset(v)
				err := d.ReadPDN(context.Background(), bytes.NewReader(data), filepath.Base(file), filters[fn])
				h := fnv.New64a()
				for _, x := range d.X {
					fmt.Fprintf(h, "%08x", math.Float32bits(x))
				}
				for i := range d.Y {
					fmt.Fprintf(h, "|%g/%d", d.Y[i], d.Game[i])
				}
				st, _ := json.Marshal(d.Stats)
				fmt.Fprintf(&buf, "%s %s %s rows=%d games=%d digest=%016x stats=%s err=%v\n",
					filepath.Base(file), vn, fn, d.Len(), d.Games(), h.Sum64(), st, err)
			}
		}
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
