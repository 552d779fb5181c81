package archive

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/rafle/rafle/pkg/pdn"
)

// validateReplay reads the inputs in order (in one goroutine, or in
// pieces with Job.pieces when opt.Jobs > 1), replays batches of games in
// opt.Jobs goroutines, and merges the results in input order. In pieces,
// without Job.Select or opt.game, the goroutine that reads a piece
// replays it too, once its input's inference is known: the games do not
// go from one core's caches to another's, and only the results wait for
// the merger.
//
// With opt.Infer, an input whose variant must be inferred is not scanned
// twice (Job.InferVariants, then the replay): its games are replayed with
// a guess, the inference from its first guessBytes, while an Evidence of
// all its games is gathered (see speculation). When the input ends, the
// results are reported if the inference from all its games is the guess;
// otherwise they are dropped and the input is validated again with that
// inference. So the results are those of InferVariants and Validate.
//
// The stages, each a method of validation: read (readPieces or
// readInOrder) sends batches to work, or, replayed as they were read, to
// done; replayWorkers replay the batches of work into done; reportInOrder
// reports the results of done in input order.
func validateReplay(ctx context.Context, job Job, opt ValidateOptions) ([]*Summary, error) {
	v := newValidation(ctx, job, opt)
	if v.jobs > 1 {
		v.beginInBackground()
		if opt.game == nil && job.Select == nil {
			v.replayWhileReading()
		}
	}
	go v.read()
	v.replayWorkers()
	v.reportInOrder()
	return v.sums, validateError(ctx, v.sums, v.errs, nil)
}

// validation is the state of one validateReplay: what is known of each
// input, and the channels between the stages.
type validation struct {
	ctx  context.Context
	job  Job
	opt  ValidateOptions
	jobs int

	sums  []*Summary // by input
	errs  []error    // by input
	specs []*speculation
	// infs[i] is what input i's games without a GameType tag are replayed
	// with: its Inferred, or its guess (set by begin before its games are
	// sent)
	infs []*pdn.Inference
	// ready[i] is closed once begin(i) is done (jobs > 1; see
	// beginInBackground)
	ready []chan struct{}
	begun sync.WaitGroup

	work   chan *gameBatch // read, to be replayed (replayWorkers)
	done   chan *gameBatch // replayed, to be reported (reportInOrder)
	tokens chan struct{}   // batches in flight
	// free holds the arenas given back: the games of a batch are read
	// into an arena that the worker gives back when it has replayed them.
	free chan *pdn.Arena

	sel selector
	seq int // the number of the next batch (of the reading goroutine)
}

// newValidation makes the state and the channels of a validateReplay.
func newValidation(ctx context.Context, job Job, opt ValidateOptions) *validation {
	jobs := max(opt.Jobs, 1)
	v := &validation{ctx: ctx, job: job, opt: opt, jobs: jobs,
		sums:  make([]*Summary, len(job.Inputs)),
		errs:  make([]error, len(job.Inputs)),
		specs: make([]*speculation, len(job.Inputs)),
		infs:  make([]*pdn.Inference, len(job.Inputs)),
		sel:   selector{sel: job.Select},
	}
	for i := range job.Inputs {
		v.infs[i] = job.Inputs[i].Inferred
		v.sums[i] = newSummary(job.Inputs[i].Name)
		v.sums[i].Variants = map[string]int{}
	}
	// With jobs > 1 the pieces' pipeline holds the games read ahead: a
	// piece waits there, not in work, for a worker, so that its arena is
	// one fewer in use.
	workCap := jobs
	if jobs > 1 {
		workCap = 0
	}
	v.work = make(chan *gameBatch, workCap)
	v.done = make(chan *gameBatch, jobs)
	v.tokens = make(chan struct{}, 4*jobs)
	// at most 4*jobs+1 arenas are in use (the batches in flight and the
	// one being filled)
	v.free = make(chan *pdn.Arena, 4*jobs+2)
	return v
}

// getArena returns an arena given back, or a new one.
func (v *validation) getArena() *pdn.Arena {
	select {
	case a := <-v.free:
		a.Reset()
		return a
	default:
		return &pdn.Arena{}
	}
}

