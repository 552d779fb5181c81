package archive

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/pdn"
)

// Transform removes parts of games. The zero value keeps everything.
type Transform struct {
	DropComments   bool // remove {comments} (and setup commands stay)
	DropVariations bool // remove (variations)
	DropNAGs       bool // remove $n and move strengths
}

// Apply changes g in place.
func (t Transform) Apply(g *pdn.Game) {
	if t.DropComments || t.DropVariations || t.DropNAGs {
		g.Moves = t.nodes(g.Moves)
	}
}

func (t Transform) nodes(ns []pdn.Node) []pdn.Node {
	out := ns[:0]
	for _, n := range ns {
		switch {
		case n.Kind == pdn.CommentNode && t.DropComments,
			n.Kind == pdn.VariationNode && t.DropVariations,
			n.Kind == pdn.NAGNode && t.DropNAGs:
			continue
		case n.Kind == pdn.VariationNode:
			n.Variation = t.nodes(n.Variation)
		case n.Kind == pdn.MoveNode && t.DropNAGs && n.Move.Strength != "":
			m := *n.Move
			m.Strength = ""
			n.Move = &m
		}
		out = append(out, n)
	}
	return out
}

// TagMatch is one tag condition of a Filter: Name=Value (exact) or
// Name~Regexp.
type TagMatch struct {
	Name  string
	Value string         // for exact matches
	Re    *regexp.Regexp // for regexp matches
}

// ParseTagMatch parses "Name=Value" or "Name~regexp".
func ParseTagMatch(s string) (TagMatch, error) {
	i := strings.IndexAny(s, "=~")
	if i <= 0 {
		return TagMatch{}, fmt.Errorf("pdn: tag condition %q: want Name=Value or Name~regexp", s)
	}
	m := TagMatch{Name: s[:i]}
	if s[i] == '=' {
		m.Value = s[i+1:]
		return m, nil
	}
	re, err := regexp.Compile(s[i+1:])
	if err != nil {
		return TagMatch{}, fmt.Errorf("pdn: tag condition %q: %w", s, err)
	}
	m.Re = re
	return m, nil
}

// Match reports whether g has the tag with a matching value.
func (m TagMatch) Match(g *pdn.Game) bool {
	v, ok := g.Tag(m.Name)
	if !ok {
		return false
	}
	if m.Re != nil {
		return m.Re.MatchString(v)
	}
	return v == m.Value
}

// Filter selects games. All conditions must hold; empty conditions hold.
type Filter struct {
	Tags []TagMatch
	// Players are player conditions, any of which must hold for the White tag or the Black
	// one: their Name is not used (pgn-extract's -p).
	Players  []TagMatch
	Results  []string // any of these results (pdn.Game.GameResult)
	MinPlies int      // at least this many main-line moves
	MaxPlies int      // at most this many; 0 means no limit
}

// Match reports whether g passes the filter.
func (f *Filter) Match(g *pdn.Game) bool {
	for _, m := range f.Tags {
		if !m.Match(g) {
			return false
		}
	}
	if len(f.Players) > 0 && !f.matchPlayer(g) {
		return false
	}
	if len(f.Results) > 0 {
		r := g.GameResult()
		ok := false
		for _, want := range f.Results {
			ok = ok || r == want
		}
		if !ok {
			return false
		}
	}
	if f.MinPlies > 0 || f.MaxPlies > 0 {
		p := g.Plies()
		if p < f.MinPlies || (f.MaxPlies > 0 && p > f.MaxPlies) {
			return false
		}
	}
	return true
}

// Deduper recognises games with the same start position (FEN tag) and
// the same main-line move sequence. It keeps 8 bytes per distinct game.
type Deduper struct {
	seen map[uint64]struct{}
}

// Duplicate reports whether a game with g's moves was seen before, and
// remembers g.
func (d *Deduper) Duplicate(g *pdn.Game) bool {
	_, dup := d.check(g)
	return dup
}

// check is Duplicate, and returns g's MoveHash too.
func (d *Deduper) check(g *pdn.Game) (uint64, bool) {
	k := moveHash(g)
	return k, d.checkHash(k)
}

// checkHash reports whether a game of MoveHash k was seen before, and
// remembers k.
func (d *Deduper) checkHash(k uint64) bool {
	if d.seen == nil {
		d.seen = make(map[uint64]struct{})
	}
	if _, ok := d.seen[k]; ok {
		return true
	}
	d.seen[k] = struct{}{}
	return false
}

