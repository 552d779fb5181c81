package tune

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/search"
)

// ErrNoPositions is returned when a data set holds no usable position.
var ErrNoPositions = errors.New("tune: no usable positions")

// Quiet says which positions count as quiet.
type Quiet int

// Quiet tests.
const (
	// QuietCapture keeps positions where the side to move has no capture (the default).
	QuietCapture Quiet = iota
	// QuietStrict keeps positions where neither side has a capture: the side to move has
	// none, and the opponent would have none if it were to move (nothing hangs).
	QuietStrict
	// QuietNone keeps every position.
	QuietNone
	// QuietResolve replaces a position where the side to move has a capture by the quiet
	// position at the end of its best capture sequence (captures only, each side choosing
	// by the static evaluation with Filter.Weights; a line that ends the game is won or lost
	// as the variant's rules say), labelled for the side to move there.
	QuietResolve
)

// maxResolvePlies bounds the capture sequences QuietResolve follows.
const maxResolvePlies = 16

var quietNames = [...]string{QuietCapture: "capture", QuietStrict: "strict", QuietNone: "none", QuietResolve: "resolve"}

// ParseQuiet reads "capture", "strict", "resolve" or "none".
func ParseQuiet(s string) (Quiet, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for q, n := range quietNames {
		if n == name {
			return Quiet(q), nil
		}
	}
	return 0, fmt.Errorf("tune: quiet test %q: want capture, strict, resolve or none", s)
}

// String returns "capture", "strict", "resolve" or "none".
func (q Quiet) String() string {
	if q >= 0 && int(q) < len(quietNames) {
		return quietNames[q]
	}
	return "Quiet(" + strconv.Itoa(int(q)) + ")"
}

// Filter chooses the positions of a game that enter a data set.
type Filter struct {
	// SkipPlies skips the positions before this ply (0 is the game's start position).
	SkipPlies int
	// Quiet is the quiet-position test.
	Quiet Quiet
	// KeepDuplicates keeps every copy of identical games.
	KeepDuplicates bool
	// Weights are the weights QuietResolve evaluates with (nil: the variant's hand-set ones,
	// search.HandWeights).
	Weights *search.Weights
}

// prepare readies f for v: QuietResolve needs weights complete for v.
func (f *Filter) prepare(v *engine.Variant) error {
	if f.Quiet != QuietResolve {
		return nil
	}
	if f.Weights == nil {
		f.Weights = search.HandWeights(v)
	}
	if err := f.Weights.Check(v); err != nil {
		return fmt.Errorf("tune: resolve weights: %w", err)
	}
	return nil
}

// keep applies f (prepared for v) to p: it returns the position to add (p itself, or the
// quiet position QuietResolve reaches), whether the label must be flipped (the side to move
// changed), and false when the position is dropped.
func (f *Filter) keep(v *engine.Variant, p *engine.Position, st *LoadStats) (engine.Position, bool, bool) {
	if f.Quiet != QuietResolve || !v.HasCapture(p) {
		if !f.accept(v, p, st) {
			return engine.Position{}, false, false
		}
		return *p, false, true
	}
	leaf, _, ok := resolve(v, f.Weights, *p, 0)
	if !ok || !v.HasMoves(&leaf) {
		st.Terminal++
		return engine.Position{}, false, false
	}
	st.Resolved++
	return leaf, leaf.Side != p.Side, true
}

// resolve plays captures from p while the side to move has one, each side choosing the
// capture whose resolved position evaluates best for it, and returns that quiet position
// and its score for p's side to move. A position that ends the game is a quiet position
// won or lost for its side to move as the variant's rules say (engine.PositionOutcome: lost
// without a legal move, won in antidraughts). It returns false when every line runs past
// maxResolvePlies.
func resolve(v *engine.Variant, w *search.Weights, p engine.Position, ply int) (engine.Position, float64, bool) {
	if !v.HasCapture(&p) {
		if o := v.PositionOutcome(&p); o.Over {
			if o.Winner == p.Side {
				return p, math.Inf(1), true
			}
			return p, math.Inf(-1), true
		}
		return p, search.Evaluate(v, w, &p), true
	}
	if ply >= maxResolvePlies {
		return p, 0, false
	}
	var best engine.Position
	bestScore, found := 0.0, false
	for _, m := range v.Generate(nil, &p) {
		leaf, score, ok := resolve(v, w, p.Play(m), ply+1)
		if !ok {
			continue
		}
		score = -score // a move passes the turn, captures included
		if !found || score > bestScore {
			best, bestScore, found = leaf, score, true
		}
	}
	return best, bestScore, found
}

