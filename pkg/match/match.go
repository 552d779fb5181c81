package match

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/stats"
)

// Config describes a match.
type Config struct {
	// Variant is the game played.
	Variant *engine.Variant
	// Players are the entrants, at least two, with different names. Two play one pairing;
	// more play the pairings of Tournament.
	Players []Entrant
	// Tournament is RoundRobin ("" too), Gauntlet (Pairings), Swiss or Knockout (paired
	// round by round from the results: schedule).
	Tournament string
	// Rounds is the number of rounds of a Swiss tournament (0: SwissRounds); 0 for the
	// other kinds.
	Rounds int
	// Games is the number of games per pairing, rounded up to an even number (game pairs).
	Games int
	// Openings are the start positions, used in pairs (see the package documentation).
	Openings []Opening
	// Seed fixes the opening order and the players' seeds.
	Seed int64
	// MaxPlies ends a game as a draw, with reason "max-plies", once the players have
	// played that many plies after the opening; 0 means no limit.
	MaxPlies int
	// Concurrency is the number of games played at once; 0 means runtime.NumCPU().
	Concurrency int
	// SPRT, if not nil, stops the match as soon as the LLR of the pentanomial results
	// leaves its bounds. It needs exactly two players.
	SPRT *stats.SPRT
	// Anchor is the index of the player whose rating is fixed at AnchorElo (three or more
	// players).
	Anchor    int
	AnchorElo float64
	// JournalPath, if set, is the journal of finished games (see the package
	// documentation); Resume continues the match it records.
	JournalPath string
	Resume      bool
	// PDNPath, if set, receives every finished game as PDN. It is locked for the match
	// (ErrPDNLocked), and a file that holds data is written over only when Resume finds its
	// games in the journal (ErrPDNExists); a device or FIFO, or a name under /dev or /proc
	// (DevicePath), is written as it is.
	PDNPath string
	// Event and Site are the PDN Event and Site tags.
	Event, Site string
	// Shard, when its Count is above 1, plays only the games of one shard of the match (see
	// Shard); the journal records it, and Merge joins the shards' journals.
	Shard Shard
	// Adjudication, if not nil, ends games early from the players' reported scores.
	Adjudication *Adjudication
	// EGDB, if not nil, is an endgame database of Variant that ends a game as soon as it
	// holds its position (before the first move too), with its value as the result
	// (ReasonEGDB): the move-count draw rules, which its values leave out, are not waited
	// for (docs/selfplay.md). A game over by the rules in that position ends by the rules.
	EGDB *egdb.DB
	// Progress, if not nil, is called from one goroutine after each finished game with the
	// number of games finished and the number planned.
	Progress func(done, total int)

	// shuffledOrder is set when Resume finds a journal written before the openings were
	// dealt in blocks (Header.OpeningOrder empty): its games keep their openings.
	shuffledOrder bool
}

