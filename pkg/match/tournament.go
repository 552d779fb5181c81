package match

import (
	"fmt"
	"strings"
)

// The kinds of tournament (Config.Tournament).
const (
	// RoundRobin: every player meets every other (the default, also spelled "").
	RoundRobin = "roundrobin"
	// Gauntlet: the first player meets every other, who do not meet each other: a new
	// version against its references, the commonest test of engine testers.
	Gauntlet = "gauntlet"
)

// Tournaments lists the kinds of tournament, for messages and help.
var Tournaments = []string{RoundRobin, Gauntlet}

// Pairings returns the pairings of a tournament of kind between n players, by index (a < b),
// in the schedule's order: a round robin's (0,1), (0,2), ..., (1,2), ...; a gauntlet's
// (0,1), (0,2), ..., (0,n-1). Each plays Config.Games games in pairs with colours
// reversed. An unknown kind has no pairings (checkTournament refuses it).
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

// normTournament returns kind as the constants spell it: "" is a round robin.
func normTournament(kind string) string {
	if kind == "" {
		return RoundRobin
	}
	return kind
}

// checkTournament refuses an unknown kind.
func checkTournament(kind string) error {
	switch normTournament(kind) {
	case RoundRobin, Gauntlet:
		return nil
	}
	return fmt.Errorf("match: tournament %q: want %s", kind, strings.Join(Tournaments, " or "))
}

// headerTournament is kind as the journal header records it: "" for a round robin, so
// that the journals written before tournaments existed still match.
func headerTournament(kind string) string {
	if normTournament(kind) == RoundRobin {
		return ""
	}
	return kind
}