// accept reports whether p passes the quiet test; terminal positions never do.
func (f *Filter) accept(v *engine.Variant, p *engine.Position, st *LoadStats) bool {
	if !v.HasMoves(p) {
		st.Terminal++
		return false
	}
	switch f.Quiet {
	case QuietCapture, QuietStrict:
		if v.HasCapture(p) {
			st.Captures++
			return false
		}
		if f.Quiet == QuietStrict {
			q := *p
			q.Side = p.Side.Other()
			if v.HasCapture(&q) {
				st.Threats++
				return false
			}
		}
	}
	return true
}

// LoadStats counts what reading a data set kept and dropped.
type LoadStats struct {
	Games      int    `json:"games"`                 // games (or CSV game ids) with at least one position kept
	Read       int    `json:"games_read"`            // games read
	Duplicates int    `json:"duplicates"`            // identical games dropped
	NoResult   int    `json:"no_result"`             // games without a result
	Bad        int    `json:"bad_games"`             // games that could not be read or replayed
	Opening    int    `json:"opening"`               // positions before SkipPlies
	Terminal   int    `json:"terminal"`              // final positions (no legal move)
	Captures   int    `json:"captures"`              // positions with a capture for the side to move
	Threats    int    `json:"threats"`               // positions with a capture for the opponent (QuietStrict)
	Resolved   int    `json:"resolved"`              // positions replaced by the end of their best capture sequence (QuietResolve)
	Positions  int    `json:"positions"`             // positions kept
	FirstError string `json:"first_error,omitempty"` // the first bad game's error
}

// Dataset holds labelled feature vectors of one variant. The zero value is not usable; use
// NewDataset.
type Dataset struct {
	// Variant is the variant of every position.
	Variant *engine.Variant
	// Names are the feature names, search.FeatureNames(Variant).
	Names []string
	// X holds the feature vectors, row-major: row i is X[i*len(Names) : (i+1)*len(Names)].
	// Features are small integers, exact in float32.
	X []float32
	// Y holds the labels: the result for the side to move, 1, 0.5 or 0.
	Y []float32
	// Game holds the game number of each row (0, 1, ... in reading order).
	Game []int32
	// Stats counts what was kept and dropped.
	Stats LoadStats
	// Patterns, set before any position is added, makes Add keep each position's pattern
	// configurations too (search.PatternIndices), for a fit of pattern weights: the
	// variant's board must have patterns, and AddVector cannot be used.
	Patterns bool
	// Pat holds the pattern configurations of each row when Patterns is set, row-major,
	// PatternRow of them a row (search.PatternIndices: the side to move's view of each
	// window, then the other side's); Phase the share of the starting pieces left.
	Pat   []int32
	Phase []float32

	games     int
	dedupe    archive.Deduper
	rp        pdn.Replayer
	slow      bool              // replay every game with Game.PlayText (tests compare both ways)
	positions []engine.Position // one replayed game's positions (a reused buffer)
	buf       []float64
	pbuf      []int32
	csvGame   map[string]int32
	csvSeen   map[uint64]bool
}

// NewDataset returns an empty data set for v. A nil v is taken from the first PDN game's
// GameType tag.
func NewDataset(v *engine.Variant) *Dataset {
	d := &Dataset{}
	if v != nil {
		d.setVariant(v)
	}
	return d
}

func (d *Dataset) setVariant(v *engine.Variant) {
	d.Variant = v
	d.Names = search.FeatureNames(v)
}

// Len returns the number of positions.
func (d *Dataset) Len() int { return len(d.Y) }

// Games returns the number of games the positions come from: one more than the largest
// game number added.
func (d *Dataset) Games() int { return d.games }

// Row returns the feature vector of position i; the caller must not modify it.
func (d *Dataset) Row(i int) []float32 {
	n := len(d.Names)
	return d.X[i*n : (i+1)*n]
}

