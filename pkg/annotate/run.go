package annotate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/pdn"
)

// Record is the analysis of one game: what a Run hands on, a Journal keeps, and a shard
// file holds.
type Record struct {
	// Index is the game's number over all the inputs, from 0; File and Game its input and
	// number there, from 1.
	Index int    `json:"index"`
	File  string `json:"file"`
	Game  int    `json:"game"`
	// Errors are the game's read and replay errors, as the pdn commands print them.
	Errors []string `json:"errors,omitempty"`
	// Skipped is set for a game with errors that the run left out (RunOptions.SkipBad).
	Skipped bool `json:"skipped,omitempty"`
	// PDN is the annotated game as pdn.Writer.Format writes it (empty when skipped).
	PDN string `json:"pdn,omitempty"`
	// Summary is the analysis' summary (nil when nothing was analysed).
	Summary *Game `json:"summary,omitempty"`
	// Positions is the number of positions of the game's main line as read (its plies and
	// the start), what a progress count takes the game to hold.
	Positions int `json:"positions"`
}

// Bad reports whether the game had errors.
func (r *Record) Bad() bool { return len(r.Errors) > 0 }

// RunOptions configure Run.
type RunOptions struct {
	Options
	// Analyser makes the analyser of each worker.
	Analyser Factory
	// Workers is the number of games analysed at once (at least 1).
	Workers int
	// Replayer replays the games (each worker a clone): its Default variant, strictness.
	Replayer pdn.Replayer
	// SkipBad leaves out the games read or replayed with an error, or of a variant rafle
	// does not play; without it they are analysed as far as they replay and written.
	SkipBad bool
	// Select, if set, says which games (by Index) the run takes: a shard's.
	Select func(index int) bool
	// Recorded are the games an earlier run analysed (a journal's), by Index: they are
	// handed on as they are, not analysed again.
	Recorded map[int]*Record
	// Emit is called with every game's record, in Index order, from one goroutine; fresh
	// is false for a record of Recorded. An error stops the run.
	Emit func(r *Record, fresh bool) error
}

// Run analyses the games of job, Workers at a time, and hands their records to Emit in
// input order. It returns the number of games the inputs hold (read to the end, or to
// where the run stopped), and the first error: Emit's, an analyser's, ctx's, or the
// job's input errors (archive.InputErrors: the other inputs were read). The inputs are read
// in one goroutine (reading is a small part of the work).
func Run(ctx context.Context, job archive.Job, opt RunOptions) (games int, err error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	workers := max(opt.Workers, 1)
	job.Jobs, job.Select = 1, nil // games stay valid after Each's callback

	type task struct {
		rec   *Record
		in    *archive.Input
		g     *pdn.Game
		gerr  error
		fresh bool
		done  chan struct{}
	}
	tasks := make(chan *task, workers)
	order := make(chan *task, 4*workers) // the tasks in Index order, for the emitter
	var wg sync.WaitGroup
	var werr error
	var once sync.Once
	fail := func(err error) {
		once.Do(func() { werr = err })
		cancel(err)
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, err := opt.Analyser()
			if err != nil {
				fail(err)
				for t := range tasks {
					close(t.done)
				}
				return
			}
			defer a.Close()
			rp := opt.Replayer.Clone()
			for t := range tasks {
				if ctx.Err() == nil {
					if err := analyse(ctx, a, rp, t.rec, t.in, t.g, t.gerr, &opt); err != nil {
						fail(err)
					}
				}
				close(t.done)
			}
		}()
	}
	emitted := make(chan struct{})
	go func() {
		defer close(emitted)
		for t := range order {
			select {
			case <-t.done:
			case <-ctx.Done(): // the task may never be analysed: not waited for
			}
			if ctx.Err() != nil {
				continue
			}
			if err := opt.Emit(t.rec, t.fresh); err != nil {
				fail(err)
			}
		}
	}()
	rerr := job.Each(ctx, func(in *archive.Input, n int, g *pdn.Game, gerr error) error {
		i := games
		games++
		if opt.Select != nil && !opt.Select(i) {
			return nil
		}
		if r, ok := opt.Recorded[i]; ok {
			t := &task{rec: r, done: make(chan struct{})}
			close(t.done)
			return send(ctx, order, t)
		}
		t := &task{rec: &Record{Index: i, File: in.Name, Game: n, Positions: g.Plies() + 1}, in: in, g: g, gerr: gerr, fresh: true, done: make(chan struct{})}
		if err := send(ctx, order, t); err != nil {
			return err
		}
		if err := send(ctx, tasks, t); err != nil {
			close(t.done) // in order, never to be analysed
			return err
		}
		return nil
	})
	close(tasks)
	wg.Wait()
	close(order)
	<-emitted
	if werr != nil {
		return games, werr
	}
	if rerr != nil {
		return games, rerr
	}
	return games, context.Cause(ctx)
}

// send puts t on c unless ctx ends first.
func send[T any](ctx context.Context, c chan<- T, t T) error {
	select {
	case c <- t:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// analyse fills rec with the analysis of g, game n of in, read with the error gerr.
func analyse(ctx context.Context, a Analyser, rp *pdn.Replayer, rec *Record, in *archive.Input, g *pdn.Game, gerr error, opt *RunOptions) error {
	if gerr != nil {
		rec.Errors = append(rec.Errors, (&archive.InputError{Name: in.Name, Err: gerr}).Error())
	}
	rp.Inferred = in.Inferred
	res, rerr := rp.Replay(g)
	var re *pdn.ReplayError
	switch {
	case errors.As(rerr, &re):
		re.File, re.Game = in.Name, rec.Game
		if gerr == nil {
			rec.Errors = append(rec.Errors, re.Error())
		}
	case rerr != nil:
		return rerr
	}
	if res.Variant == nil && gerr == nil && rerr == nil {
		rec.Errors = append(rec.Errors, fmt.Sprintf("annotate: %s: game %d: GameType %q: a variant rafle does not play", in.Name, rec.Game, g.Get("GameType")))
	}
	if rec.Bad() && opt.SkipBad {
		rec.Skipped = true
		return nil
	}
	if res.Variant != nil {
		an, err := AnalyseGame(ctx, a, res, opt.Options)
		if err != nil {
			return fmt.Errorf("%s: game %d: %w", in.Name, rec.Game, err)
		}
		rec.Summary = Summarize(in.Name, rec.Game, g, res, an)
		if err := Annotate(g, res, an); err != nil {
			return fmt.Errorf("%s: game %d: %w", in.Name, rec.Game, err)
		}
	}
	var b bytes.Buffer
	w := pdn.NewWriter(&b)
	err := w.Format(g)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		rec.Errors = append(rec.Errors, fmt.Sprintf("%s: game %d: %v", in.Name, rec.Game, err))
		rec.Skipped = true
		return nil
	}
	rec.PDN = b.String()
	return nil
}