func (cfg *Config) check() error {
	switch {
	case cfg.Variant == nil:
		return errors.New("match: no variant")
	case len(cfg.Players) < 2:
		return fmt.Errorf("match: %d players: need at least two", len(cfg.Players))
	case checkTournament(cfg) != nil:
		return checkTournament(cfg)
	case cfg.Games < 1:
		return fmt.Errorf("match: %d games: need at least one", cfg.Games)
	case len(cfg.Openings) == 0:
		return fmt.Errorf("match: %w", ErrNoOpenings)
	case cfg.MaxPlies < 0:
		return fmt.Errorf("match: max plies %d: must not be negative", cfg.MaxPlies)
	case cfg.SPRT != nil && len(cfg.Players) != 2:
		return fmt.Errorf("match: an SPRT needs exactly two players, not %d", len(cfg.Players))
	case cfg.Anchor < 0 || cfg.Anchor >= len(cfg.Players):
		return fmt.Errorf("match: anchor %d: no such player", cfg.Anchor)
	case cfg.Resume && cfg.JournalPath == "":
		return errors.New("match: resume needs a journal")
	case cfg.Shard.Count < 0 || cfg.Shard.Count > 0 && (cfg.Shard.Index < 0 || cfg.Shard.Index >= cfg.Shard.Count):
		return fmt.Errorf("match: shard %s: the index must be from 0 to the count less one", cfg.Shard)
	case cfg.EGDB != nil && cfg.EGDB.Variant().Name != cfg.Variant.Name:
		return fmt.Errorf("match: an endgame database of %s for a match of %s", cfg.EGDB.Variant().Name, cfg.Variant.Name)
	}
	seen := map[string]bool{}
	for _, p := range cfg.Players {
		if p.Name == "" || seen[p.Name] {
			return fmt.Errorf("match: player name %q is empty or used twice", p.Name)
		}
		seen[p.Name] = true
	}
	if cfg.SPRT != nil {
		if err := cfg.SPRT.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// recordsInfo reports whether the games record the time and search of every move: when a
// player has a time control.
func (cfg *Config) recordsInfo() bool {
	return slices.ContainsFunc(cfg.Players, func(e Entrant) bool { return e.Control != nil })
}

// header returns the journal header of cfg.
func (cfg *Config) header() Header {
	h := Header{Format: journalFormat, Variant: cfg.Variant.Name, Seed: cfg.Seed, Games: cfg.Games, MaxPlies: cfg.MaxPlies,
		Tournament: headerTournament(cfg.Tournament)}
	if cfg.Tournament == Swiss {
		h.Rounds = cmpOr(cfg.Rounds, SwissRounds(len(cfg.Players)))
	}
	if !cfg.shuffledOrder {
		h.OpeningOrder = openingOrderBlocks
	}
	for _, p := range cfg.Players {
		h.Players = append(h.Players, p.Name)
	}
	d := sha256.New()
	for _, op := range cfg.Openings {
		fmt.Fprintf(d, "%s|%s", op.Name, cfg.Variant.FEN(op.Root))
		for _, m := range op.Moves {
			// the captured indices below 64 as one number, and the whole move after a
			// capture on an index of 64 or above (canadian): the digest journals hold
			var low uint64
			high := false
			for i := range m.Captured() {
				if i < 64 {
					low |= 1 << i
				} else {
					high = true
				}
			}
			fmt.Fprintf(d, "|%d-%d-%x", m.From, m.To, low)
			if high {
				fmt.Fprintf(d, "+%v", m)
			}
		}
		d.Write([]byte{'\n'})
	}
	h.Openings = hex.EncodeToString(d.Sum(nil))[:16]
	if cfg.SPRT != nil {
		h.SPRT = cfg.SPRT.String()
	}
	if cfg.Adjudication != nil {
		h.Adjudication = cfg.Adjudication.String()
	}
	if cfg.Shard.Count > 1 {
		h.Shard = cfg.Shard.String()
	}
	if cfg.EGDB != nil {
		h.EGDB = cfg.EGDB.MaxPieces()
	}
	return h
}

// Run plays the match described by cfg and returns its results. When ctx is cancelled it
// stops the games in progress (they are not recorded) and returns the results so far with
// ctx's error; with a journal, Resume finishes the match later. Errors from the players,
// the journal or the PDN file end the match the same way.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = runtime.NumCPU()
	}
	if cfg.Resume {
		if h, err := ReadJournalHeader(cfg.JournalPath); err == nil && h.OpeningOrder == "" {
			cfg.shuffledOrder = true // a journal of an earlier version
		}
	}
	sched := newSchedule(&cfg)
	all := sched.total()
	total := shardGames(cfg.Shard, all)
	agg := newAggregator(&cfg, &sched)

	pf, jnl, recovered, err := openOutputs(&cfg, &sched)
	if err != nil {
		return nil, err
	}
	if pf != nil {
		defer pf.f.Close()
	}
	if jnl != nil {
		defer jnl.close()
	}
	out := newGameWriter(&cfg, all, pf)
	done := make([]bool, all)
	for i := range recovered {
		r := &recovered[i]
		done[r.Game] = true
		if err := out.write(r); err != nil {
			return nil, err
		}
		agg.add(r)
	}
	agg.resumed = len(recovered)
	finished := len(recovered)
	if cfg.Progress != nil {
		cfg.Progress(finished, total)
	}

	parent := ctx
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var runErr error
	// a fixed schedule plays all its games at once; a Swiss or knockout one round after
	// round, each paired once the one before is finished
	for {
		sched.extend(agg.recs)
		for i := range agg.recs {
			done[i] = true
		}
		hi := all
		if sched.dynamic() {
			hi = sched.end(len(sched.stages) - 1)
		}
		results := playGames(ctx, &cfg, &sched, agg, done, hi)
		finished, runErr = collect(ctx, &cfg, results, cancel, jnl, out, agg, finished, total)
		if runErr != nil || ctx.Err() != nil || hi == all || !sched.extend(agg.recs) {
			break
		}
	}
	if err := out.close(); err != nil && runErr == nil {
		runErr = err
	}
	res := agg.result()
	res.GamesPlanned = total
	if runErr == nil && !agg.decided() && finished < total {
		runErr = parent.Err()
		if runErr == nil {
			runErr = errors.New("match: stopped before every game was played")
		}
	}
	res.Interrupted = runErr != nil
	return res, runErr
}

