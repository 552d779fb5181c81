package archive

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/rafle/rafle/pkg/pdn"
)

// Copy with Job.Jobs above 1 formats the games in parallel.
//
// Three stages. The reading goroutine runs Job.Each and, in input order,
// makes the decisions that depend on the games before: a bad game
// skipped (SkipBad), the filter, the deduper. It hands the games on in
// batches. Formatting goroutines each take whole batches: they apply the
// transform, replay (with a Replayer of their own) and format each game
// that passed into the batch's buffer, with a writer of the
// destination's kind and settings. The caller's goroutine takes the
// batches in input order and does everything that can be seen from
// outside, game by game, as the sequential Copy does: counting, OnError
// calls, writing each game's bytes to the destination with one call,
// and stopping at the first write error. So the output, the counts, the
// errors and the game a write error is reported on are those of the
// sequential Copy.

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
	out   bytes.Buffer
	done  chan struct{} // closed when the games are formatted
}

// errCopyStopped ends the reading when the writing has stopped.
var errCopyStopped = errors.New("pdn: copy stopped")

// parallelCopy reports whether Copy formats in parallel for dst.
func parallelCopy(job *Job, dst pdn.GameWriter, opt *CopyOptions) bool {
	if job.Jobs <= 1 {
		return false
	}
	switch dst.(type) {
	case *pdn.Writer, *pdn.JSONWriter:
		return true
	case *PositionWriter:
		return opt.Replay != nil // without, Write numbers the games itself
	}
	return false
}

// copyParallel is Copy for parallelCopy's cases.
func copyParallel(ctx context.Context, job Job, dst pdn.GameWriter, opt CopyOptions) (CopyResult, error) {
	jobs := job.Jobs
	var put func(p []byte) error // writes one formatted game to dst
	switch d := dst.(type) {
	case *pdn.Writer:
		put = d.WriteFormatted
	case *pdn.JSONWriter:
		put = d.WriteFormatted
	case *PositionWriter:
		put = func(p []byte) error {
			if err := d.writeHeader(); err != nil {
				return err
			}
			_, err := d.bw.Write(p)
			return err
		}
	}
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
		clear(b.games)
		b.games = b.games[:0]
		b.out.Reset()
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
	out := b.out.Bytes()
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
	opt  *CopyOptions
	rc   *ReplayCopy // a copy of opt.Replay with a Replayer of its own
	out  batchOut    // what the writers below write to
	bw   *bufio.Writer
	pdn  *pdn.Writer
	json *pdn.JSONWriter
	pos  *PositionWriter
}

func newCopyWorker(dst pdn.GameWriter, opt *CopyOptions) *copyWorker {
	w := &copyWorker{opt: opt}
	w.bw = bufio.NewWriter(&w.out)
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
	w.out.b = &b.out
	for i := range b.games {
		c := &b.games[i]
		if c.state == copyPass {
			w.format(c, opt)
			w.flush()
		}
		c.g = nil
		c.end = b.out.Len()
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
		c.werr = w.json.Write(g)
	}
}

// flush moves what the worker's writer holds into the batch's buffer.
func (w *copyWorker) flush() {
	switch {
	case w.pdn != nil:
		w.pdn.Flush()
	case w.json != nil:
		w.json.Flush()
	}
	w.bw.Flush()
}

// batchOut is an io.Writer that appends to the buffer of the batch a
// copyWorker formats.
type batchOut struct{ b *bytes.Buffer }

func (o *batchOut) Write(p []byte) (int, error) { return o.b.Write(p) }
