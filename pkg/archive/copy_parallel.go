package archive

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/rafle/rafle/pkg/pdn"
)

// Copy with Job.Jobs above 1 formats the games in parallel, in one of two
// ways.
//
// In pieces (copyPieces), for a PDN or JSON destination without a replay
// stage or Job.Select: the goroutines that read the pieces of an input
// (Job.pieces, arenas recycled) format the games of each piece they read
// right into the piece's buffer, after the decisions that do not depend
// on the games before (a bad game skipped, the filter, the transform; the
// deduper's hash). The merger, in the caller's goroutine, takes the
// pieces in input order and does the rest, game by game, as the
// sequential Copy does: the deduper's decision, counting, OnError calls,
// writing each game's bytes to the destination with one call, and
// stopping at the first write error. Each game is read and formatted once,
// by one goroutine, and at most Job.pieces' pieces are held at once.
//
// In batches (copyParallel), when the games' numbers are needed to format
// them (a replay stage) or only some are selected: three stages. The
// reading goroutine runs Job.Each and, in input order, makes the
// decisions that depend on the games before: a bad game skipped
// (SkipBad), the filter, the deduper. It hands the games on in batches.
// Formatting goroutines each take whole batches: they apply the
// transform, replay (with a Replayer of their own) and format each game
// that passed into the batch's buffer, with a writer of the
// destination's kind and settings. The caller's goroutine takes the
// batches in input order and does the rest as above.
//
// Either way the output, the counts, the errors and the game a write
// error is reported on are those of the sequential Copy.

// How Copy runs (parallelCopy).
const (
	copySequential = iota
	copyInPieces
	copyInBatches
)

// copyBatchSize is the number of games per batch.
const copyBatchSize = 64

// What the reading goroutine decided about a game.
const (
	copyPass      = iota // to be formatted
	copySkipped          // read with an error, and SkipBad
	copyFiltered         // dropped by the filter
	copyDuplicate        // dropped by the deduper
)

// copyGame is one game of a batch and what became of it.
type copyGame struct {
	in    *Input
	n     int // its number in the input
	g     *pdn.Game
	gerr  error
	state int
	hash  uint64 // its MoveHash, when it went through the deduper
	keep  bool   // kept by the replay stage
	rerr  error  // the replay error
	werr  error  // the formatting error
	end   int    // end of its bytes in the batch's out
}

// copyBatch is a run of consecutive games.
type copyBatch struct {
	games []copyGame
	size  int           // the input bytes of the games, if known
	out   []byte        // the games' bytes, formatted
	done  chan struct{} // closed when the games are formatted (copyParallel)
}

// reset empties b for other games.
func (b *copyBatch) reset() {
	clear(b.games)
	b.games, b.out, b.size = b.games[:0], b.out[:0], 0
}

// errCopyStopped ends the reading when the writing has stopped.
var errCopyStopped = errors.New("pdn: copy stopped")

// parallelCopy says how Copy runs for dst.
func parallelCopy(job *Job, dst pdn.GameWriter, opt *CopyOptions) int {
	if job.Jobs <= 1 {
		return copySequential
	}
	switch dst.(type) {
	case *pdn.Writer, *pdn.JSONWriter:
		if opt.Replay == nil && job.Select == nil {
			return copyInPieces
		}
		return copyInBatches
	case *PositionWriter:
		if opt.Replay != nil { // without, Write numbers the games itself
			return copyInBatches
		}
	}
	return copySequential
}

// formattedWriter returns the function that writes one game formatted by a
// copyWorker to dst.
func formattedWriter(dst pdn.GameWriter) func(p []byte) error {
	switch d := dst.(type) {
	case *pdn.Writer:
		return d.WriteFormatted
	case *pdn.JSONWriter:
		return d.WriteFormatted
	case *PositionWriter:
		return func(p []byte) error {
			if err := d.writeHeader(); err != nil {
				return err
			}
			_, err := d.bw.Write(p)
			return err
		}
	}
	return nil
}

// copyPieceSize is the size of the pieces Copy in pieces cuts its input
// into, half of pieceSize: a piece is held with its output (JSON lines
// take about 8 times the bytes of their PDN), and with half as much held,
// the heap of `pdn convert --to json -j 2` stays under the GC's first goal
// on the OCA: no GC cycle (one at 64 KiB pieces: docs/benchmarks.md,
// measured choices), for a few more pieces to hand round.
const copyPieceSize = 32 << 10