// begin prepares input i for reading: its inference, or speculation.
func (v *validation) begin(i int) {
	if v.opt.Infer && v.opt.Replay.Default == nil && v.infs[i] == nil && v.ctx.Err() == nil {
		v.specs[i], v.infs[i] = speculate(v.ctx, &v.job.Inputs[i], v.job.Reader)
	}
}

// beginInBackground (jobs > 1) runs begin(i) in a goroutine of its own
// from the moment the pieces' splitter opens input i, while the input's
// first pieces are read, and closes ready[i] when it is done; one at a
// time (the splitter may open several small inputs at once), so that no
// more memory than for one is used.
func (v *validation) beginInBackground() {
	v.ready = make([]chan struct{}, len(v.job.Inputs))
	for i := range v.ready {
		v.ready[i] = make(chan struct{})
	}
	var one sync.Mutex
	v.job.onInput = func(i int) {
		v.begun.Go(func() {
			one.Lock()
			v.begin(i)
			one.Unlock()
			close(v.ready[i])
		})
	}
}

// replay replays the games of b with rp (nothing when ctx is done, b
// ends an input, or the input's speculation was given up), and
// gathers the evidence of a speculating input's games.
func (v *validation) replay(rp *replayer, b *gameBatch) {
	sp := v.specs[b.input]
	if sp != nil && !b.end && v.ctx.Err() == nil {
		b.ev = new(pdn.Evidence) // of every game, Select or not
		for _, g := range b.games {
			b.ev.Add(g)
		}
	}
	if v.ctx.Err() != nil || b.end || sp != nil && sp.dropped.Load() {
		return
	}
	name := v.job.Inputs[b.input].Name
	rp.Inferred = v.infs[b.input] // set before the input's first batch was sent
	b.startReplay(name, false, v.opt.stats != nil)
	for k, g := range b.games {
		if b.skip == nil || !b.skip[k] {
			b.replay(rp, name, b.first+k, g, b.gerrs[k], v.job.Reader.Strict, &v.opt)
		}
	}
}

// replayWhileReading (jobs > 1, without Job.Select or opt.game) makes
// the goroutine that reads a piece replay its games at once, while they
// are in its core's caches, once the variant of their input is known; it
// keeps only the results, with game numbers from 1, and the games' arena
// is its next piece's. A piece waiting for the merger then holds its
// text and results, not its games, so more may wait: a reading goroutine
// held up (a long piece, a core taken by another process) does not hold
// up the others.
func (v *validation) replayWhileReading() {
	v.job.readAhead = 4 * v.jobs
	// unready counts the pieces handed on with their games, for a
	// worker to replay, because the inference of their input was not
	// known yet: a few at the start of the job (while the first
	// input's is made), then the readers wait for it, so that not
	// many arenas are held, even with many small inputs.
	var unready atomic.Int32
	// known waits for the inference of input, unless a few pieces
	// may still be handed on: it reports whether it is known.
	known := func(input int) bool {
		select {
		case <-v.ready[input]:
		default:
			if unready.Add(1) <= int32(inFlight(v.jobs)) {
				return false
			}
			<-v.ready[input]
		}
		return true
	}
	v.job.pieceWork = func() pieceWorker {
		rp := newReplayer(v.opt.Replay)
		rp.CountOnly = v.opt.egdb == nil // the endgame database needs the positions
		var ok bool                      // the inference of the item's input is known
		var sb *gameBatch                // the results of the item replayed as it is read
		var n int                        // the number in the item of the game read
		return pieceWorker{
			// The games are replayed as they are read (see
			// pdn.Reader.SetReplayer) unless stats want them whole.
			stream: func(input int) *pdn.Replayer {
				ok, sb, n = known(input), nil, 0
				sp := v.specs[input]
				if !ok || v.opt.stats != nil || v.ctx.Err() != nil || sp != nil && sp.dropped.Load() {
					return nil
				}
				rp.Inferred = v.infs[input]
				sb = &gameBatch{input: input, first: 1}
				sb.startReplay(v.job.Inputs[input].Name, sp != nil, false)
				return rp.Replayer
			},
			game: func(g *pdn.Game, gerr error) {
				n++
				if sb.ev != nil {
					sb.ev.Add(g) // (of every game)
				}
				sb.replay(rp, v.job.Inputs[sb.input].Name, n, g, gerr, v.job.Reader.Strict, &v.opt)
			},
			done: func(input, _ int, games []*pdn.Game, gerrs []error) (any, bool) {
				if sb != nil {
					b := sb
					sb = nil
					return b, false
				}
				if !ok {
					return nil, true
				}
				b := &gameBatch{input: input, first: 1, games: games, gerrs: gerrs}
				v.replay(rp, b)
				b.games, b.gerrs = nil, nil
				return b, false
			},
		}
	}
}

