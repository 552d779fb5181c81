package shard

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Shard is part Index (from 0) of Count of a job run on several machines. The zero value,
// Count 0, is no shard: the whole job; so is a Count of 1 for Has and Len.
type Shard struct {
	Index, Count int
}

// Parse reads "K/N": shard K (from 0) of N, with N at least 1.
func Parse(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(k)
	c, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || c < 1 || i < 0 || i >= c {
		return Shard{}, fmt.Errorf("shard %q: want K/N with N at least 1 and K from 0 to N-1", s)
	}
	return Shard{Index: i, Count: c}, nil
}

// String writes the shard as Parse reads it.
func (s Shard) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) }

// Has reports whether item i (from 0) belongs to the shard: i is Index modulo Count, so
// that every shard holds every Count-th item and the shards take about the same time. It
// holds every item when Count is 0 or 1.
func (s Shard) Has(i int) bool { return s.Count <= 1 || i%s.Count == s.Index }

// Len returns how many of the items 0 to n-1 the shard holds.
func (s Shard) Len(n int) int {
	if s.Count <= 1 {
		return n
	}
	return n/s.Count + min(1, max(0, n%s.Count-s.Index))
}

// Path is the file of shard s for the file path of the whole job: "{shard}" in path
// becomes the shard's index, or the index is put before the extension (games.pdn becomes
// games.shard-3-of-8.pdn), so that every shard of an array job writes its own files. It
// returns path itself without a shard (Count 0) and, unless all is set, for a single one.
func (s Shard) Path(path string, all bool) string {
	if path == "" || s.Count == 0 || (s.Count == 1 && !all) {
		return path
	}
	if strings.Contains(path, "{shard}") {
		return strings.ReplaceAll(path, "{shard}", strconv.Itoa(s.Index))
	}
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s.shard-%d-of-%d%s", strings.TrimSuffix(path, ext), s.Index, s.Count, ext)
}
