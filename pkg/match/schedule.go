package match

import (
	"fmt"
	"slices"
)

// pairing is two players by index, a < b.
type pairing struct{ a, b int }

// schedule maps game indexes to players, colours and openings. A round robin's or a
// gauntlet's is fixed from the start; a Swiss or knockout tournament's is paired round by
// round (stages), each once the games of the one before are all recorded (extend), so that
// a resumed match pairs its rounds again from its journal, as they were.
type schedule struct {
	kind     string
	players  []string
	games    int       // per pairing: Config.Games, rounded up to an even number
	pairings []pairing // a fixed schedule's; a dynamic one's distinct pairings in order of first game
	rounds   int       // opening rounds per pairing: games/2
	order    []int     // opening index per opening round
	stages   []stage   // a dynamic schedule's rounds paired so far
	planned  []int     // a dynamic schedule's games per round, fixed from the start
}

// stage is one round of a Swiss or knockout tournament.
type stage struct {
	first    int   // index of its first game
	pairings []int // into schedule.pairings, in board order
	// byes are the players without a game this round: a Swiss's bye (who scores
	// byePoints), a knockout's players who go through without a game.
	byes []int
	// alive, in a knockout, are the players still in, in bracket order (byes included).
	alive []int
}

func newSchedule(cfg *Config) schedule {
	s := schedule{kind: normTournament(cfg.Tournament), rounds: (cfg.Games + 1) / 2}
	s.games = 2 * s.rounds
	for _, p := range cfg.Players {
		s.players = append(s.players, p.Name)
	}
	n := len(cfg.Players)
	openingRounds := s.rounds
	switch s.kind {
	case Swiss:
		for range cmpOr(cfg.Rounds, SwissRounds(n)) {
			s.planned = append(s.planned, n/2*s.games)
		}
	case Knockout:
		r := knockoutRounds(n)
		for t := range r {
			matches := 1 << (r - 1 - t)
			if t == 0 {
				matches = n - 1<<(r-1)
			}
			s.planned = append(s.planned, matches*s.games)
		}
	default:
		for _, p := range Pairings(cfg.Tournament, n) {
			s.pairings = append(s.pairings, pairing{p[0], p[1]})
		}
	}
	if len(s.planned) > 0 {
		openingRounds = len(s.planned) * s.rounds
	}
	if cfg.shuffledOrder {
		s.order = shuffledOrder(len(cfg.Openings), openingRounds, cfg.Seed)
	} else {
		s.order = OpeningOrder(len(cfg.Openings), openingRounds, cfg.Seed)
	}
	return s
}

