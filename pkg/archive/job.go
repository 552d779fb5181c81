package archive

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/pdn"
)

// Input is one file (or stream) to process.
type Input struct {
	// Name is used in reports; "-" conventionally means standard input.
	Name string
	// Open opens the input. It is called once, when the input's turn comes.
	Open func() (io.ReadCloser, error)
	// Size is the input's size in bytes, or 0 when unknown (progress only).
	Size int64
	// Inferred, if not nil, is the variant of the input's games without a
	// GameType tag, inferred from the whole input (see pdn.InferVariant and
	// Job.InferVariants). The operations that replay games use it when
	// their pdn.Replayer has no Default.
	Inferred *pdn.Inference
}

// Job is a list of inputs read one game at a time, as the pdn command's
// subcommands do. Inputs may be PDN or JSON lines (see pdn.NewGameReader),
// gzip-compressed or not.
type Job struct {
	Inputs []Input
	Reader pdn.ReaderOptions
	// Jobs is how many goroutines read the inputs. With more than one, a
	// large PDN input is cut into pieces at game boundaries that are read
	// in parallel (JSON-lines input is read in one goroutine); the games,
	// their numbers and errors are the same, in the same order, whatever
	// Jobs is. Values below 2 read in the caller's goroutine.
	Jobs int
	// Progress, if not nil, is called from time to time with the number of
	// input bytes read so far and the total size of the inputs (0 when
	// unknown).
	Progress func(done, total int64)
	// Select, if not nil, is called with the number of each game read, from 0
	// over all the inputs in order, one call at a time in that order; the
	// games for which it returns false are read (so that the others keep
	// their numbers) but not handed on, counted, replayed or written. It is
	// called once per game, even for a game read twice. It makes a shard
	// of a job (the Has method of a pkg/shard Shard).
	Select func(i int) bool

	// onReader, if set, is called with each PDN Reader that eachInput
	// creates, before its first game.
	onReader func(*pdn.Reader)
	// pieceSize, if set, replaces the constant pieceSize (tests).
	pieceSize int
	// naiveCuts makes the finder propose a boundary at every line break
	// and every '[' that starts a line (tests: nearly all are wrong).
	naiveCuts bool
	// exactCuts makes the finder follow every byte from the start (tests).
	exactCuts bool
	// readWrong, if not nil, is called for each piece that was not read
	// right in parallel (tests).
	readWrong func()
	// readAhead, if above 0, is the number of items that may wait for
	// the merger of Job.pieces instead of inFlight(jobs).
	readAhead int
	// onInput, if not nil, is called by the splitter of Job.pieces with
	// the index of each input it is about to open.
	onInput func(i int)
	// pieceWork, if not nil, makes for each reading goroutine of pieces
	// what it does with the games of the items it reads (see
	// pieceWorker).
	pieceWork func() pieceWorker
}

// pieceWorker is what a reading goroutine of Job.pieces does with the
// games of the items it reads, before the merger hands them on. It runs in
// parallel with the other reading goroutines and the merger: it does not
// know the games' numbers.
type pieceWorker struct {
	// stream, if not nil, is called before an item of input is read. If
	// it returns a Replayer, the item is read with it (see
	// pdn.Reader.SetReplayer) and each game goes to game as soon as it
	// is read, not kept: done then gets none.
	stream func(input int) *pdn.Replayer
	game   func(g *pdn.Game, gerr error)
	// done is called with the games of each item read right, their
	// input and the item's size in bytes; piece.made is what it
	// returns. Unless it keeps them, the games are dropped at once
	// (their arena is the next item's) and the piece has none.
	done func(input, size int, games []*pdn.Game, gerrs []error) (made any, keep bool)
}

func (j *Job) total() int64 {
	var t int64
	for _, in := range j.Inputs {
		t += in.Size
	}
	return t
}