// moveHash hashes g's FEN tag and main-line moves (squares and capture or
// not; move numbers, comments and tags other than FEN do not count).
func moveHash(g *pdn.Game) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.TrimSpace(g.Get("FEN"))))
	var b [3]byte
	for i := range g.Moves {
		n := &g.Moves[i]
		if n.Kind != pdn.MoveNode || n.Move.IsPlaceholder() {
			continue
		}
		b[0] = '|'
		if n.Move.IsCapture() {
			b[0] = 'x'
		}
		h.Write(b[:1])
		for _, q := range n.Move.Squares {
			binary.LittleEndian.PutUint16(b[:2], uint16(q))
			h.Write(b[:2])
		}
	}
	return h.Sum64()
}

// CopyOptions configures Copy.
type CopyOptions struct {
	Transform Transform
	Filter    *Filter  // nil keeps every game
	Dedupe    *Deduper // nil keeps duplicates
	// SkipBad drops games that came with an error instead of writing what
	// could be read of them.
	SkipBad bool
	// OnError, if not nil, is called for each game error (read errors
	// and, with Replay, *pdn.ReplayError values).
	OnError func(error)
	// Replay, if not nil, replays each game that passes Filter and
	// Dedupe: it may drop games (ReplayCopy.Reach) and rewrite their moves.
	// A game with a replay error is written, rewritten up to the error,
	// unless SkipBad. A *PositionWriter destination gets the replayed
	// positions.
	Replay *ReplayCopy
	// Outcome, if not nil, is called for each game read (of the job's
	// Select), in input order from the caller's goroutine, once Copy is done
	// with it: after its OnError calls and after writing it to dst.
	Outcome func(in *Input, n int, o CopyOutcome)
}

// CopyResult counts what Copy did.
type CopyResult struct {
	Read       int `json:"read"`
	Written    int `json:"written"`
	Filtered   int `json:"filtered"`   // dropped by the filter
	Duplicates int `json:"duplicates"` // dropped as duplicates
	Errors     int `json:"errors"`     // games that came with an error
	// ReplayErrors counts the games (read without error) whose main line
	// could not be replayed.
	ReplayErrors int `json:"replay_errors,omitempty"`
}

// Copy reads the job's games and writes those that pass to dst, after the
// transform. It does not flush dst. With job.Jobs above 1 and a pdn.Writer,
// pdn.JSONWriter or (with Replay) PositionWriter destination, the games are
// read, replayed and formatted by several goroutines (copy_parallel.go);
// the output, the result, the OnError calls (one at a time, in input
// order) and the error are the same as with one. When ctx is done, Copy
// stops before the next game (or piece or batch of games) and returns
// ctx.Err() with the counts of the games handled so far.
func Copy(ctx context.Context, job Job, dst pdn.GameWriter, opt CopyOptions) (CopyResult, error) {
	switch parallelCopy(&job, dst, &opt) {
	case copyInPieces:
		return copyPieces(ctx, job, dst, opt)
	case copyInBatches:
		return copyParallel(ctx, job, dst, opt)
	}
	var res CopyResult
	// The writers of this package keep nothing of a game once written:
	// games are read into an arena that is reused every batchSize games.
	var ar *pdn.Arena
	switch dst.(type) {
	case *pdn.Writer, *pdn.JSONWriter, *PositionWriter:
		ar = &pdn.Arena{}
		job.onReader = func(r *pdn.Reader) { r.SetArena(ar) }
	}
	err := job.Each(ctx, func(in *Input, n int, g *pdn.Game, gerr error) (err error) {
		if ar != nil && res.Read%batchSize == 0 {
			ar.Reset() // the games before g are written; g's memory is reused only by the next Next
		}
		var o CopyOutcome
		if opt.Outcome != nil {
			defer func() {
				if err == nil {
					opt.Outcome(in, n, o)
				}
			}()
		}
		res.Read++
		if gerr != nil {
			res.Errors++
			if opt.OnError != nil {
				opt.OnError(&InputError{Name: in.Name, Err: gerr})
			}
			if opt.SkipBad {
				o.Skipped = true
				return nil
			}
		}
		if opt.Filter != nil && !opt.Filter.Match(g) {
			res.Filtered++
			o.Filtered = true
			return nil
		}
		if opt.Dedupe != nil {
			if o.Hash, o.Duplicate = opt.Dedupe.check(g); o.Duplicate {
				res.Duplicates++
				return nil
			}
			o.Deduped = true
		}
		opt.Transform.Apply(g)
		if opt.Replay != nil {
			rg, keep, rerr := opt.Replay.apply(in, n, g)
			if !keep {
				res.Filtered++
				o.Dropped = true
				return nil
			}
			if rerr != nil && gerr == nil {
				res.ReplayErrors++
				o.ReplayError = true
				if opt.OnError != nil {
					opt.OnError(rerr)
				}
				if opt.SkipBad {
					return nil
				}
			}
			if pw, ok := dst.(*PositionWriter); ok {
				err = pw.writeReplayed(in.Name+":"+strconv.Itoa(n), g, rg)
			} else {
				err = dst.Write(g)
			}
		} else {
			err = dst.Write(g)
		}
		if err != nil {
			return fmt.Errorf("%s: game %d: %w", in.Name, n, err)
		}
		res.Written++
		o.Written = true
		return nil
	})
	return res, err
}