// OpeningRounds returns how many openings cfg plays, each by every pairing of its round
// (in game pairs): the games per pairing halved, times the rounds of a Swiss or knockout
// tournament. With at least that many openings, none is played twice (OpeningOrder).
func OpeningRounds(cfg *Config) int {
	s := newSchedule(&Config{Players: cfg.Players, Tournament: cfg.Tournament, Rounds: cfg.Rounds, Games: cfg.Games, Openings: make([]Opening, 1)})
	return len(s.order)
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

func (s *schedule) dynamic() bool { return dynamic(s.kind) }

// total is the number of games of the whole schedule.
func (s *schedule) total() int {
	if s.dynamic() {
		t := 0
		for _, g := range s.planned {
			t += g
		}
		return t
	}
	return s.games * len(s.pairings)
}

// known reports whether game i is paired yet.
func (s *schedule) known(i int) bool {
	if !s.dynamic() {
		return i >= 0 && i < s.total()
	}
	return i >= 0 && len(s.stages) > 0 && i < s.end(len(s.stages)-1)
}

// end is the index after the last game of stage t.
func (s *schedule) end(t int) int { return s.stages[t].first + s.planned[t] }

// Game describes game index i of a match: its pairing, its opening, and which player has
// the first-moving side of the variant (player a in the first game of a pair, player b in
// the second).
type Game struct {
	Index   int
	Pair    int // pair index: games 2k and 2k+1 form pair k
	Round   int // opening round: every pairing of a round plays the same opening
	Stage   int // a Swiss or knockout tournament's round, from 0 (0 for the other kinds)
	Pairing int // index into the pairings, in Pairings' order: (0,1), (0,2), ..., (1,2), ...
	A, B    int // the pairing's players, A < B
	First   int // the player with the variant's first-moving colour
	Opening int // index into Config.Openings
}

// game returns game i, which must be known.
func (s *schedule) game(i int) Game {
	k := i / 2
	g := Game{Index: i, Pair: k}
	if s.dynamic() {
		t := 0
		for t+1 < len(s.stages) && s.stages[t+1].first <= i {
			t++
		}
		st := &s.stages[t]
		j := (i - st.first) / 2 // pair within the stage
		g.Stage = t
		g.Round = t*s.rounds + j/len(st.pairings)
		g.Pairing = st.pairings[j%len(st.pairings)]
	} else {
		g.Round, g.Pairing = k/len(s.pairings), k%len(s.pairings)
	}
	p := s.pairings[g.Pairing]
	g.A, g.B = p.a, p.b
	g.First = p.a
	if i%2 == 1 {
		g.First = p.b
	}
	g.Opening = s.order[g.Round]
	return g
}

// Schedule returns the games cfg plays, in index order: for a Swiss or knockout
// tournament, only its first round, which the results do not decide. It panics if cfg has
// fewer than two players or no openings.
func Schedule(cfg *Config) []Game {
	if len(cfg.Players) < 2 || len(cfg.Openings) == 0 {
		panic("match: Schedule needs two players and an opening")
	}
	s := newSchedule(cfg)
	s.extend(nil)
	var out []Game
	for i := 0; s.known(i); i++ {
		out = append(out, s.game(i))
	}
	return out
}

// extend pairs the next rounds of a dynamic schedule while the last one paired has all its
// games in recs (by index), and reports whether it paired one. It does nothing to a fixed
// schedule.
func (s *schedule) extend(recs map[int]*Record) bool {
	paired := false
	for s.dynamic() && len(s.stages) < len(s.planned) {
		if t := len(s.stages) - 1; t >= 0 {
			for i := s.stages[t].first; i < s.end(t); i++ {
				if recs[i] == nil {
					return paired
				}
			}
		}
		s.pairStage(recs)
		paired = true
	}
	return paired
}

// pairStage pairs the next round from the results of the rounds before (all in recs).
func (s *schedule) pairStage(recs map[int]*Record) {
	first := 0
	if t := len(s.stages) - 1; t >= 0 {
		first = s.end(t)
	}
	var pairs [][2]int
	st := stage{first: first}
	if s.kind == Swiss {
		tb := s.swissTally(recs)
		var bye int
		pairs, bye = swissRound(len(s.players), tb.points, tb.met, tb.hadBye)
		if bye >= 0 {
			st.byes = []int{bye}
		}
	} else {
		pairs, st.byes, st.alive = s.knockoutStage(recs)
	}
	for _, p := range pairs {
		k := slices.Index(s.pairings, pairing{p[0], p[1]})
		if k < 0 {
			k = len(s.pairings)
			s.pairings = append(s.pairings, pairing{p[0], p[1]})
		}
		st.pairings = append(st.pairings, k)
	}
	if len(st.pairings)*s.games != s.planned[len(s.stages)] {
		panic(fmt.Sprintf("match: round %d paired %d pairings, planned %d games", len(s.stages)+1, len(st.pairings), s.planned[len(s.stages)]))
	}
	s.stages = append(s.stages, st)
}

// stagePoints returns the points of each player of pairing p in the games of stage t (in recs).
func (s *schedule) stagePoints(t int, p pairing, recs map[int]*Record) (a, b float64) {
	for i := s.stages[t].first; i < s.end(t); i++ {
		r := recs[i]
		if r == nil || s.game(i).Pairing != slices.Index(s.pairings, p) {
			continue
		}
		pa := gamePoints(r, s.players[p.a])
		a += pa
		b += 1 - pa
	}
	return a, b
}

// gamePoints returns the points of the player named name in r: 1, ½ or 0.
func gamePoints(r *Record, name string) float64 {
	switch {
	case r.Winner == "":
		return 0.5
	case (r.Winner == "white") == (r.White == name):
		return 1
	}
	return 0
}

// knockoutStage returns the next round of a knockout: its pairings, the players who go
// through without a game, and the players still in, in bracket order.
func (s *schedule) knockoutStage(recs map[int]*Record) (pairs [][2]int, byes, alive []int) {
	n := len(s.players)
	if len(s.stages) == 0 {
		for _, seed := range knockoutSeeds(knockoutRounds(n)) {
			alive = append(alive, seed) // seeds of n and above are empty slots
		}
	} else {
		t := len(s.stages) - 1
		prev := s.stages[t].alive
		for j := 0; j+1 < len(prev); j += 2 {
			alive = append(alive, s.knockoutWinner(t, prev[j], prev[j+1], recs))
		}
	}
	for j := 0; j+1 < len(alive); j += 2 {
		a, b := alive[j], alive[j+1]
		switch {
		case b >= n:
			byes = append(byes, a)
		case a >= n:
			byes = append(byes, b)
		default:
			pairs = append(pairs, [2]int{min(a, b), max(a, b)})
		}
	}
	return pairs, byes, alive
}

// knockoutWinner returns who of a and b (either one an empty slot, n or above) goes
// through from stage t: the player alone, or the one with more points in their games, the
// higher seed (the lower index) on a tie.
func (s *schedule) knockoutWinner(t, a, b int, recs map[int]*Record) int {
	n := len(s.players)
	switch {
	case b >= n:
		return a
	case a >= n:
		return b
	}
	lo, hi := min(a, b), max(a, b)
	pl, ph := s.stagePoints(t, pairing{lo, hi}, recs)
	if ph > pl {
		return hi
	}
	return lo
}

// tally is a Swiss tournament's standing after the rounds paired so far, from their games
// in recs: the points of each player (games and byes), who met whom (a < b) how often, who
// had a bye, and the points each scored against each opponent (for Sonneborn-Berger).
type tally struct {
	points  []float64
	games   []int
	met     map[[2]int]int
	hadBye  []bool
	against []map[int]float64
}

// byePoints is what a Swiss bye scores: half the games of a pairing (swissRound).
func (s *schedule) byePoints() float64 { return float64(s.games) / 2 }

// swissTally counts the games of the rounds paired so far.
func (s *schedule) swissTally(recs map[int]*Record) tally {
	n := len(s.players)
	tb := tally{points: make([]float64, n), games: make([]int, n), met: map[[2]int]int{}, hadBye: make([]bool, n), against: make([]map[int]float64, n)}
	for i := range tb.against {
		tb.against[i] = map[int]float64{}
	}
	for t := range s.stages {
		st := &s.stages[t]
		for _, b := range st.byes {
			tb.hadBye[b] = true
			tb.points[b] += s.byePoints()
		}
		for _, k := range st.pairings {
			p := s.pairings[k]
			tb.met[[2]int{p.a, p.b}]++
		}
		for i := st.first; i < s.end(t); i++ {
			r := recs[i]
			if r == nil {
				continue
			}
			gm := s.game(i)
			pa := gamePoints(r, s.players[gm.A])
			tb.points[gm.A] += pa
			tb.points[gm.B] += 1 - pa
			tb.games[gm.A]++
			tb.games[gm.B]++
			tb.against[gm.A][gm.B] += pa
			tb.against[gm.B][gm.A] += 1 - pa
		}
	}
	return tb
}

// place extends s with recs, a journal's records in file order, checking each (check,
// when not nil) once its round is paired; it returns the records by index, or the first
// error with the record's position in recs. A record of a round that its results cannot
// pair yet (a round before it unfinished) is an error.
func (s *schedule) place(recs []Record, check func(i int, r *Record) error) (map[int]*Record, error) {
	all := s.total()
	byGame := map[int]*Record{}
	for i := range recs {
		r := &recs[i]
		if r.Game < 0 || r.Game >= all || byGame[r.Game] != nil {
			return nil, &placeError{i, fmt.Errorf("game %d: out of range or recorded twice", r.Game+1)}
		}
		byGame[r.Game] = r
	}
	placed := map[int]*Record{}
	checked := make([]bool, len(recs))
	for {
		s.extend(placed)
		progress := false
		for i := range recs {
			r := &recs[i]
			if checked[i] || !s.known(r.Game) {
				continue
			}
			if check != nil {
				if err := check(i, r); err != nil {
					return nil, &placeError{i, err}
				}
			}
			checked[i], placed[r.Game], progress = true, r, true
		}
		if !progress {
			break
		}
	}
	for i := range recs {
		if !checked[i] {
			return nil, &placeError{i, fmt.Errorf("game %d: of round %d, which cannot be paired before the rounds before it are finished", recs[i].Game+1, s.stageOf(recs[i].Game)+1)}
		}
	}
	return placed, nil
}

// stageOf returns the round (from 0) of game i of a dynamic schedule, from the planned
// number of games per round.
func (s *schedule) stageOf(i int) int {
	for t, g := range s.planned {
		if i < g {
			return t
		}
		i -= g
	}
	return len(s.planned)
}

// placeError is an error of place about recs[Index].
type placeError struct {
	Index int
	Err   error
}

func (e *placeError) Error() string { return e.Err.Error() }
func (e *placeError) Unwrap() error { return e.Err }
