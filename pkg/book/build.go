package book

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// DefaultMaxPly is the depth of a book built with MaxPly 0.
const DefaultMaxPly = 20

// BuildOptions configures Build.
type BuildOptions struct {
	// Variant is the book's variant, and the variant of the games without a GameType
	// tag. When nil, the book's variant is the first game's (as pdn.Replayer picks it:
	// its GameType tag, else its input's inferred variant, archive.Input.Inferred, which
	// archive.Job.InferVariants sets), and the games without a GameType tag have their
	// input's inferred variant.
	Variant *engine.Variant
	// MaxPly is the number of plies from the start of each game that go into the book
	// (0: DefaultMaxPly).
	MaxPly int
	// MinGames drops moves and positions met in fewer games (see Book.Prune).
	MinGames int
	// Jobs is the number of goroutines replaying games (0: GOMAXPROCS).
	Jobs int
	// Progress, if not nil, is called from time to time with the input bytes read so
	// far and their total (0 when unknown).
	Progress func(done, total int64)
	// Skipped, if not nil, is called for every game left out of the book because it
	// could not be read or replayed, with an error naming its input and number.
	Skipped func(err error)
}

// BuildStats counts what Build did with the games it read.
type BuildStats struct {
	// Read is the number of games read.
	Read int
	// Used is the number of games that went into the book.
	Used int
	// Bad is the number of games left out because they were read with an error or did
	// not replay (an illegal, ambiguous or unreadable move, or a bad FEN tag) within
	// the first MaxPly plies.
	Bad int
	// OtherVariant is the number of games left out because their GameType is not the
	// book's variant.
	OtherVariant int
	// NoResult is the number of games used without a known result.
	NoResult int
	// Collisions is the number of positions left out because another position had the
	// same hash.
	Collisions int
	// Positions is the number of positions before pruning.
	Positions int
	// FirstError is the first Bad game's error (in input order), or "".
	FirstError string
}

// item is one game on its way to a replay worker.
type item struct {
	seq      int
	input    string // its input's name
	n        int    // its number in the input
	game     *pdn.Game
	gerr     error
	inferred *pdn.Inference // the game's input's
	other    bool           // a GameType the engine does not play, before the book's variant is known
}

// replayed is one game's book contribution.
type replayed struct {
	seq    int
	err    error // bad game
	other  bool  // other variant
	first  float64
	result bool
	pos    []engine.Position
	moves  []engine.Move
}