// Count is a value and how often it occurs.
type Count struct {
	Value string `json:"value"`
	N     int    `json:"n"`
}

// Stats accumulates statistics over games: CollectStats fills one from a
// job, replaying the games or not, and Report gives the result.
type Stats struct {
	games, errors int
	replay        bool // the games were replayed: variants are those they were replayed with
	replayed      int  // games replayed to the end
	skipped       int  // games with an error left out
	variants      map[string]int
	results       map[string]int
	plies         map[int]int
	firstMoves    map[string]int
	players       map[string]int
	events        map[string]int
	egdb          egdbStats // StatsOptions.EGDB
}

// NewStats returns empty statistics.
func NewStats() *Stats {
	return &Stats{variants: map[string]int{}, results: map[string]int{}, plies: map[int]int{},
		firstMoves: map[string]int{}, players: map[string]int{}, events: map[string]int{}}
}

// merge adds o's counts to s.
func (s *Stats) merge(o *Stats) {
	s.games += o.games
	s.errors += o.errors
	s.replayed += o.replayed
	s.skipped += o.skipped
	for _, m := range [][2]map[string]int{{s.variants, o.variants}, {s.results, o.results},
		{s.firstMoves, o.firstMoves}, {s.players, o.players}, {s.events, o.events}} {
		for k, n := range m[1] {
			m[0][k] += n
		}
	}
	for k, n := range o.plies {
		s.plies[k] += n
	}
	s.egdb.merge(&o.egdb)
}

// addTagged counts g by the value of its GameType tag; bad says it has an
// error.
func (s *Stats) addTagged(g *pdn.Game, bad bool) {
	s.variants[pdn.VariantName(g.Get("GameType"))]++
	s.add(g, bad)
}

// addReplayed counts g as replayed by rp (res): by the variant it was
// replayed with. bad says it was read or replayed with an error.
func (s *Stats) addReplayed(g *pdn.Game, bad bool, res *pdn.Replayed, rp *replayer) {
	if res.Variant != nil {
		s.variants[rp.variantKey(res)]++
	} else {
		s.variants[pdn.VariantName(g.Get("GameType"))+": not played by the engine"]++
	}
	if res.Complete {
		s.replayed++
	}
	s.add(g, bad)
}

// add counts g's tags, result and moves.
func (s *Stats) add(g *pdn.Game, bad bool) {
	s.games++
	if bad {
		s.errors++
	}
	s.results[g.GameResult()]++
	s.plies[g.Plies()]++
	for i := range g.Moves {
		if n := &g.Moves[i]; n.Kind == pdn.MoveNode && !n.Move.IsPlaceholder() {
			s.firstMoves[n.Move.Text]++
			break
		}
	}
	for _, tag := range []string{"White", "Black"} {
		if v := strings.TrimSpace(g.Get(tag)); v != "" && v != "?" {
			s.players[v]++
		}
	}
	if v := strings.TrimSpace(g.Get("Event")); v != "" && v != "?" {
		s.events[v]++
	}
}

// StatsReport is the result of Stats.Report.
type StatsReport struct {
	Games  int `json:"games"`
	Errors int `json:"errors"` // games read or replayed with an error
	// Replay says whether the games were replayed (CollectStats with
	// StatsOptions.Replay); Replayed counts those replayed to the end.
	Replay   bool `json:"replay"`
	Replayed int  `json:"replayed"`
	// Skipped counts the games with an error left out
	// (StatsOptions.SkipBad); they count nowhere else.
	Skipped int `json:"skipped,omitempty"`
	// Variants counts the games by variant: the one they were replayed
	// with and where it came from ("english (inferred from ...)"), or,
	// without replay, their GameType tag ("20 (international)", "no
	// GameType tag").
	Variants    []Count `json:"variants"`
	Results     []Count `json:"results"`
	MinPlies    int     `json:"min_plies"`
	MedianPlies int     `json:"median_plies"`
	MaxPlies    int     `json:"max_plies"`
	FirstMoves  []Count `json:"first_moves"`
	Players     []Count `json:"players"`
	Events      []Count `json:"events"`
	// EGDB is what StatsOptions.EGDB counts (nil without a database).
	EGDB *EGDBReport `json:"egdb,omitempty"`
}

