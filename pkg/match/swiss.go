package match

import (
	"slices"
)

// swissRound pairs one round of a Swiss tournament between n players, by the Dutch system
// of the FIDE Handbook (C.04.3 "FIDE (Dutch) System", the version approved in Baku 2016,
// in force until 30 June 2025, handbook.fide.com/chapter/C0403Till2025), simplified as
// engine matches allow:
//
//   - The players are ranked by score, then by their pairing number, the order of
//     Config.Players, their seeding (C.04.3 A.2).
//   - Players of equal score form a bracket; its upper half S1 meets its lower half S2 in
//     order, S1's first against S2's first and so on (C.04.3 B); when that would make two
//     players meet again (C.04.1 b: two players meet at most once), the next player of S2
//     is tried (a transposition), then S1's from the bottom (an exchange), then the
//     brackets below (a downfloater: the last player of an odd bracket floats down, C.04.3
//     A.4); the first pairing of the whole round that rematches no one wins (a search with
//     backtracking). When none exists (more rounds than the players allow), rematches are
//     allowed and the same order is kept.
//   - With an odd number of players, the lowest-ranked player who has not had one gets the
//     bye (C.04.1 c and d: one player is unpaired, and a player gets at most one), the
//     next one up when the others cannot be paired without a rematch (a rematch is allowed
//     before a second bye). It scores half the
//     pairing's games (byePoints), where C.04.1 c gives the points of a win "unless the
//     regulations of the tournament state otherwise": a bye is no game won.
//   - Colours are not allocated (C.04.3's colour criteria): every pairing plays its games
//     in pairs with colours reversed.
//
// The quality criteria on floats of earlier rounds (C.04.3 C) are not applied. score holds
// each player's points so far, met how many times two players (a < b) have met, hadBye who
// has had a bye. It returns the pairings (a < b) in board order (the higher-ranked
// player's rank) and the player with the bye (-1: none).
func swissRound(n int, score []float64, met map[[2]int]int, hadBye []bool) (pairs [][2]int, bye int) {
	rank := make([]int, n)
	for i := range rank {
		rank[i] = i
	}
	slices.SortStableFunc(rank, func(a, b int) int {
		switch {
		case score[a] > score[b]:
			return -1
		case score[a] < score[b]:
			return 1
		}
		return a - b
	})
	if n%2 == 0 {
		for _, rematch := range []bool{false, true} {
			if ps, ok := pairBrackets(rank, score, met, rematch); ok {
				return ps, -1
			}
		}
	}
	// the bye: from the bottom up, those who had none first; a rematch rather than a
	// second bye, both rather than no round
	var fresh, again []int
	for i := n - 1; i >= 0; i-- {
		if hadBye[rank[i]] {
			again = append(again, rank[i])
		} else {
			fresh = append(fresh, rank[i])
		}
	}
	for _, try := range []struct {
		cands   []int
		rematch bool
	}{{fresh, false}, {fresh, true}, {again, false}, {again, true}} {
		for _, b := range try.cands {
			rest := slices.DeleteFunc(slices.Clone(rank), func(p int) bool { return p == b })
			if ps, ok := pairBrackets(rest, score, met, try.rematch); ok {
				return ps, b
			}
		}
	}
	panic("match: swissRound: no pairing with rematches allowed")
}

// maxPairingNodes bounds the search of pairBrackets: a round it cannot pair without a
// rematch within this many steps is paired with rematches allowed.
const maxPairingNodes = 200_000

// pairBrackets pairs the players of rank (ranked, an even number) as swissRound says,
// without a rematch unless rematch is set.
func pairBrackets(rank []int, score []float64, met map[[2]int]int, rematch bool) ([][2]int, bool) {
	nodes := 0
	var rec func(rest []int) ([][2]int, bool)
	rec = func(rest []int) ([][2]int, bool) {
		if len(rest) == 0 {
			return nil, true
		}
		if nodes++; nodes > maxPairingNodes {
			return nil, false
		}
		p := rest[0]
		b := 1
		for b < len(rest) && score[rest[b]] == score[p] {
			b++
		}
		// candidates: S2 in order, then S1 from the bottom, then the brackets below
		var cands []int
		if b >= 2 {
			half := b / 2
			cands = append(cands, rest[half:b]...)
			for i := half - 1; i >= 1; i-- {
				cands = append(cands, rest[i])
			}
			cands = append(cands, rest[b:]...)
		} else {
			cands = rest[1:]
		}
		for _, q := range cands {
			key := [2]int{min(p, q), max(p, q)}
			if !rematch && met[key] > 0 {
				continue
			}
			sub := slices.DeleteFunc(slices.Clone(rest[1:]), func(x int) bool { return x == q })
			if ps, ok := rec(sub); ok {
				return append([][2]int{key}, ps...), true
			}
			if nodes > maxPairingNodes {
				return nil, false
			}
		}
		return nil, false
	}
	return rec(rank)
}

// knockoutSeeds returns the seeds (from 0) in bracket order for a bracket of size 2^r:
// slot pairs (0,1), (2,3), ... meet in the first round, and the best seeds meet as late as
// possible: 0 and 1 only in the final (the standard seeding: seed s meets size-1-s first).
func knockoutSeeds(r int) []int {
	order := []int{0}
	for size := 2; size <= 1<<r; size *= 2 {
		next := make([]int, 0, size)
		for _, s := range order {
			next = append(next, s, size-1-s)
		}
		order = next
	}
	return order
}