// Score returns the evaluation of row i with weights w (complete for the variant), in
// hundredths of a man: the features and, when both d and w have them, the patterns (the
// exact linear term, before the search rounds it).
func (d *Dataset) Score(i int, w *search.Weights) float64 {
	var q float64
	for j, f := range d.Row(i) {
		q += float64(f) * w.Values[d.Names[j]]
	}
	if d.Patterns && w.Patterns != nil {
		pw := d.PatternRow()
		ph := float64(d.Phase[i])
		for j, c := range d.Pat[i*pw : (i+1)*pw] {
			x := (ph*float64(w.Patterns.Values[2*c]) + (1-ph)*float64(w.Patterns.Values[2*c+1])) / search.PatternUnit
			if j >= pw/2 {
				x = -x
			}
			q += x
		}
	}
	return q
}

// PatternRow returns the number of pattern configurations of a row: twice the windows of
// the variant's board.
func (d *Dataset) PatternRow() int { return 2 * search.PatternWindows(d.Variant) }

// Add appends a position with its label (the result for the side to move) and game number.
func (d *Dataset) Add(p *engine.Position, label float64, game int32) {
	if d.Patterns {
		var phase float64
		d.pbuf, phase = search.PatternIndices(d.Variant, p, d.pbuf)
		d.Pat = append(d.Pat, d.pbuf...)
		d.Phase = append(d.Phase, float32(phase))
	}
	d.buf = search.Features(d.Variant, p, d.buf)
	d.addVector(d.buf, label, game)
}

// AddVector appends a raw feature vector (in the order of Names) with its label and game
// number. It panics if len(f) != len(Names).
func (d *Dataset) AddVector(f []float64, label float64, game int32) {
	if d.Patterns {
		panic("tune: AddVector on a data set of patterns")
	}
	d.addVector(f, label, game)
}

func (d *Dataset) addVector(f []float64, label float64, game int32) {
	if len(f) != len(d.Names) {
		panic("tune: AddVector: feature vector of the wrong length")
	}
	n := len(d.X)
	if n+len(f) > cap(d.X) {
		// Double: append's growth of large slices (1.25×) copies X several times over.
		d.X = append(make([]float32, 0, max(2*cap(d.X), n+len(f), 1024)), d.X...)
	}
	d.X = d.X[:n+len(f)]
	for i, x := range f {
		d.X[n+i] = float32(x)
	}
	d.Y = append(d.Y, float32(label))
	if game >= int32(d.games) {
		d.games = int(game) + 1
	}
	d.Game = append(d.Game, game)
	d.Stats.Positions++
}

// label returns the result for the side to move in p, given the first mover's score.
func label(v *engine.Variant, p *engine.Position, first float64) float64 {
	if p.Side == v.FirstMover {
		return first
	}
	return 1 - first
}

// ReadPDN replays the games of r and adds their positions that f accepts. name labels
// errors (a file name). A game that cannot be read or replayed is skipped and counted in
// Stats.Bad; ReadPDN returns an error only when r itself fails, when a game is of another
// variant than the data set's, or when ctx is done (checked before each game): then the
// games read so far are kept and the error says how many there were.
func (d *Dataset) ReadPDN(ctx context.Context, r io.Reader, name string, f Filter) error {
	gr, err := pdn.NewGameReader(r, pdn.ReaderOptions{})
	if err != nil {
		return fmt.Errorf("tune: %s: %w", name, err)
	}
	for read := 0; ; read++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("tune: %s: stopped after %d games: %w", name, read, err)
		}
		g, err := gr.Next()
		if err == io.EOF {
			return nil
		}
		var gerr *pdn.GameError
		if err != nil && !errors.As(err, &gerr) {
			return fmt.Errorf("tune: %s: %w", name, err)
		}
		d.Stats.Read++
		if err != nil {
			d.bad(fmt.Errorf("%s: game %d: %w", name, d.Stats.Read, err))
			continue
		}
		if err := d.addGame(g, name, &f); err != nil {
			return err
		}
	}
}

func (d *Dataset) bad(err error) {
	d.Stats.Bad++
	if d.Stats.FirstError == "" {
		d.Stats.FirstError = err.Error()
	}
}

