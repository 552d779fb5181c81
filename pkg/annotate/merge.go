package annotate

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/rafle/rafle/pkg/shard"
)

// ErrShards is returned, wrapped, when files do not make the shards of one analysis.
var ErrShards = errors.New("the files are not the shards of one analysis")

// IsJournal reports whether the file at path starts as a journal (or a shard file) does.
// Only a regular file is opened (a FIFO would wait for a writer, and be read once).
func IsJournal(path string) bool {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	prefix := `{"format":"` + JournalFormat + `"`
	b := make([]byte, len(prefix))
	n, _ := io.ReadFull(f, b)
	return string(b[:n]) == prefix
}

// ReadShards reads the files that the N shards of one analysis wrote and returns their
// header (without the shard) and every record, in game order. Each file must be complete
// (its end line written), each shard there once, all with the same settings and inputs
// and the same count of games, and each holding its own games only.
func ReadShards(paths []string) (Header, []*Record, error) {
	var h0 Header
	var all []*Record
	seen := map[int]string{}
	count := 0
	for k, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return h0, nil, fmt.Errorf("annotate: %w", err)
		}
		h, recs, _, err := ReadJournal(f, path)
		f.Close()
		if err != nil {
			return h0, nil, err
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("annotate: %s: %w: %s", path, ErrShards, fmt.Sprintf(format, args...))
		}
		if h.Shard == "" {
			return h0, nil, bad("a journal of a whole run, not a shard")
		}
		sh, err := shard.Parse(h.Shard)
		if err != nil {
			return h0, nil, bad("shard %q: %v", h.Shard, err)
		}
		if h.End == nil {
			return h0, nil, bad("shard %s is not complete (no end line: resume it with --resume)", sh)
		}
		if k == 0 {
			h0, count = h, sh.Count
		} else {
			if err := SameHeader(h0, Header{Settings: h.Settings, Inputs: h.Inputs, Shard: h0.Shard}); err != nil {
				return h0, nil, bad("%v (the first file is %s)", err, paths[0])
			}
			if sh.Count != count {
				return h0, nil, bad("shard %s of %d shards, the first file's are of %d", sh, sh.Count, count)
			}
			if h.End.Games != h0.End.Games {
				return h0, nil, bad("it read %d games, %s read %d", h.End.Games, paths[0], h0.End.Games)
			}
		}
		if other, ok := seen[sh.Index]; ok {
			return h0, nil, bad("shard %s is also %s", sh, other)
		}
		seen[sh.Index] = path
		if len(recs) != h.End.Analysed || len(recs) != sh.Len(h.End.Games) {
			return h0, nil, bad("%d games, its end says %d, shard %s of %d games has %d", len(recs), h.End.Analysed, sh, h.End.Games, sh.Len(h.End.Games))
		}
		for _, r := range recs {
			if !sh.Has(r.Index) || r.Index >= h.End.Games {
				return h0, nil, bad("game %d is not one of shard %s", r.Index, sh)
			}
		}
		all = append(all, recs...)
	}
	if len(seen) != count {
		var missing []int
		for k := range count {
			if _, ok := seen[k]; !ok {
				missing = append(missing, k)
			}
		}
		return h0, nil, fmt.Errorf("annotate: %w: shards %v of %d are missing", ErrShards, missing, count)
	}
	slices.SortFunc(all, func(a, b *Record) int { return a.Index - b.Index })
	h0.Shard = ""
	return h0, all, nil
}