// checkRecords checks the records read back from the journal before any counts: each is a
// game of the match and of its shard, recorded once, that replays by the rules to its
// recorded end (checkRecord); a Swiss or knockout tournament's rounds are paired again
// from them as they were (schedule.place). The error names the journal's line.
func checkRecords(cfg *Config, sched *schedule, recs []Record) error {
	_, err := sched.place(recs, func(i int, r *Record) error {
		if !hasGame(cfg.Shard, r.Game) {
			return fmt.Errorf("game %d: of another shard", r.Game+1)
		}
		if err := checkRecord(cfg, sched, r, &cfg.Openings[sched.game(r.Game).Opening]); err != nil {
			return fmt.Errorf("game %d: %w: %w (the journal was changed or damaged: remove the line and resume to play the game again)", r.Game+1, ErrBadRecord, err)
		}
		return nil
	})
	var pe *placeError
	if errors.As(err, &pe) {
		// line i+2: the header is line 1, and no line between records is left out
		return fmt.Errorf("match: journal %s: line %d: %w", cfg.JournalPath, pe.Index+2, pe.Err)
	}
	return err
}

// today is the PDN date of a game played now.
func today() string { return time.Now().Format("2006.01.02") }

// seats holds a worker's players that can play another game, by entrant, and closes them.
type seats map[int]Player

// take returns the player of entrant idx for a game with the given seed: the worker's own,
// reset, or a new one; kept reports whether the worker keeps it for the next game.
func (s seats) take(cfg *Config, idx int, seed int64) (pl Player, kept bool, err error) {
	if pl, ok := s[idx]; ok {
		pl.(Resetter).Reset(seed)
		return pl, true, nil
	}
	e := cfg.Players[idx]
	if pl, err = e.New(cfg.Variant, seed); err != nil {
		return nil, false, fmt.Errorf("match: player %s: %w", e.Name, err)
	}
	if _, kept = pl.(Resetter); kept {
		s[idx] = pl
	}
	return pl, kept, nil
}

// close closes the players the worker keeps.
func (s seats) close() {
	for idx, pl := range s {
		delete(s, idx)
		closePlayer(pl)
	}
}

func closePlayer(pl Player) {
	if c, ok := pl.(io.Closer); ok {
		c.Close() // the player failed or the match is over: nothing to do with its error
	}
}