// addGame replays one PDN game; it returns an error only for a variant mismatch.
func (d *Dataset) addGame(g *pdn.Game, name string, f *Filter) error {
	where := func() string { return name + ": game " + strconv.Itoa(d.Stats.Read) }
	gt := strings.TrimSpace(g.Get("GameType"))
	switch {
	case d.Variant == nil && gt == "":
		return fmt.Errorf("tune: %s: no GameType tag; give the variant", where())
	case d.Variant == nil:
		v, err := engine.Lookup(gt)
		if err != nil {
			return fmt.Errorf("tune: %s: %w", where(), err)
		}
		d.setVariant(v)
	case gt != "":
		if v, err := engine.Lookup(gt); err != nil || v != d.Variant {
			return fmt.Errorf("tune: %s: GameType %q is not %s", where(), gt, d.Variant.Name)
		}
	}
	v := d.Variant
	if err := f.prepare(v); err != nil {
		return err
	}
	first, ok := pdn.FirstMoverScore(g.GameResult())
	if !ok {
		d.Stats.NoResult++
		return nil
	}
	if !f.KeepDuplicates && d.dedupe.Duplicate(g) {
		d.Stats.Duplicates++
		return nil
	}
	// The Replayer resolves moves from their parsed squares (engine.Variant.QuietMove for
	// most), as Game.PlayText would from their text, with frisian's king-move limit too.
	// A game it does not replay completely with v is replayed again move by move with
	// Game.PlayText, for the error that names the move.
	d.rp.Default, d.rp.NoVariations = v, true
	var res *pdn.Replayed
	var err error
	if !d.slow {
		res, err = d.rp.Replay(g)
	}
	if d.slow || err != nil || !res.Complete || res.Variant != v {
		d.addGameText(g, where(), f, v, first)
		return nil
	}
	d.positions = d.positions[:0]
	for i := range res.Plies {
		d.positions = append(d.positions, res.Plies[i].Before)
	}
	d.positions = append(d.positions, res.Final)
	d.addPositions(f, v, d.positions, first)
	return nil
}

// addGameText replays g (of variant v, first the first mover's score) with Game.PlayText
// and adds its positions; a move that does not play makes the game bad.
func (d *Dataset) addGameText(g *pdn.Game, where string, f *Filter, v *engine.Variant, first float64) {
	start := v.Start()
	if fen := strings.TrimSpace(g.Get("FEN")); fen != "" {
		p, err := v.ParseFEN(fen)
		if err != nil {
			d.bad(fmt.Errorf("%s: %w", where, err))
			return
		}
		start = p
	}
	game := engine.NewGame(v, start)
	for _, m := range g.Mainline() {
		if m.IsPlaceholder() {
			continue
		}
		if _, err := game.PlayText(m.Text); err != nil {
			d.bad(fmt.Errorf("%s: move %q: %w", where, m.Text, err))
			return
		}
	}
	d.addPositions(f, v, game.Positions(), first)
}

// addPositions adds the positions of one game, ps[i] the position after i plies, that f
// keeps, labelled by the result first (the first mover's score).
func (d *Dataset) addPositions(f *Filter, v *engine.Variant, ps []engine.Position, first float64) {
	id := int32(d.games)
	kept := 0
	for ply := range ps {
		if ply < f.SkipPlies {
			d.Stats.Opening++
			continue
		}
		if d.addPosition(f, v, &ps[ply], first, id) {
			kept++
		}
	}
	if kept > 0 {
		d.Stats.Games++
	}
}

// addPosition adds p, of game id, if f keeps it, labelled from first, the first mover's
// score.
func (d *Dataset) addPosition(f *Filter, v *engine.Variant, p *engine.Position, first float64, id int32) bool {
	q, flip, ok := f.keep(v, p, &d.Stats)
	if !ok {
		return false
	}
	y := label(v, p, first)
	if flip {
		y = 1 - y
	}
	d.Add(&q, y, id)
	return true
}

// CSVColumns are the columns ReadCSV needs, by header name; others (side, move, ...) are
// ignored.
var CSVColumns = []string{"game", "ply", "fen", "result"}