// InferVariants reads each input of the job once, with pdn.InferVariant, and
// sets its Inferred field, so that the games of the input without a
// GameType tag are replayed with the variant the whole input points to.
// It opens every input (so an input's Open must work twice, for this and
// for reading its games). An input that cannot be opened or read is left
// without an inference: reading its games reports the error. InferVariants
// returns only ctx.Err(), when ctx is done.
func (j *Job) InferVariants(ctx context.Context) error {
	for i := range j.Inputs {
		in := &j.Inputs[i]
		rc, err := in.Open()
		if err != nil {
			continue
		}
		inf, err := pdn.InferVariant(ctx, rc, j.Reader)
		rc.Close()
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err == nil {
			in.Inferred = inf
		}
	}
	return nil
}

// Each calls fn for every game of every input, in order. fn gets the game,
// its input, its number in the input (from 1) and the error Next returned
// with it (nil or a *pdn.GameError). An input that cannot be opened or read to
// its end, that holds binary data (pdn.ErrBinary) or no game at all
// (ErrNoGames) does not stop the others: Each returns its *InputError at
// the end, with the other inputs' (errors.Join). Each stops at the first
// error fn returns, or when ctx is done (it then returns ctx.Err() before
// the next game). With Jobs above 1 the inputs are read in parallel (see
// pieces), and fn is still called in order, from the caller's goroutine.
func (j *Job) Each(ctx context.Context, fn func(in *Input, n int, g *pdn.Game, gerr error) error) error {
	if j.Select != nil {
		sel, all := selector{sel: j.Select}, fn
		fn = func(in *Input, n int, g *pdn.Game, gerr error) error {
			if !sel.keep() {
				return nil
			}
			return all(in, n, g, gerr)
		}
	}
	var errs []error
	if j.Jobs > 1 {
		err := j.pieces(ctx, j.Jobs, false, func(p *piece) error {
			defer p.release()
			in := &j.Inputs[p.input]
			for k, g := range p.games {
				if err := fn(in, p.first+k, g, p.gerrs[k]); err != nil {
					return err
				}
			}
			return nil
		}, func(_ int, err error) error {
			if err != nil {
				errs = append(errs, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		return errors.Join(errs...)
	}
	total := j.total()
	var before int64
	for i := range j.Inputs {
		in := &j.Inputs[i]
		cr, err := j.eachInput(ctx, in, before, total, fn)
		before += cr
		if _, ok := err.(*InputError); ok {
			errs = append(errs, err)
		} else if err != nil {
			return err
		}
	}
	return errors.Join(errs...)
}

// eachInput is Each for one input; before is the size of the inputs read
// before it (progress). It returns the bytes read, and an *InputError when
// the input cannot be read (or holds no game), or the error of fn or ctx.
func (j *Job) eachInput(ctx context.Context, in *Input, before, total int64, fn func(in *Input, n int, g *pdn.Game, gerr error) error) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	rc, err := in.Open()
	if err != nil {
		return 0, &InputError{Name: in.Name, Err: err}
	}
	defer rc.Close()
	cr := &countingReader{R: rc}
	gr, err := pdn.NewGameReader(cr, j.Reader)
	if err != nil {
		return cr.N, &InputError{Name: in.Name, Err: err}
	}
	if pr, ok := gr.(*pdn.Reader); ok && j.onReader != nil {
		j.onReader(pr)
	}
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return cr.N, err
		}
		g, err := gr.Next()
		if err == io.EOF {
			if n == 1 {
				return cr.N, &InputError{Name: in.Name, Err: ErrNoGames}
			}
			break
		}
		if err != nil && !isGameError(err) {
			return cr.N, &InputError{Name: in.Name, Err: err}
		}
		if err := fn(in, n, g, err); err != nil {
			return cr.N, err
		}
		if j.Progress != nil && n%64 == 0 {
			j.Progress(before+cr.N, total)
		}
	}
	if j.Progress != nil {
		j.Progress(before+cr.N, total)
	}
	return cr.N, nil
}

// ErrNoGames means an input without a single game: an empty file, or one
// with nothing a game could be read from.
var ErrNoGames = errors.New("no games")

// InputError is an error about one input: it cannot be opened or read
// (pdn.ErrBinary, ErrNoGames, an I/O error), or one of its games was read with
// an error (a *pdn.GameError). It names the input.
type InputError struct {
	Name string // the input's name
	Err  error
}

// Error formats the error as "pdn: NAME: cause", the cause without its own
// "pdn: " (and "pdn: open NAME: ..." for an error that names the input
// itself, as os.Open's do).
func (e *InputError) Error() string {
	var pe *fs.PathError
	if errors.As(e.Err, &pe) && pe.Path == e.Name {
		return "pdn: " + e.Err.Error()
	}
	return "pdn: " + e.Name + ": " + strings.TrimPrefix(e.Err.Error(), "pdn: ")
}

// Unwrap returns the cause.
func (e *InputError) Unwrap() error { return e.Err }

// InputErrors returns the *InputError values err is made of (err may join
// several, as Job.Each returns them), and whether it holds nothing else.
func InputErrors(err error) (list []*InputError, only bool) {
	if err == nil {
		return nil, false
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	only = true
	for _, e := range errs {
		if ie, ok := e.(*InputError); ok {
			list = append(list, ie)
		} else {
			only = false
		}
	}
	return list, only
}

// isGameError reports whether err is (or wraps) a *GameError. It is a
// function of its own so that the target of errors.As does not escape in
// the caller's loop.
func isGameError(err error) bool {
	if _, ok := err.(*pdn.GameError); ok {
		return true
	}
	var ge *pdn.GameError
	return errors.As(err, &ge)
}

// Problem is one warning or error found by Validate.
type Problem struct {
	File   string `json:"file"`
	Game   int    `json:"game"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Level  string `json:"level"` // "error" or "warning"
	Kind   string `json:"kind"`
	// Message says what is wrong; the fields above say where.
	Message string `json:"message"`
	// For a main-line move that does not replay: its move number, the
	// move as written, the position before it (FEN), and the variant and
	// where it came from when that is not the GameType tag (see
	// pdn.ReplayError).
	MoveNumber int    `json:"move_number,omitempty"`
	Move       string `json:"move,omitempty"`
	FEN        string `json:"fen,omitempty"`
	Variant    string `json:"variant,omitempty"`
}

// Summary counts what Validate found in one input (or in all of them).
type Summary struct {
	File            string         `json:"file"`
	Games           int            `json:"games"`
	Moves           int            `json:"moves"` // main-line moves
	GamesWithErrors int            `json:"games_with_errors"`
	Warnings        map[string]int `json:"warnings"` // by kind
	Errors          map[string]int `json:"errors"`   // by kind
	// Replayed counts the games whose main line replayed to the end (with
	// ValidateOptions.Replay).
	Replayed int `json:"replayed,omitempty"`
	// Variants counts the games replayed per variant and where the
	// variant came from, e.g. "english (inferred from square numbers up
	// to 32)".
	Variants map[string]int `json:"variants,omitempty"`
	// Error is why the input could not be read to its end, if it could
	// not (see Job.Each).
	Error string `json:"error,omitempty"`
}

func newSummary(file string) *Summary {
	return &Summary{File: file, Warnings: map[string]int{}, Errors: map[string]int{}}
}

// count counts one game: its main-line moves and its problems, by level
// and kind; bad counts it as a game with errors.
func (s *Summary) count(g *pdn.Game, probs []Problem, bad bool) {
	s.Games++
	s.Moves += g.Plies()
	for _, p := range probs {
		if p.Level == "error" {
			s.Errors[p.Kind]++
		} else {
			s.Warnings[p.Kind]++
		}
	}
	if bad {
		s.GamesWithErrors++
	}
}

// Add adds o's counts to s.
func (s *Summary) Add(o *Summary) {
	s.Games += o.Games
	s.Moves += o.Moves
	s.GamesWithErrors += o.GamesWithErrors
	for k, n := range o.Warnings {
		s.Warnings[k] += n
	}
	for k, n := range o.Errors {
		s.Errors[k] += n
	}
	s.Replayed += o.Replayed
	for k, n := range o.Variants {
		if s.Variants == nil {
			s.Variants = map[string]int{}
		}
		s.Variants[k] += n
	}
}

// ValidateOptions configures Validate.
type ValidateOptions struct {
	// Jobs is how many goroutines work at once; values below 1 mean 1.
	// With more than one, the inputs are read in pieces in parallel (see
	// Job.Jobs) and, with Replay, the games are replayed in parallel.
	Jobs int
	// Problem, if not nil, is called for each problem found, one call at a
	// time, in input order.
	Problem func(Problem)
	// Replay, if not nil, also replays every game with the rules of its
	// variant (see pdn.Replayer; each goroutine uses a copy of its settings)
	// and reports illegal and ambiguous moves, bad FEN tags and the
	// replay warnings.
	Replay *pdn.Replayer
	// Infer, with Replay, infers the variant of the games without a
	// GameType tag of each input that has no Input.Inferred, as
	// Job.InferVariants would, but without reading the input once more
	// beforehand: its games are replayed with the inference from its start
	// and validated again in the rare case that the whole input says
	// otherwise. Each input must then open twice, as for InferVariants.
	Infer bool

	// stats, if not nil, also counts the games in it (CollectStats);
	// with skipBad, those with an error are only counted as left out.
	stats   *Stats
	skipBad bool
	// game, if not nil, is called with every game read, in input order,
	// from one goroutine, before it is replayed (StatsOptions.Game).
	game func(*pdn.Game, error)
	// egdb, with stats, is StatsOptions.EGDB.
	egdb *egdb.DB
	// inReader, if not nil, is called for each piece whose games were
	// replayed by the goroutine that read them (tests).
	inReader func()
}

// count counts game g in st for CollectStats: res and rp are its replay,
// if any; bad says it has an error.
func (opt *ValidateOptions) count(st *Stats, g *pdn.Game, bad bool, res *pdn.Replayed, rp *replayer) {
	switch {
	case bad && opt.skipBad:
		st.skipped++
	case res != nil:
		st.addReplayed(g, bad, res, rp)
	default:
		st.addTagged(g, bad)
	}
}

// Validate reads every game of every input and counts games, moves,
// warnings and errors per input. In strict mode (job.Reader.Strict) the
// warnings that the PDN 3.0 grammar rejects count as errors. It returns
// one Summary per input, in input order. When ctx is done it stops within
// a batch of games and returns ctx.Err() with the counts of the games
// reported so far.
func Validate(ctx context.Context, job Job, opt ValidateOptions) ([]*Summary, error) {
	if opt.Replay != nil {
		return validateReplay(ctx, job, opt)
	}
	sums := make([]*Summary, len(job.Inputs))
	errs := make([]error, len(job.Inputs))
	for i := range job.Inputs {
		sums[i] = newSummary(job.Inputs[i].Name)
	}
	sel := selector{sel: job.Select}
	if opt.Jobs > 1 {
		// Read in pieces, in parallel, counting in input order.
		var probs []Problem
		err := job.pieces(ctx, opt.Jobs, true, func(p *piece) error {
			defer p.release()
			name, sum := job.Inputs[p.input].Name, sums[p.input]
			for k, g := range p.games {
				gerr := p.gerrs[k]
				if opt.game != nil {
					opt.game(g, gerr)
				}
				if !sel.keep() {
					continue
				}
				probs = gameProblems(probs[:0], name, p.first+k, g, gerr, job.Reader.Strict)
				sum.count(g, probs, gerr != nil)
				if opt.stats != nil {
					opt.count(opt.stats, g, gerr != nil, nil, nil)
				}
				if opt.Problem != nil {
					for _, p := range probs {
						opt.Problem(p)
					}
				}
			}
			return nil
		}, func(i int, err error) error {
			errs[i] = err
			return nil
		})
		return sums, validateError(ctx, sums, errs, err)
	}
	var mu sync.Mutex // serialises Problem calls and progress
	var done int64
	total := job.total()
	jobs := opt.Jobs
	if jobs < 1 || opt.game != nil {
		jobs = 1 // (opt.game: one input after the other)
	}
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	stats := make([]*Stats, len(job.Inputs)) // each input's, for opt.stats
	for i := range job.Inputs {
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			in := &job.Inputs[i]
			sum := sums[i]
			sub := Job{Reader: job.Reader}
			var last int64
			if job.Progress != nil {
				sub.Progress = func(d, _ int64) {
					mu.Lock()
					done += d - last
					last = d
					job.Progress(done, total)
					mu.Unlock()
				}
			}
			var probs []Problem
			if opt.stats != nil {
				stats[i] = NewStats()
			}
			_, errs[i] = sub.eachInput(ctx, in, 0, 0, func(in *Input, n int, g *pdn.Game, gerr error) error {
				if opt.game != nil {
					opt.game(g, gerr)
				}
				if !sel.keep() {
					return nil
				}
				probs = gameProblems(probs[:0], in.Name, n, g, gerr, job.Reader.Strict)
				sum.count(g, probs, gerr != nil)
				if stats[i] != nil {
					opt.count(stats[i], g, gerr != nil, nil, nil)
				}
				if opt.Problem != nil && len(probs) > 0 {
					mu.Lock()
					for _, p := range probs {
						opt.Problem(p)
					}
					mu.Unlock()
				}
				return nil
			})
		}(i)
	}
	wg.Wait()
	for _, st := range stats {
		if st != nil {
			opt.stats.merge(st)
		}
	}
	return sums, validateError(ctx, sums, errs, nil)
}

// validateError is the error of a validation: ctx's when it is done (the
// inputs' errors are then mostly that), else the inputs' (noted in their
// summaries) and err.
func validateError(ctx context.Context, sums []*Summary, errs []error, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	for i, e := range errs {
		if e != nil {
			sums[i].Error = e.Error()
		}
	}
	return errors.Join(append(errs, err)...)
}

// gameProblems lists the problems of one game.
func gameProblems(ps []Problem, file string, n int, g *pdn.Game, gerr error, strict bool) []Problem {
	fromWarning := false
	var se *pdn.SyntaxError
	hasPos := gerr != nil && errors.As(gerr, &se)
	for _, w := range g.Warnings {
		p := Problem{File: file, Game: n, Line: w.Pos.Line, Column: w.Pos.Column, Level: "warning",
			Kind: w.Kind.String(), Message: w.Text}
		if strict && w.Kind.Strict() {
			p.Level = "error"
			if hasPos && se.Pos == w.Pos {
				fromWarning = true
			}
		}
		ps = append(ps, p)
	}
	if gerr != nil && !fromWarning {
		p := Problem{File: file, Game: n, Level: "error", Kind: pdn.ErrorKind(gerr)}
		if hasPos {
			p.Line, p.Column, p.Message = se.Pos.Line, se.Pos.Column, se.Err.Error()
		} else if ge, ok := gerr.(*pdn.GameError); ok {
			p.Message = ge.Err.Error()
		} else {
			p.Message = gerr.Error()
		}
		ps = append(ps, p)
	}
	return ps
}

// gameBatch is a run of consecutive games of one input, the unit of work
// of validateReplay.
type gameBatch struct {
	seq, input int
	first      int // game number of games[0]
	games      []*pdn.Game
	gerrs      []error
	skip       []bool // games left out by Job.Select, if any
	sum        *Summary
	probs      []Problem
	stats      *Stats // for ValidateOptions.stats
	// arena holds the games read from PDN (nil for JSON input); it goes
	// back to the pool once the games are replayed.
	arena *pdn.Arena
	// piece holds the games read in parallel (Jobs > 1), released once
	// they are replayed.
	piece *piece
	// end marks, instead of games, the end of a speculating input (see
	// validateReplay).
	end bool
	// ev is the evidence of the games of a speculating input.
	ev *pdn.Evidence
}

// batchSize is the number of games per batch: enough to make the
// hand-over cheap, few enough to keep memory small.
const batchSize = 64

// startReplay readies b for the results of its games' replays (replay):
// ev asks for an Evidence of its games, stats for their stats.
func (b *gameBatch) startReplay(name string, ev, stats bool) {
	b.sum = newSummary(name)
	b.sum.Variants = map[string]int{}
	if ev {
		b.ev = new(pdn.Evidence)
	}
	if stats {
		b.stats = NewStats()
	}
}

// replay replays game n of the input name, g, read with error gerr, with
// rp, and counts it in b: its problems, its summary, its stats.
func (b *gameBatch) replay(rp *replayer, name string, n int, g *pdn.Game, gerr error, strict bool, opt *ValidateOptions) {
	start := len(b.probs)
	b.probs = gameProblems(b.probs, name, n, g, gerr, strict)
	var bad bool
	b.probs, bad = rp.problems(b.probs, b.sum, name, n, g)
	bad = bad || gerr != nil
	b.sum.count(g, b.probs[start:], bad)
	if b.stats != nil {
		opt.count(b.stats, g, bad, rp.res, rp)
		if opt.egdb != nil && !(bad && opt.skipBad) {
			b.stats.checkEGDB(opt.egdb, name, n, g, rp.res)
		}
	}
}

// guessBytes is how much of an input speculative validation infers its
// guess from (see validateReplay): about 4 ms of scanning. An input that
// fits is inferred exactly.
var guessBytes int64 = 1 << 20

// maxHeld is the most problems a speculating input holds back before it
// gives up the speculation and is validated again once it has been read.
var maxHeld = 1 << 16

// speculation is the state of an input validated with a guessed inference
// (see validateReplay).
type speculation struct {
	in    *Input
	guess *pdn.Inference
	// skips are the input's games that Job.Select left out, for
	// validating it again without calling Select again.
	skips []bool
	// ev is the evidence of the input's games, merged batch by batch
	// in the merging goroutine.
	ev pdn.Evidence
	// dropped is set by the merging goroutine when it gives the guess up
	// (too many problems held); the replaying goroutines then skip the
	// input's games.
	dropped atomic.Bool
	// What the merging goroutine holds back.
	sum   *Summary
	stats *Stats
	probs []Problem
}

// speculate returns the speculation of an input whose variant is to be
// inferred, and the inference its games are replayed with: its guess; or
// no speculation and the inference of the whole input, when its first
// guessBytes are all of it. A guess that could not be made (the input
// cannot be read) is nil: the games are then replayed each with the
// variant inferred from itself, and the input validated again at its end
// if that was wrong.
func speculate(ctx context.Context, in *Input, opt pdn.ReaderOptions) (*speculation, *pdn.Inference) {
	sp := &speculation{in: in}
	rc, err := in.Open()
	if err != nil {
		return sp, nil
	}
	inf, whole, err := pdn.InferVariantPrefix(ctx, rc, opt, guessBytes)
	rc.Close()
	switch {
	case err != nil:
		return sp, nil
	case whole:
		return nil, inf
	}
	sp.guess = inf
	return sp, inf
}

// hold holds the results of b back, or drops them when too many problems
// are held.
func (sp *speculation) hold(b *gameBatch, stats bool) {
	if sp.dropped.Load() {
		return
	}
	if len(sp.probs)+len(b.probs) > maxHeld {
		sp.dropped.Store(true)
		sp.sum, sp.stats, sp.probs = nil, nil, nil
		return
	}
	if sp.sum == nil {
		sp.sum = newSummary(b.sum.File)
		sp.sum.Variants = map[string]int{}
		if stats {
			sp.stats = NewStats()
		}
	}
	sp.sum.Add(b.sum)
	if b.stats != nil {
		sp.stats.merge(b.stats)
	}
	sp.probs = append(sp.probs, b.probs...)
}

// held reports whether the results held back are the input's: the guess
// was right (or no game needed it) and nothing was dropped.
func (sp *speculation) held() bool {
	final := sp.ev.Infer()
	return !sp.dropped.Load() && (final.Variant == nil && final.Games == 0 || final.Same(sp.guess))
}

// again validates the input again, with the inference from all its
// games, reporting its problems through opt.Problem; it returns its
// summary and stats. (An error reading the input, the first reading
// reported.)
func (sp *speculation) again(ctx context.Context, job Job, opt ValidateOptions) (*Summary, *Stats) {
	in := *sp.in
	in.Inferred = sp.ev.Infer()
	sub := Job{Inputs: []Input{in}, Reader: job.Reader}
	if job.Select != nil {
		sub.Select = func(k int) bool { return k < len(sp.skips) && !sp.skips[k] }
	}
	opt.Infer, opt.game = false, nil
	var st *Stats
	if opt.stats != nil {
		st = NewStats()
		opt.stats = st
	}
	sums, _ := validateReplay(ctx, sub, opt)
	return sums[0], st
}

// countingReader counts the bytes read through it, for progress reports.
type countingReader struct {
	R io.Reader
	N int64
}

// Read implements io.Reader.
func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	return n, err
}