// Report returns the statistics, with lists sorted by count (then value)
// and cut to the top entries (top <= 0 keeps all). Variants and results
// are never cut.
func (s *Stats) Report(top int) StatsReport {
	r := StatsReport{Games: s.games, Errors: s.errors, Replay: s.replay, Replayed: s.replayed, Skipped: s.skipped,
		Variants: counts(s.variants, 0), Results: counts(s.results, 0),
		FirstMoves: counts(s.firstMoves, top), Players: counts(s.players, top), Events: counts(s.events, top),
		EGDB: s.egdb.report()}
	if s.games > 0 {
		ps := make([]int, 0, len(s.plies))
		for p := range s.plies {
			ps = append(ps, p)
		}
		sort.Ints(ps)
		r.MinPlies, r.MaxPlies = ps[0], ps[len(ps)-1]
		// Median: the lower middle value for an even count.
		seen, mid := 0, (s.games+1)/2
		for _, p := range ps {
			seen += s.plies[p]
			if seen >= mid {
				r.MedianPlies = p
				break
			}
		}
	}
	return r
}

func counts(m map[string]int, top int) []Count {
	cs := make([]Count, 0, len(m))
	for v, n := range m {
		cs = append(cs, Count{v, n})
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].N != cs[j].N {
			return cs[i].N > cs[j].N
		}
		return cs[i].Value < cs[j].Value
	})
	if top > 0 && len(cs) > top {
		cs = cs[:top]
	}
	return cs
}

// StatsOptions configures CollectStats.
type StatsOptions struct {
	// Jobs is how many goroutines work at once, as in ValidateOptions.
	Jobs int
	// Replay, if not nil, replays every game (see ValidateOptions.Replay):
	// games are counted by the variant they were replayed with, and a move
	// that does not replay makes a game with an error. Without, games are
	// counted by their GameType tag.
	Replay *pdn.Replayer
	// Infer, with Replay, infers the variants of inputs as
	// ValidateOptions.Infer does.
	Infer bool
	// SkipBad leaves out the games read or replayed with an error.
	SkipBad bool
	// Problem, if not nil, is called for each problem found, as in
	// ValidateOptions.
	Problem func(Problem)
	// Game, if not nil, is called with every game read and the error it
	// was read with, SkipBad or not: in input order, one call at a time,
	// from a goroutine that may not be the caller's (but has ended when
	// CollectStats returns), before the game is replayed. The game is
	// valid only during the call.
	Game func(g *pdn.Game, gerr error)
	// EGDB, with Replay, is an endgame database: the games of its variant replayed to the
	// end are compared with it (StatsReport.EGDB). A damaged file of the database stops the
	// statistics with an error naming it.
	EGDB *egdb.DB
}

// CollectStats reads (and, with opt.Replay, replays) the job's games into
// a Stats, as Validate does. When ctx is done it stops within a batch of
// games and returns ctx.Err() with the games counted so far.
func CollectStats(ctx context.Context, job Job, opt StatsOptions) (*Stats, error) {
	s := NewStats()
	s.replay = opt.Replay != nil
	if opt.EGDB != nil {
		s.egdb.variant = opt.EGDB.Variant().Name
	}
	_, err := Validate(ctx, job, ValidateOptions{Jobs: opt.Jobs, Replay: opt.Replay, Infer: opt.Infer, Problem: opt.Problem,
		stats: s, skipBad: opt.SkipBad, game: opt.Game, egdb: opt.EGDB})
	if s.egdb.err != nil {
		return s, errors.Join(fmt.Errorf("pdn: endgame database: %w", s.egdb.err), err)
	}
	return s, err
}

// matchPlayer reports whether one of f.Players holds for the White or the Black tag of g.
func (f *Filter) matchPlayer(g *pdn.Game) bool {
	for _, m := range f.Players {
		for _, tag := range []string{"White", "Black"} {
			m.Name = tag
			if m.Match(g) {
				return true
			}
		}
	}
	return false
}