// play plays one game with the worker's seats.
func play(ctx context.Context, cfg *Config, gm Game, seats seats) (*Record, error) {
	t, err := openGame(cfg, gm, seats)
	if err != nil {
		return nil, err
	}
	defer t.release(engine.White, false)
	defer t.release(engine.Black, false)
	if err := t.seat(); err != nil {
		return nil, err
	}
	if forfeited, err := t.start(ctx); forfeited || err != nil {
		if err != nil {
			return nil, err
		}
		return t.rec, nil
	}
	for t.rec.Reason == "" {
		if over, err := t.over(); over || err != nil {
			if err != nil {
				return nil, err
			}
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if forfeited, err := t.move(ctx); forfeited || err != nil {
			if err != nil {
				return nil, err
			}
			break
		}
	}
	t.end()
	return t.rec, nil
}

// table is a game being played: the game and its record, and the players of each colour
// with their clocks.
type table struct {
	cfg   *Config
	gm    Game
	seats seats
	g     *engine.Game
	rec   *Record
	// the first-moving colour goes to gm.First
	players [2]Player
	idxs    [2]int // the players' indexes in cfg.Players
	clocks  [2]*clock
	kept    [2]bool // the worker keeps the player for its next game
	adj     adjudicator
	info    bool // the record keeps each move's MoveInfo
}

// openGame starts the record of game gm and plays its opening.
func openGame(cfg *Config, gm Game, seats seats) (*table, error) {
	v := cfg.Variant
	op := &cfg.Openings[gm.Opening]
	t := &table{cfg: cfg, gm: gm, seats: seats, g: engine.NewGame(v, op.Root),
		adj: adjudicator{rules: cfg.Adjudication}, info: cfg.recordsInfo(),
		rec: &Record{Game: gm.Index, Opening: op.Name, OpeningPlies: len(op.Moves), Date: today()}}
	if op.Root != v.Start() {
		t.rec.FEN = v.FEN(op.Root)
	}
	for _, m := range op.Moves {
		p := t.g.Position()
		t.rec.Moves = append(t.rec.Moves, v.FormatMove(&p, m, false))
		if err := t.g.Play(m); err != nil {
			return nil, fmt.Errorf("match: opening %q: %w", op.Name, err)
		}
	}
	return t, nil
}

// release closes the player of colour c unless the worker keeps it; after a forfeit
// (broken) it is closed in any case, and the next game gets a new one.
func (t *table) release(c engine.Color, broken bool) {
	if t.players[c] == nil {
		return
	}
	if broken && t.kept[c] {
		delete(t.seats, t.idxs[c])
		t.kept[c] = false
	}
	if !t.kept[c] {
		closePlayer(t.players[c])
	}
	t.players[c] = nil
}

// seat takes the two players of the game, each with its clock, and names them in the
// record.
func (t *table) seat() error {
	cfg, gm := t.cfg, t.gm
	for _, idx := range []int{gm.A, gm.B} {
		c := cfg.Variant.FirstMover
		if idx != gm.First {
			c = c.Other()
		}
		seed := int64(mix(uint64(cfg.Seed), 4, uint64(gm.Index), uint64(c)))
		pl, keep, err := t.seats.take(cfg, idx, seed)
		if err != nil {
			return err
		}
		t.players[c], t.idxs[c], t.kept[c], t.clocks[c] = pl, idx, keep, newClock(cfg.Players[idx].Control)
	}
	t.rec.White, t.rec.Black = cfg.Players[t.idxs[engine.White]].Name, cfg.Players[t.idxs[engine.Black]].Name
	return nil
}

// start tells the players that observe games that the game starts; a player that
// cannot start forfeits it.
func (t *table) start(ctx context.Context) (forfeited bool, err error) {
	for c, pl := range t.players {
		o, ok := pl.(Observer)
		if !ok {
			continue
		}
		info := GameInfo{Index: t.gm.Index, Color: engine.Color(c), White: t.rec.White, Black: t.rec.Black}
		if err := o.StartGame(ctx, info); err != nil {
			if err := interruption(ctx, err); err != nil {
				return false, err
			}
			if f := asForfeit(err); f != nil {
				forfeit(t.rec, t.g, engine.Color(c), f)
				t.release(engine.Color(c), true)
				return true, nil
			}
			return false, fmt.Errorf("match: game %d: %s: %w", t.gm.Index+1, t.cfg.Players[t.idxs[c]].Name, err)
		}
	}
	return false, nil
}

// over ends the game, in the record, when the rules end it, the endgame database knows
// its result, or it reached the limit of plies.
func (t *table) over() (bool, error) {
	cfg, rec, g := t.cfg, t.rec, t.g
	out := g.Outcome()
	if out.Over {
		rec.Reason = out.Reason
		if !out.Draw {
			rec.Winner = out.Winner.String()
		}
		return true, nil
	}
	if cfg.EGDB != nil {
		out, detail, err := egdbOutcome(cfg.EGDB, g)
		if err != nil {
			return false, fmt.Errorf("match: game %d: %w", t.gm.Index+1, err)
		}
		if out.Over {
			rec.Reason, rec.Detail = out.Reason, detail
			if !out.Draw {
				rec.Winner = out.Winner.String()
			}
			return true, nil
		}
	}
	if cfg.MaxPlies > 0 && g.Ply()-rec.OpeningPlies >= cfg.MaxPlies {
		rec.Reason = ReasonMaxPlies
		return true, nil
	}
	return false, nil
}

// move asks the side to move for its move under its clock and plays it; a move too late
// or against the rules, or a player's Forfeit, forfeits the game. The adjudicator may
// then end it.
func (t *table) move(ctx context.Context) (forfeited bool, err error) {
	cfg, rec, g := t.cfg, t.rec, t.g
	p := g.Position()
	side := p.Side
	name := cfg.Players[t.idxs[side]].Name
	turn := Turn{Game: g}
	moveCtx, cancel := ctx, context.CancelFunc(func() {})
	ck := t.clocks[side]
	if ck != nil {
		turn.Clock = ck.state(t.clocks[side.Other()])
		moveCtx, cancel = context.WithTimeout(ctx, ck.wait())
	}
	began := time.Now()
	reply, err := t.players[side].Choose(moveCtx, turn)
	elapsed := time.Since(began)
	if reply.Elapsed > 0 {
		elapsed = min(elapsed, reply.Elapsed)
	}
	cancel()
	text := cfg.Variant.FormatMove(&p, reply.Move, false)
	if err == nil && ck != nil && ck.spend(elapsed) {
		err = &Forfeit{Reason: ReasonTimeForfeit, Err: fmt.Errorf("move took %v, clock %v", elapsed.Round(time.Millisecond), turn.Clock.Remaining+ck.tc.Margin)}
	}
	if err == nil {
		if perr := g.Play(reply.Move); perr != nil { // the rules, the king-move limit included
			err = &Forfeit{Reason: ReasonIllegalMove, Text: text, Err: perr}
		}
	}
	if err != nil {
		if err := interruption(ctx, err); err != nil {
			return false, err
		}
		f := asForfeit(err)
		if f == nil {
			return false, fmt.Errorf("match: game %d: %s: %w", t.gm.Index+1, name, err)
		}
		forfeit(rec, g, side, f)
		t.release(side, true)
		return true, nil
	}
	rec.Moves = append(rec.Moves, text)
	if t.info {
		rec.Info = append(rec.Info, moveInfo(reply, elapsed, ck))
	}
	if out, over := t.adj.add(side, reply); over {
		rec.Reason, rec.Winner = out.Reason, ""
		if !out.Draw {
			rec.Winner = out.Winner.String()
		}
	}
	return false, nil
}

// end tells the players that observe games how the game ended.
func (t *table) end() {
	for _, pl := range t.players {
		if o, ok := pl.(Observer); ok {
			o.EndGame(t.rec)
		}
	}
}

// interruptWait bounds how long a game whose engine was stopped by a signal from outside
// waits for the match's own context to end, when the same signal reached rafle too.
const interruptWait = 2 * time.Second

// interruption returns the error that stops the match when a player's err (or the end of
// ctx) means that the game was interrupted, and nil when err is the game's to judge. An
// engine stopped by a signal (ErrEngineInterrupted) usually dies a moment before rafle
// itself sees the same signal: ctx's error is returned if ctx ends within interruptWait,
// else err; either way the game is not recorded.
func interruption(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if !errors.Is(err, ErrEngineInterrupted) {
		return nil
	}
	t := time.NewTimer(interruptWait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return err
	}
}

// asForfeit returns the Forfeit in err's chain, or nil.
func asForfeit(err error) *Forfeit {
	var f *Forfeit
	if errors.As(err, &f) {
		return f
	}
	return nil
}

// forfeit ends rec as a loss of side for f, with what happened and where.
func forfeit(rec *Record, g *engine.Game, side engine.Color, f *Forfeit) {
	rec.Reason = f.Reason
	rec.Winner = side.Other().String()
	rec.Detail = fmt.Sprintf("%s (%s) %s in %s", rec.player(side), side, f.Error(), g.Variant().FEN(g.Position()))
}

// player returns the name of the player of colour c.
func (r *Record) player(c engine.Color) string {
	if c == engine.White {
		return r.White
	}
	return r.Black
}

func moveInfo(r Reply, elapsed time.Duration, c *clock) MoveInfo {
	mi := MoveInfo{Millis: elapsed.Milliseconds(), Depth: r.Depth}
	if r.HasScore {
		score := r.Score
		mi.Score = &score
	}
	if c != nil && c.tc.Base > 0 {
		left := c.remaining.Milliseconds()
		mi.Clock = &left
	}
	return mi
}