// copyPieces is Copy in pieces (see the top of this file).
func copyPieces(ctx context.Context, job Job, dst pdn.GameWriter, opt CopyOptions) (CopyResult, error) {
	put := formattedWriter(dst)
	if job.pieceSize == 0 {
		job.pieceSize = copyPieceSize
	}
	// The batches whose bytes are written, for the readers to fill again.
	free := make(chan *copyBatch, inFlight(job.Jobs)+job.Jobs+2)
	format := func(w *copyWorker, size int, games []*pdn.Game, gerrs []error) *copyBatch {
		var b *copyBatch
		select {
		case b = <-free:
		default:
			b = &copyBatch{}
		}
		b.size = size
		for k, g := range games {
			c := copyGame{g: g, gerr: gerrs[k]}
			switch {
			case c.gerr != nil && opt.SkipBad:
				c.state = copySkipped
			case opt.Filter != nil && !opt.Filter.Match(g):
				c.state = copyFiltered
			case opt.Dedupe != nil:
				c.hash = moveHash(g)
			}
			b.games = append(b.games, c)
		}
		w.run(b)
		return b
	}
	job.pieceWork = func() pieceWorker {
		w := newCopyWorker(dst, &opt)
		return pieceWorker{done: func(_, size int, games []*pdn.Game, gerrs []error) (any, bool) {
			// Once formatted, the games are wanted only for their errors,
			// which the merger numbers and OnError shows (and which may
			// hold the arena's memory): without errors, the arena is
			// the next piece's.
			keep := slices.ContainsFunc(gerrs, func(err error) bool { return err != nil })
			return format(w, size, games, gerrs), keep
		}}
	}
	var res CopyResult
	var errs []error
	var own *copyWorker // formats the games the merger read itself
	err := job.pieces(ctx, job.Jobs, true, func(p *piece) error {
		defer p.release() // (after OnError: an error may hold the arena's memory)
		b, _ := p.made.(*copyBatch)
		if b == nil {
			if own == nil {
				own = newCopyWorker(dst, &opt)
			}
			b = format(own, 0, p.games, p.gerrs)
		}
		in := &job.Inputs[p.input]
		for k := range b.games {
			c := &b.games[k]
			c.in, c.n = in, p.first+k
			if c.state == copyPass && opt.Dedupe != nil && opt.Dedupe.checkHash(c.hash) {
				c.state = copyDuplicate
			}
		}
		err := b.emit(&res, &opt, put)
		b.reset()
		select {
		case free <- b:
		default:
		}
		return err
	}, func(_ int, err error) error {
		if err != nil {
			errs = append(errs, err)
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	return res, errors.Join(errs...)
}

// copyParallel is Copy in batches (see the top of this file).
func copyParallel(ctx context.Context, job Job, dst pdn.GameWriter, opt CopyOptions) (CopyResult, error) {
	jobs := job.Jobs
	put := formattedWriter(dst)
	inFlight := 2 * jobs
	work := make(chan *copyBatch, inFlight)
	order := make(chan *copyBatch, inFlight)
	free := make(chan *copyBatch, inFlight+jobs+2)
	stop := make(chan struct{})

	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newCopyWorker(dst, &opt)
			for b := range work {
				select {
				case <-stop:
				default:
					w.run(b)
				}
				close(b.done)
			}
		}()
	}

	var eachErr error
	go func() {
		defer close(order)
		defer close(work)
		var b *copyBatch
		send := func() bool {
			bb := b
			b = nil
			select {
			case order <- bb:
			case <-stop:
				return false
			}
			select {
			case work <- bb:
				return true
			case <-stop:
				return false
			}
		}
		eachErr = job.Each(ctx, func(in *Input, n int, g *pdn.Game, gerr error) error {
			select {
			case <-stop:
				return errCopyStopped
			default:
			}
			if b == nil {
				select {
				case b = <-free:
				default:
					b = &copyBatch{games: make([]copyGame, 0, copyBatchSize)}
				}
				b.done = make(chan struct{})
			}
			state := copyPass
			var hash uint64
			switch {
			case gerr != nil && opt.SkipBad:
				state = copySkipped
			case opt.Filter != nil && !opt.Filter.Match(g):
				state = copyFiltered
			case opt.Dedupe != nil:
				var dup bool
				if hash, dup = opt.Dedupe.check(g); dup {
					state = copyDuplicate
				}
			}
			b.games = append(b.games, copyGame{in: in, n: n, g: g, gerr: gerr, state: state, hash: hash})
			if len(b.games) == copyBatchSize && !send() {
				return errCopyStopped
			}
			return nil
		})
		if b != nil && len(b.games) > 0 {
			send()
		}
	}()

	var res CopyResult
	var err error
	for b := range order {
		if err != nil {
			continue // stopped: let the reader end
		}
		<-b.done
		if err = ctx.Err(); err != nil {
			close(stop)
			continue
		}
		if err = b.emit(&res, &opt, put); err != nil {
			close(stop)
			continue
		}
		b.reset()
		select {
		case free <- b:
		default:
		}
	}
	wg.Wait()
	if err == nil {
		err = eachErr
	}
	return res, err
}

// emit does, in order, what the sequential Copy does with each game of
// the batch after reading it, the formatting aside.
func (b *copyBatch) emit(res *CopyResult, opt *CopyOptions, put func([]byte) error) error {
	out := b.out
	start := 0
	for i := range b.games {
		c := &b.games[i]
		p := out[start:c.end]
		start = c.end
		o, err := c.emit(res, opt, put, p)
		if err != nil {
			return err
		}
		if opt.Outcome != nil {
			opt.Outcome(c.in, c.n, o)
		}
	}
	return nil
}

// emit does with one game what the sequential Copy does, p being its
// formatted bytes, and says what became of it.
func (c *copyGame) emit(res *CopyResult, opt *CopyOptions, put func([]byte) error, p []byte) (o CopyOutcome, err error) {
	res.Read++
	if c.gerr != nil {
		res.Errors++
		if opt.OnError != nil {
			opt.OnError(&InputError{Name: c.in.Name, Err: c.gerr})
		}
	}
	switch c.state {
	case copySkipped:
		o.Skipped = true
		return o, nil
	case copyFiltered:
		res.Filtered++
		o.Filtered = true
		return o, nil
	case copyDuplicate:
		res.Duplicates++
		o.Duplicate, o.Hash = true, c.hash
		return o, nil
	}
	o.Deduped, o.Hash = opt.Dedupe != nil, c.hash
	if opt.Replay != nil {
		if !c.keep {
			res.Filtered++
			o.Dropped = true
			return o, nil
		}
		if c.rerr != nil && c.gerr == nil {
			res.ReplayErrors++
			o.ReplayError = true
			if opt.OnError != nil {
				opt.OnError(c.rerr)
			}
			if opt.SkipBad {
				return o, nil
			}
		}
	}
	err = c.werr
	if err == nil {
		err = put(p)
	}
	if err != nil {
		return o, fmt.Errorf("%s: game %d: %w", c.in.Name, c.n, err)
	}
	res.Written++
	o.Written = true
	return o, nil
}

// copyWorker formats games as the destination would, into a batch's
// buffer.
type copyWorker struct {
	opt   *CopyOptions
	rc    *ReplayCopy // a copy of opt.Replay with a Replayer of its own
	out   batchOut    // what the writers below write to
	bw    *bufio.Writer
	pdn   *pdn.Writer
	json  *pdn.JSONWriter
	pos   *PositionWriter
	ratio float64 // the most output bytes per input byte of a batch so far
}

func newCopyWorker(dst pdn.GameWriter, opt *CopyOptions) *copyWorker {
	w := &copyWorker{opt: opt}
	// As large as the writers' own buffer (64 KiB), so that they write
	// to it directly (bufio.NewWriterSize).
	w.bw = bufio.NewWriterSize(&w.out, 64<<10)
	if opt.Replay != nil {
		rc := *opt.Replay
		rp := &opt.Replay.Replayer
		rc.Replayer = *rp.Clone()
		w.rc = &rc
	}
	switch d := dst.(type) {
	case *pdn.Writer:
		w.pdn = pdn.NewWriter(w.bw)
		w.pdn.Width, w.pdn.StarOnly = d.Width, d.StarOnly
	case *pdn.JSONWriter:
		w.json = pdn.NewJSONWriter(w.bw)
		w.json.Positions = d.Positions
	case *PositionWriter:
		pw := NewPositionWriter(w.bw, FormatFEN)
		if d.cw != nil {
			pw = NewPositionWriter(w.bw, FormatCSV)
		}
		pw.Notation, pw.Captures = d.Notation, d.Captures
		pw.header = true // the destination writes it
		w.pos = pw
	}
	return w
}

// run formats the games of b that passed the reading stage.
func (w *copyWorker) run(b *copyBatch) {
	opt := w.opt
	w.out.b = b
	if want := int(float64(b.size)*w.ratio) + 4<<10; b.size > 0 && cap(b.out) < want {
		// Room for the output of b.size input bytes at the highest ratio
		// so far, and some, rather than growing to it by doubling: a
		// batch's buffer is then made once, not again and again as the
		// batches go round (garbage that brings on the GC).
		b.out = make([]byte, 0, want+want/8)
	}
	for i := range b.games {
		c := &b.games[i]
		if c.state == copyPass {
			w.format(c, opt)
			w.flush()
		}
		c.g = nil
		c.end = len(b.out)
	}
	if b.size > 0 {
		w.ratio = max(w.ratio, float64(len(b.out))/float64(b.size))
	}
}

// format transforms, replays and formats one game.
func (w *copyWorker) format(c *copyGame, opt *CopyOptions) {
	g := c.g
	opt.Transform.Apply(g)
	var rg *pdn.Replayed
	if w.rc != nil {
		rg, c.keep, c.rerr = w.rc.apply(c.in, c.n, g)
		if !c.keep || (c.rerr != nil && c.gerr == nil && opt.SkipBad) {
			return
		}
	}
	switch {
	case w.pos != nil:
		c.werr = w.pos.writeReplayed(c.in.Name+":"+strconv.Itoa(c.n), g, rg)
	case w.pdn != nil:
		c.werr = w.pdn.Format(g)
	default:
		w.out.b.out = w.json.AppendGame(w.out.b.out, g)
	}
}

// flush moves what the worker's writer holds into the batch's buffer.
func (w *copyWorker) flush() {
	if w.pdn != nil {
		w.pdn.Flush()
	}
	w.bw.Flush()
}

// batchOut is an io.Writer that appends to the bytes of the batch a
// copyWorker formats.
type batchOut struct{ b *copyBatch }

func (o *batchOut) Write(p []byte) (int, error) {
	o.b.out = append(o.b.out, p...)
	return len(p), nil
}
