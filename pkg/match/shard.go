package match

import "github.com/rafle/rafle/pkg/shard"

// Shard is one of Count parts of a match, to be played on its own (on another machine of a
// cluster) and merged (Merge). A shard holds the game pairs whose number is Index modulo
// Count: pair k (games 2k and 2k+1, one opening with colours reversed) belongs to shard
// k mod Count, so that each shard holds whole pairs and its own pentanomial counts mean
// something. The games are exactly those of the one-machine match: same seed, openings,
// players and game numbers. A shard plays every game it holds even with an SPRT; the merge
// says where the test would have stopped.
type Shard = shard.Shard

// hasGame reports whether game i belongs to shard s: its pair i/2 does (every game when
// Count is 0 or 1).
func hasGame(s Shard, i int) bool { return s.Has(i / 2) }

// shardGames returns how many of the first n games (a whole number of pairs) shard s holds.
func shardGames(s Shard, n int) int {
	if s.Count <= 1 {
		return n
	}
	return 2 * s.Len(n/2)
}