// end sends the end of a speculating input i after its games.
func (v *validation) end(i int) {
	if v.ready != nil {
		<-v.ready[i]
	}
	if v.specs[i] != nil {
		v.tokens <- struct{}{}
		v.work <- &gameBatch{seq: v.seq, input: i, end: true}
		v.seq++
	}
}

// read is the reading stage, in its own goroutine: it closes work when
// the inputs are read.
func (v *validation) read() {
	defer close(v.work)
	if v.jobs > 1 {
		v.readPieces()
		return
	}
	v.readInOrder()
}

// readPieces reads the inputs in pieces, in parallel: one batch per
// piece, sent to done if it was replayed as it was read, else to work.
func (v *validation) readPieces() {
	cur := -1
	v.job.pieces(v.ctx, v.jobs, true, func(p *piece) error {
		if p.input != cur {
			cur = p.input
			<-v.ready[cur]
		}
		if b, ok := p.made.(*gameBatch); ok {
			// Replayed as it was read: number its games.
			if v.opt.inReader != nil {
				v.opt.inReader()
			}
			b.seq, b.first = v.seq, p.first
			for k := range b.probs {
				b.probs[k].Game += p.first - 1
			}
			if b.stats != nil {
				for k := range b.stats.egdb.games {
					b.stats.egdb.games[k].Game += p.first - 1
				}
			}
			v.seq++
			v.tokens <- struct{}{}
			v.done <- b
			return nil
		}
		if v.opt.game != nil {
			for k, g := range p.games {
				v.opt.game(g, p.gerrs[k])
			}
		}
		skip := v.sel.skips(nil, len(p.games))
		if sp := v.specs[p.input]; sp != nil && skip != nil {
			sp.skips = append(sp.skips, skip...)
		}
		v.tokens <- struct{}{}
		v.work <- &gameBatch{seq: v.seq, input: p.input, first: p.first, games: p.games, gerrs: p.gerrs, piece: p,
			skip: skip}
		v.seq++
		return nil
	}, func(i int, err error) error {
		v.errs[i] = err
		v.end(i)
		return nil
	})
	v.begun.Wait()
}

// readInOrder reads the inputs one after the other in this goroutine, in
// batches of batchSize games. The games are replayed as they are read,
// by this goroutine, rather than built and replayed by a worker (see
// pdn.Reader.SetReplayer), unless each game is wanted whole (opt.stats,
// opt.game).
func (v *validation) readInOrder() {
	total := v.job.total()
	var before int64
	var rp *replayer
	if v.opt.stats == nil && v.opt.game == nil {
		rp = newReplayer(v.opt.Replay)
		rp.CountOnly = true
	}
	for i := range v.job.Inputs {
		if v.ctx.Err() != nil {
			return
		}
		v.begin(i)
		n, err := v.readInput(i, rp, before, total)
		before += n
		v.errs[i] = err
		v.end(i)
	}
}