// ReadCSV reads one position per row, with a header row naming the columns (any order,
// case-insensitive): game (a game id, any text), ply (the position's ply from the game's
// start), fen (the position), result (the game's PDN result, first mover first, as in
// ReadPDN). Other columns, such as side, move and score (pdn convert --to csv), are ignored.
// The rows of a game are consecutive; a game whose rows (FEN and result) repeat an earlier
// game's is dropped unless f.KeepDuplicates. The data set needs a variant. A bad row is an
// error naming the line. When ctx is done (checked every csvCheckRows rows), ReadCSV
// returns its error, saying how far it got; the games read so far are kept.
func (d *Dataset) ReadCSV(ctx context.Context, r io.Reader, name string, f Filter) error {
	if d.Variant == nil {
		return fmt.Errorf("tune: %s: CSV input needs the variant", name)
	}
	if err := f.prepare(d.Variant); err != nil {
		return err
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return fmt.Errorf("tune: %s: %w", name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	idx := make([]int, len(CSVColumns))
	for k, c := range CSVColumns {
		i, ok := col[c]
		if !ok {
			return fmt.Errorf("tune: %s: line 1: no %q column (want columns %s)", name, c, strings.Join(CSVColumns, ", "))
		}
		idx[k] = i
	}
	if d.csvGame == nil {
		d.csvGame = map[string]int32{}
		d.csvSeen = map[uint64]bool{}
	}
	v := d.Variant
	var cur csvGame
	for rows := 0; ; {
		rec, err := cr.Read()
		if err == io.EOF {
			d.flushCSV(&cur, name, f)
			return nil
		}
		if err != nil {
			return fmt.Errorf("tune: %s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if rows++; rows%csvCheckRows == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("tune: %s: stopped at line %d, after %d games: %w", name, line, d.Stats.Read, err)
			}
		}
		field := func(k int) string {
			if idx[k] < len(rec) {
				return strings.TrimSpace(rec[idx[k]])
			}
			return ""
		}
		gid, plyText, fen, result := field(0), field(1), field(2), field(3)
		if !cur.started || gid != cur.id {
			d.flushCSV(&cur, name, f)
			cur = csvGame{id: gid, started: true, hash: fnv.New64a()}
		}
		ply, err := strconv.Atoi(plyText)
		if err != nil || ply < 0 {
			return fmt.Errorf("tune: %s: line %d: ply %q: want a number", name, line, plyText)
		}
		cur.hash.Write([]byte(fen + "|" + result + "\n"))
		first, ok := pdn.FirstMoverScore(result)
		if !ok {
			if result == "*" || result == "" || result == "0-0" {
				cur.noResult = true // no result: skipped, as in ReadPDN
				continue
			}
			return fmt.Errorf("tune: %s: line %d: result %q: want 1-0, 0-1, 1/2-1/2, 2-0, 1-1 or 0-2", name, line, result)
		}
		p, err := v.ParseFEN(fen)
		if err != nil {
			return fmt.Errorf("tune: %s: line %d: %w", name, line, err)
		}
		if ply < f.SkipPlies {
			cur.stats.Opening++
			continue
		}
		q, flip, ok := f.keep(v, &p, &cur.stats)
		if !ok {
			continue
		}
		y := label(v, &p, first)
		if flip {
			y = 1 - y
		}
		cur.rows = append(cur.rows, csvRow{q, y})
	}
}

// csvCheckRows is how often ReadCSV checks its context, in rows: often enough to stop
// within a millisecond or so, rarely enough to cost nothing.
const csvCheckRows = 1024

// csvGame collects the rows of one game of a CSV file (its rows are consecutive), so that
// identical games can be dropped as in ReadPDN.
type csvGame struct {
	id       string
	started  bool
	hash     hash.Hash64 // of every row's FEN and result
	rows     []csvRow
	stats    LoadStats
	noResult bool
}

type csvRow struct {
	p engine.Position
	y float64
}

// flushCSV adds the rows of g unless an identical game was read before.
func (d *Dataset) flushCSV(g *csvGame, name string, f Filter) {
	if !g.started {
		return
	}
	d.Stats.Read++
	if !f.KeepDuplicates {
		h := g.hash.Sum64()
		if d.csvSeen[h] {
			d.Stats.Duplicates++
			return
		}
		d.csvSeen[h] = true
	}
	if g.noResult && len(g.rows) == 0 {
		d.Stats.NoResult++
	}
	st := &d.Stats
	st.Opening += g.stats.Opening
	st.Terminal += g.stats.Terminal
	st.Captures += g.stats.Captures
	st.Threats += g.stats.Threats
	st.Resolved += g.stats.Resolved
	if len(g.rows) == 0 {
		return
	}
	key := name + "\x00" + g.id
	id, ok := d.csvGame[key]
	if !ok {
		id = int32(d.games) // Add counts it
		d.csvGame[key] = id
		st.Games++
	}
	for i := range g.rows {
		d.Add(&g.rows[i].p, g.rows[i].y, id)
	}
}
