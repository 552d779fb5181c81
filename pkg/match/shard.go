package match

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is one of Count parts of a match, to be played on its own (on another machine of a
// cluster) and merged (Merge). A shard holds the game pairs whose number is Index modulo
// Count: pair k (games 2k and 2k+1, one opening with colours reversed) belongs to shard
// k mod Count, so that each shard holds whole pairs and its own pentanomial counts mean
// something. The games are exactly those of the one-machine match: same seed, openings,
// players and game numbers. A shard plays every game it holds even with an SPRT; the merge
// says where the test would have stopped.
type Shard struct {
	Index, Count int
}

// ParseShard reads "K/N": shard K (from 0) of N.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(k)
	c, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || c < 1 || i < 0 || i >= c {
		return Shard{}, fmt.Errorf("shard %q: want K/N with N at least 1 and K from 0 to N-1", s)
	}
	return Shard{Index: i, Count: c}, nil
}

// String writes the shard as ParseShard reads it.
func (s Shard) String() string { return strconv.Itoa(s.Index) + "/" + strconv.Itoa(s.Count) }

// Has reports whether game i belongs to the shard (every game when Count is 0 or 1).
func (s Shard) Has(i int) bool { return s.Count <= 1 || (i/2)%s.Count == s.Index }

// games returns how many of the first n games (a whole number of pairs) the shard holds.
func (s Shard) games(n int) int {
	if s.Count <= 1 {
		return n
	}
	pairs := n / 2
	return 2 * (pairs/s.Count + min(1, max(0, pairs%s.Count-s.Index)))
}