// readInput reads input i (readInOrder), whose first byte is the
// before-th of the total of the inputs, and replays its games with rp if
// not nil: it sends its batches, and returns the bytes read.
func (v *validation) readInput(i int, rp *replayer, before, total int64) (int64, error) {
	in := &v.job.Inputs[i]
	var b *gameBatch
	var rd *pdn.Reader // the PDN reader of this input, if any
	var ar *pdn.Arena  // the arena rd reads into: the next batch's
	games := 0         // in b
	send := func() {
		if b != nil && games > 0 {
			if rp != nil {
				v.done <- b // (replayed as it was read)
			} else {
				v.work <- b
			}
			v.seq++
			switch {
			case rd == nil:
			case rp != nil:
				ar.Reset() // (the games are done with)
			default:
				ar = v.getArena()
				rd.SetArena(ar)
			}
		}
		b, games = nil, 0
	}
	sub := Job{Reader: v.job.Reader, Progress: v.job.Progress, onReader: func(r *pdn.Reader) {
		rd, ar = r, v.getArena()
		r.SetArena(ar)
		if rp != nil {
			r.SetReplayer(rp.Replayer)
		}
	}}
	if rp != nil {
		rp.Inferred = v.infs[i] // (set by begin)
	}
	n, err := sub.eachInput(v.ctx, in, before, total, func(in *Input, n int, g *pdn.Game, gerr error) error {
		if v.opt.game != nil {
			v.opt.game(g, gerr)
		}
		if b == nil {
			v.tokens <- struct{}{}
			b = &gameBatch{seq: v.seq, input: i, first: n}
			if rp == nil {
				b.games, b.gerrs, b.arena = make([]*pdn.Game, 0, batchSize), make([]error, 0, batchSize), ar
			} else {
				b.startReplay(in.Name, v.specs[i] != nil, false)
			}
		}
		games++
		skip := false
		if v.job.Select != nil {
			b.skip = v.sel.skips(b.skip, 1)
			skip = b.skip[len(b.skip)-1]
			if sp := v.specs[i]; sp != nil {
				sp.skips = append(sp.skips, skip)
			}
		}
		if rp != nil {
			if b.ev != nil {
				b.ev.Add(g) // (of every game, Select or not)
			}
			if !skip {
				b.replay(rp, in.Name, n, g, gerr, v.job.Reader.Strict, &v.opt)
			}
		} else {
			b.games = append(b.games, g)
			b.gerrs = append(b.gerrs, gerr)
		}
		if games == batchSize {
			send()
		}
		return nil
	})
	if b != nil && games == 0 {
		<-v.tokens
		b = nil
	}
	send()
	return n, err
}

// replayWorkers starts jobs goroutines that replay the batches of work
// and send them to done, which is closed when work is drained.
func (v *validation) replayWorkers() {
	var wg sync.WaitGroup
	for range v.jobs {
		wg.Go(func() {
			rp := newReplayer(v.opt.Replay)
			rp.CountOnly = v.opt.egdb == nil // the verdict is all validation needs, not the database
			for b := range v.work {
				v.replay(rp, b)
				b.games, b.gerrs = nil, nil
				if b.piece != nil {
					b.piece.release()
				}
				if b.arena != nil {
					select {
					case v.free <- b.arena:
					default:
					}
					b.arena = nil
				}
				v.done <- b
			}
		})
	}
	go func() {
		wg.Wait()
		close(v.done)
	}()
}

// report reports the results of one batch, or of an input validated
// again.
func (v *validation) report(i int, sum *Summary, st *Stats, probs []Problem) {
	if sum == nil {
		return // nothing held
	}
	v.sums[i].Add(sum)
	if st != nil {
		v.opt.stats.merge(st)
	}
	if v.opt.Problem != nil {
		for _, p := range probs {
			v.opt.Problem(p)
		}
	}
}

// reportInOrder reports the batches of done in the order they were
// read, until done is closed. A speculating input's results are held
// until its end, then reported, or dropped and the input validated
// again.
func (v *validation) reportInOrder() {
	pending := map[int]*gameBatch{}
	next := 0
	for b := range v.done {
		pending[b.seq] = b
		for {
			b, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-v.tokens
			if v.ctx.Err() != nil {
				continue // stopped: what is not reported yet is dropped
			}
			sp := v.specs[b.input]
			switch {
			case sp == nil:
				v.report(b.input, b.sum, b.stats, b.probs)
			case !b.end:
				sp.ev.Merge(b.ev)
				sp.hold(b, v.opt.stats != nil)
			case sp.held():
				v.report(b.input, sp.sum, sp.stats, sp.probs)
			default:
				// The guess was wrong, or too much was held: validate
				// the input again with the inference from all its games.
				sum, st := sp.again(v.ctx, v.job, v.opt)
				v.report(b.input, sum, st, nil)
			}
		}
	}
}
