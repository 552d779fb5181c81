package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"sync"
)

// The stages of Run: openOutputs (the PDN file and the journal, with the games it
// recovers), a gameWriter (the games written in game order), playGames (the games played
// in cfg.Concurrency goroutines) and collect (each result journaled, written and counted).

// openOutputs opens the match's PDN file and journal, as cfg asks (either may be nil),
// and returns the records the journal recovers, checked (checkRecords). On an error
// nothing is left open, and a journal this run created with only its header is removed.
func openOutputs(cfg *Config, sched *schedule) (pf *pdnFile, jnl *journal, recovered []Record, err error) {
	if cfg.PDNPath != "" {
		if pf, err = openPDN(cfg.PDNPath); err != nil {
			return nil, nil, nil, err
		}
	}
	fail := func(err error) (*pdnFile, *journal, []Record, error) {
		if pf != nil {
			pf.discard()
		}
		return nil, nil, nil, err
	}
	if cfg.JournalPath == "" {
		if pf != nil {
			if err := pf.own(cfg.Resume, "", 0); err != nil {
				return fail(err)
			}
		}
		return pf, nil, nil, nil
	}
	_, statErr := os.Lstat(cfg.JournalPath)
	newJournal := errors.Is(statErr, fs.ErrNotExist)
	jnl, recovered, err = openJournal(cfg.JournalPath, cfg.header(), cfg.Resume)
	if err == nil {
		if err = checkRecords(cfg, sched, recovered); err != nil {
			jnl.close()
		}
	}
	if err == nil && pf != nil {
		if err = pf.own(cfg.Resume, cfg.JournalPath, len(recovered)); err != nil {
			jnl.close()
			if newJournal {
				os.Remove(cfg.JournalPath) // it holds only the header this run wrote
			}
		}
	}
	if err != nil {
		return fail(err)
	}
	return pf, jnl, recovered, nil
}

// gameWriter writes the games of a match to its PDN file in game order: a game that
// finishes before an earlier one waits in pending. What still waits at the end (after an
// interruption or an SPRT decision) is written then, in order (close); a resumed match
// rewrites the file from the journal. Without a PDN file it writes nothing.
type gameWriter struct {
	cfg     *Config
	all     int // the games of the match
	file    *os.File
	w       *bufio.Writer
	pending map[int]*Record
	next    int // the next game to write
}

// newGameWriter returns the writer of the games to pf (nil: none).
func newGameWriter(cfg *Config, all int, pf *pdnFile) *gameWriter {
	g := &gameWriter{cfg: cfg, all: all, pending: map[int]*Record{}}
	if pf != nil {
		g.file = pf.f
		g.w = bufio.NewWriter(pf.f)
	}
	return g
}

func (g *gameWriter) writeGame(r *Record) error {
	return WritePDN(g.w, g.cfg.Variant, r, g.cfg.Event, g.cfg.Site)
}

// write writes r, after the games before it of the shard, or keeps it until they are
// written.
func (g *gameWriter) write(r *Record) error {
	if g.w == nil {
		return nil
	}
	g.pending[r.Game] = r
	for ; g.next < g.all; g.next++ {
		if !hasGame(g.cfg.Shard, g.next) {
			continue
		}
		r := g.pending[g.next]
		if r == nil {
			break
		}
		if err := g.writeGame(r); err != nil {
			return err
		}
		delete(g.pending, g.next)
	}
	if err := g.w.Flush(); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return nil
}

// close writes the games still pending, in game order, and closes the file.
func (g *gameWriter) close() error {
	if g.w == nil {
		return nil
	}
	for _, i := range slices.Sorted(maps.Keys(g.pending)) {
		if err := g.writeGame(g.pending[i]); err != nil {
			return err
		}
	}
	if err := g.w.Flush(); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	if err := g.file.Close(); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return nil
}

// outcome is the result of one game played: its record, or the error that ended it.
type outcome struct {
	rec *Record
	err error
}

// playGames plays the games of the shard before hi not done yet (unless agg has decided already)
// in cfg.Concurrency goroutines, until ctx is done, and sends their outcomes, in the order
// they finish, on the channel it returns, which it closes at the end. Its reader must
// drain it.
func playGames(ctx context.Context, cfg *Config, sched *schedule, agg *aggregator, done []bool, hi int) <-chan outcome {
	jobs := make(chan int)
	results := make(chan outcome)
	var wg sync.WaitGroup
	for range cfg.Concurrency {
		wg.Go(func() {
			seats := seats{}
			defer seats.close()
			for i := range jobs {
				rec, err := play(ctx, cfg, sched.game(i), seats)
				results <- outcome{rec, err} // the collector drains results until they close
			}
		})
	}
	go func() {
		defer close(jobs)
		if agg.decided() {
			return
		}
		for i := range done[:hi] {
			if done[i] || !hasGame(cfg.Shard, i) {
				continue
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	return results
}

// collect journals, writes and counts each game of results as it comes, from finished
// games done on, and calls cancel (of ctx, the games' context) on the first error, which
// it returns (a game stopped because ctx is done is no error), or when agg decides the
// match. It drains results and
// returns the number of games finished.
func collect(ctx context.Context, cfg *Config, results <-chan outcome, cancel context.CancelFunc, jnl *journal, out *gameWriter, agg *aggregator, finished, total int) (int, error) {
	var runErr error
	for o := range results {
		if runErr != nil {
			continue
		}
		if o.err != nil {
			if ctx.Err() == nil || !errors.Is(o.err, context.Canceled) {
				runErr = o.err
			}
			cancel()
			continue
		}
		if jnl != nil {
			if err := jnl.append(o.rec); err != nil {
				runErr = err
				cancel()
				continue
			}
		}
		if err := out.write(o.rec); err != nil {
			runErr = err
			cancel()
			continue
		}
		agg.add(o.rec)
		finished++
		if cfg.Progress != nil {
			cfg.Progress(finished, total)
		}
		if agg.decided() {
			cancel()
		}
	}
	return finished, runErr
}
