package match

import (
	"fmt"
	"math/bits"
	"strings"
)

// The kinds of tournament (Config.Tournament).
const (
	// RoundRobin: every player meets every other (the default, also spelled "").
	RoundRobin = "roundrobin"
	// Gauntlet: the first player meets every other, who do not meet each other: a new
	// version against its references, the commonest test of engine testers.
	Gauntlet = "gauntlet"
	// Swiss: Config.Rounds rounds, each pairing players of equal score (swissRound: the
	// Dutch system of the FIDE Handbook C.04.3, simplified), ranked by points, then
	// Buchholz, then Sonneborn-Berger (Standing).
	Swiss = "swiss"
	// Knockout: a seeded bracket (the order of Config.Players is the seeding), the winner of
	// each pairing's games going through, the higher seed on a tie (knockoutRound).
	Knockout = "knockout"
)

// Tournaments lists the kinds of tournament, for messages and help.
var Tournaments = []string{RoundRobin, Gauntlet, Swiss, Knockout}

// Pairings returns the pairings of a tournament of kind between n players, by index (a < b),
// in the schedule's order: a round robin's (0,1), (0,2), ..., (1,2), ...; a gauntlet's
// (0,1), (0,2), ..., (0,n-1). Each plays Config.Games games in pairs with colours
// reversed. A Swiss or knockout tournament, whose pairings depend on the results
// (SchedulePairings), and an unknown kind have none here.
func Pairings(kind string, n int) [][2]int {
	var ps [][2]int
	switch normTournament(kind) {
	case RoundRobin:
		for a := range n {
			for b := a + 1; b < n; b++ {
				ps = append(ps, [2]int{a, b})
			}
		}
	case Gauntlet:
		for b := 1; b < n; b++ {
			ps = append(ps, [2]int{0, b})
		}
	}
	return ps
}

// dynamic reports whether the pairings of kind depend on the results: they are made
// round by round.
func dynamic(kind string) bool { return kind == Swiss || kind == Knockout }

// normTournament returns kind as the constants spell it: "" is a round robin.
func normTournament(kind string) string {
	if kind == "" {
		return RoundRobin
	}
	return kind
}

// checkTournament refuses an unknown kind, and what a kind cannot have: a knockout's
// rounds are set by its players; a Swiss needs rounds from 1 to the players less one.
func checkTournament(cfg *Config) error {
	kind := normTournament(cfg.Tournament)
	switch kind {
	case RoundRobin, Gauntlet:
		if cfg.Rounds != 0 {
			return fmt.Errorf("match: %d rounds: only a swiss tournament has a number of rounds", cfg.Rounds)
		}
		return nil
	case Swiss:
		if n := len(cfg.Players); cfg.Rounds < 0 || cfg.Rounds > n-1+n%2 {
			return fmt.Errorf("match: swiss of %d rounds between %d players: want 1 to %d (0: %d)", cfg.Rounds, n, n-1+n%2, SwissRounds(n))
		}
	case Knockout:
		if cfg.Rounds != 0 {
			return fmt.Errorf("match: %d rounds: a knockout's rounds are set by its players (%d)", cfg.Rounds, knockoutRounds(len(cfg.Players)))
		}
	default:
		return fmt.Errorf("match: tournament %q: want %s", cfg.Tournament, strings.Join(Tournaments, ", "))
	}
	switch {
	case cfg.SPRT != nil:
		return fmt.Errorf("match: an SPRT tests one pairing: a %s tournament pairs its players from their results (play a round robin of the two)", kind)
	case cfg.Shard.Count > 1:
		return fmt.Errorf("match: a %s tournament cannot be sharded: each round is paired from the results of the rounds before, which the other shards would play; run it on one machine (--jobs), or shard a round robin or gauntlet", kind)
	}
	return nil
}

// CheckTournament returns the error Run gives for cfg's tournament settings (the kind, the
// rounds, and an SPRT or shards with a Swiss or knockout), for a command to refuse them
// before it starts anything.
func (cfg *Config) CheckTournament() error { return checkTournament(cfg) }

// SwissRounds is the default number of rounds of a Swiss tournament between n players:
// the least number that can leave one player alone on top, ceil(log2 n), at least 1.
func SwissRounds(n int) int { return max(1, bits.Len(uint(n-1))) }

// knockoutRounds is the number of rounds of a knockout between n players: ceil(log2 n).
func knockoutRounds(n int) int { return bits.Len(uint(n - 1)) }

// headerTournament is kind as the journal header records it: "" for a round robin, so
// that the journals written before tournaments existed still match.
func headerTournament(kind string) string {
	if normTournament(kind) == RoundRobin {
		return ""
	}
	return kind
}