// Build reads the games of job and returns the book of their first MaxPly plies, pruned
// to MinGames. A bad game is skipped and counted. An input that cannot be read (or holds
// no game) does not stop the others: Build returns the book of the rest with the inputs'
// errors (*archive.InputError, joined as archive.Job.Each joins them). It returns no book, and an
// error, when no game is of a variant the engine plays, on another error, or when ctx
// ends.
func Build(ctx context.Context, job archive.Job, opt BuildOptions) (*Book, BuildStats, error) {
	var st BuildStats
	maxPly := opt.MaxPly
	if maxPly <= 0 {
		maxPly = DefaultMaxPly
	}
	if opt.Progress != nil {
		job.Progress = opt.Progress
	}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	// v and b are set before the first game is sent to a worker (by the reader
	// goroutine when they come from a GameType tag); the channels order the accesses.
	v := opt.Variant
	var b *Book
	if v != nil {
		b = New(v)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	in := make(chan item, 4*jobs)
	out := make(chan replayed, 4*jobs)
	var readErr error
	setVariant := func(w *engine.Variant) { v, b = w, New(w) }

	// Reader: games in input order; the variant is settled before any game is sent
	// (games before it whose GameType the engine does not play are of another variant).
	go func() {
		defer close(in)
		seq := 0
		readErr = eachGame(ctx, job, func(input *archive.Input, n int, g *pdn.Game, gerr error) error {
			it := item{seq: seq, input: input.Name, n: n, game: g, gerr: gerr, inferred: input.Inferred}
			if v == nil {
				rp := pdn.Replayer{Inferred: input.Inferred}
				if w, err := rp.Variant(g); err == nil {
					setVariant(w)
				} else {
					it.other = true
				}
			}
			select {
			case in <- it:
			case <-ctx.Done():
				return ctx.Err()
			}
			seq++
			return nil
		})
	}()

	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rp := &pdn.Replayer{Default: opt.Variant, NoVariations: true}
			for it := range in {
				out <- replay(rp, b, it, maxPly)
			}
		}()
	}
	go func() { wg.Wait(); close(out) }()

	firstBad := -1
	for r := range out {
		st.Read++
		switch {
		case r.other:
			st.OtherVariant++
			continue
		case r.err != nil:
			st.Bad++
			if firstBad < 0 || r.seq < firstBad {
				firstBad, st.FirstError = r.seq, r.err.Error()
			}
			if opt.Skipped != nil {
				opt.Skipped(r.err)
			}
			continue
		}
		st.Used++
		b.Games++
		if !r.result {
			st.NoResult++
		}
		for i, p := range r.pos {
			e, err := b.entry(&p, i)
			if err != nil {
				st.Collisions++
				continue
			}
			m := e.move(r.moves[i])
			m.Games++
			if r.result {
				score := r.first
				if p.Side != v.FirstMover {
					score = 1 - score
				}
				switch score {
				case 1:
					m.Wins++
				case 0:
					m.Losses++
				default:
					m.Draws++
				}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	if _, inputs := archive.InputErrors(readErr); readErr != nil && !inputs {
		return nil, st, readErr
	}
	if b == nil {
		return nil, st, errors.Join(readErr, fmt.Errorf("book: no game of a variant the engine plays"))
	}
	b.MaxPly = maxPly
	st.Positions = b.Len()
	b.Prune(opt.MinGames)
	b.Sort()
	names := make([]string, len(job.Inputs))
	for i, in := range job.Inputs {
		names[i] = in.Name
	}
	b.Source = "pdn: " + strings.Join(names, " ")
	return b, st, readErr
}

// eachGame calls fn for every game of job in order (archive.Job.Each, which also reports
// progress), and stops when ctx is done. Errors of fn and of ctx come back as they are;
// reading errors are prefixed "book: ".
func eachGame(ctx context.Context, job archive.Job, fn func(in *archive.Input, n int, g *pdn.Game, gerr error) error) error {
	var fnErr error
	err := job.Each(ctx, func(in *archive.Input, n int, g *pdn.Game, gerr error) error {
		fnErr = fn(in, n, g, gerr)
		return fnErr
	})
	if _, inputs := archive.InputErrors(err); err != nil && err != fnErr && err != ctx.Err() && !inputs {
		return fmt.Errorf("book: %w", err)
	}
	return err
}

// replay replays the first maxPly moves of one game with rp (the book's variant as
// default, the game's input's inferred variant) for b.
func replay(rp *pdn.Replayer, b *Book, it item, maxPly int) replayed {
	r := replayed{seq: it.seq}
	g := it.game
	if it.gerr != nil {
		r.err = &archive.InputError{Name: it.input, Err: it.gerr}
		return r
	}
	rp.Inferred = it.inferred
	res, err := rp.Replay(g)
	if it.other || res.Variant != b.Variant {
		r.other = true
		return r
	}
	if err != nil && len(res.Plies) < maxPly {
		// The move that does not replay is within the book's plies.
		if re, ok := err.(*pdn.ReplayError); ok {
			re.File, re.Game = it.input, it.n
		}
		r.err = err
		return r
	}
	r.first, r.result = pdn.FirstMoverScore(g.GameResult())
	n := min(len(res.Plies), maxPly)
	for _, pl := range res.Plies[:n] {
		r.pos = append(r.pos, pl.Before)
		r.moves = append(r.moves, pl.Move)
	}
	return r
}
