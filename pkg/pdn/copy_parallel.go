package pdn

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
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
	g     *Game
	gerr  error
	state int
	keep  bool  // kept by the replay stage
	rerr  error // the replay error
	werr  error // the formatting error
	end   int   // end of its bytes in the batch's out
}

// copyBatch is a run of consecutive games.
type copyBatch struct {
	games []copyGame
	out   bytes.Buffer
	done  chan struct{} // closed when the games are formatted
	piece *piece        // the games' memory, released once they are formatted
}

// errCopyStopped ends the reading when the writing has stopped.
var errCopyStopped = errors.New("pdn: copy stopped")

// parallelCopy reports whether Copy formats in parallel for dst.
func parallelCopy(job *Job, dst GameWriter, opt *CopyOptions) bool {
	if job.Jobs <= 1 {
		return false
	}
	switch dst.(type) {
	case *Writer, *JSONWriter:
		return true
	case *PositionWriter:
		return opt.Replay != nil // without, Write numbers the games itself
	}
	return false
}

// copyParallel is Copy for parallelCopy's cases.
func copyParallel(ctx context.Context, job Job, dst GameWriter, opt CopyOptions) (CopyResult, error) {
	jobs := job.Jobs
	var put func(p []byte) error // writes one formatted game to dst
	switch d := dst.(type) {
	case *Writer:
		put = d.writeFormatted
	case *JSONWriter:
		put = func(p []byte) error {
			_, err := d.w.Write(p)
			return err
		}
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
				b.piece.release()
				b.piece = nil
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
		// Job.Each with arenas: a batch is one piece (about 64 KB of
		// input), whose memory the worker releases once it is formatted.
		var errs []error
		eachErr = job.pieces(ctx, jobs, true, func(p *piece) error {
			select {
			case <-stop:
				p.release()
				return errCopyStopped
			default:
			}
			select {
			case b = <-free:
			default:
				b = &copyBatch{games: make([]copyGame, 0, copyBatchSize)}
			}
			b.done = make(chan struct{})
			b.piece = p
			in := &job.Inputs[p.input]
			for k, g := range p.games {
				gerr := p.gerrs[k]
				state := copyPass
				switch {
				case gerr != nil && opt.SkipBad:
					state = copySkipped
				case opt.Filter != nil && !opt.Filter.Match(g):
					state = copyFiltered
				case opt.Dedupe != nil && opt.Dedupe.Duplicate(g):
					state = copyDuplicate
				}
				b.games = append(b.games, copyGame{in: in, n: p.first + k, g: g, gerr: gerr, state: state})
			}
			if !send() {
				p.release()
				return errCopyStopped
			}
			return nil
		}, func(_ int, err error) error {
			if err != nil {
				errs = append(errs, err)
			}
			return nil
		})
		if eachErr == nil {
			eachErr = errors.Join(errs...)
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
		res.Read++
		if c.gerr != nil {
			res.Errors++
			if opt.OnError != nil {
				opt.OnError(&InputError{Name: c.in.Name, Err: c.gerr})
			}
		}
		switch c.state {
		case copySkipped:
			continue
		case copyFiltered:
			res.Filtered++
			continue
		case copyDuplicate:
			res.Duplicates++
			continue
		}
		if opt.Replay != nil {
			if !c.keep {
				res.Filtered++
				continue
			}
			if c.rerr != nil && c.gerr == nil {
				res.ReplayErrors++
				if opt.OnError != nil {
					opt.OnError(c.rerr)
				}
				if opt.SkipBad {
					continue
				}
			}
		}
		err := c.werr
		if err == nil {
			err = put(p)
		}
		if err != nil {
			return fmt.Errorf("%s: game %d: %w", c.in.Name, c.n, err)
		}
		res.Written++
	}
	return nil
}

// copyWorker formats games as the destination would, into a batch's
// buffer.
type copyWorker struct {
	opt  *CopyOptions
	rc   *ReplayCopy // a copy of opt.Replay with a Replayer of its own
	bw   *bufio.Writer
	pdn  *Writer
	json *JSONWriter
	pos  *PositionWriter
}

func newCopyWorker(dst GameWriter, opt *CopyOptions) *copyWorker {
	w := &copyWorker{opt: opt, bw: bufio.NewWriter(nil)}
	if opt.Replay != nil {
		rc := *opt.Replay
		rp := &opt.Replay.Replayer
		rc.Replayer = *rp.clone()
		w.rc = &rc
	}
	switch d := dst.(type) {
	case *Writer:
		w.pdn = &Writer{Width: d.Width, StarOnly: d.StarOnly, w: w.bw}
	case *JSONWriter:
		w.json = &JSONWriter{Positions: d.Positions, w: w.bw}
	case *PositionWriter:
		pw := NewPositionWriter(w.bw, "fen")
		if d.cw != nil {
			pw = NewPositionWriter(w.bw, "csv")
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
	w.bw.Reset(&b.out)
	for i := range b.games {
		c := &b.games[i]
		if c.state == copyPass {
			w.format(c, opt)
			w.bw.Flush()
		}
		c.g = nil
		c.end = b.out.Len()
	}
}

// format transforms, replays and formats one game.
func (w *copyWorker) format(c *copyGame, opt *CopyOptions) {
	g := c.g
	opt.Transform.Apply(g)
	var rg *Replayed
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
		c.werr = w.pdn.format(g)
	default:
		c.werr = w.json.Write(g)
	}
}
