package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/search"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// options are the finder's settings.
type options struct {
	variant                *engine.Variant
	shallow, deep          int
	win, gap, minPly, want int
	swing, window, pre     int
	maxNodes               int64
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("suitefind", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "english", "variant of the games kept")
	var o options
	fs.IntVar(&o.shallow, "shallow", 2, "plies of the shallow search (leaves evaluated statically), which must miss the move")
	fs.IntVar(&o.deep, "deep", 10, "plies of the deep search, which must find it")
	fs.IntVar(&o.win, "win", 100, "score of a winning move, hundredths of a man")
	fs.IntVar(&o.gap, "gap", 80, "how much less every other move must score")
	fs.IntVar(&o.minPly, "min-ply", 6, "first ply of a game looked at")
	fs.IntVar(&o.swing, "swing", 2, "pieces the side to move gains in the game within --window plies")
	fs.IntVar(&o.window, "window", 8, "plies after the position over which the gain is counted")
	fs.IntVar(&o.pre, "pre", 6, "plies of a first search that must already score --win (0: none)")
	fs.IntVar(&o.want, "count", 10, "positions wanted")
	fs.Int64Var(&o.maxNodes, "max-nodes", 0, "nodes of each search at most (0: no bound)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	v, err := engine.Lookup(*variant)
	if err != nil {
		fmt.Fprintln(stderr, "suitefind:", err)
		return 2
	}
	o.variant = v
	if fs.NArg() == 0 || o.shallow < 1 || o.deep <= o.shallow || o.deep > search.MaxDepth || o.want < 1 {
		fmt.Fprintln(stderr, "suitefind: want FILE..., 1 <= --shallow < --deep <=", search.MaxDepth, "and --count >= 1")
		return 2
	}
	f := &finder{o: o, s: search.New(v, nil, 64), out: stdout, log: stderr, rejected: map[string]int{}, seen: map[string]bool{}}
	for _, name := range fs.Args() {
		err := f.file(ctx, name)
		if errors.Is(err, errDone) {
			break
		}
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "suitefind:", ctx.Err())
			return 1
		}
		if err != nil { // a file that cannot be read: the next one
			fmt.Fprintln(stderr, "suitefind:", err)
		}
	}
	fmt.Fprintf(stderr, "suitefind: %d positions from %d games (%d searches); rejected: %v\n", f.found, f.games, f.searched, f.rejected)
	return 0
}

// errDone stops the reading once enough positions are found.
var errDone = errors.New("done")

// finder holds the search and the counts.
type finder struct {
	o                      options
	s                      *search.Searcher
	out, log               io.Writer
	found, games, searched int
	// rejected counts the positions looked at by the test they failed
	rejected map[string]int
	// seen holds the positions looked at already (archives repeat games and openings)
	seen map[string]bool
}

// file reads one PDN file and looks at each game of the variant.
func (f *finder) file(ctx context.Context, name string) error {
	open := func() (*os.File, error) { return os.Open(name) }
	in, err := open()
	if err != nil {
		return err
	}
	inf, err := pdn.InferVariant(ctx, in, pdn.ReaderOptions{})
	in.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if in, err = open(); err != nil {
		return err
	}
	defer in.Close()
	gr, err := pdn.NewGameReader(in, pdn.ReaderOptions{})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	rp := &pdn.Replayer{Inferred: inf, NoVariations: true}
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		g, err := gr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			continue // a game that cannot be read: the next one
		}
		r, err := rp.Replay(g)
		if err != nil || r.Variant != f.o.variant {
			continue
		}
		f.games++
		if f.games%100 == 0 {
			fmt.Fprintf(f.log, "suitefind: %d games, %d searches, %d found; rejected: %v\n", f.games, f.searched, f.found, f.rejected)
		}
		if err := f.game(ctx, corpusPath(name), n, g, r); err != nil {
			return err
		}
	}
}

// game looks at the positions of one game, and writes the first that qualifies.
func (f *finder) game(ctx context.Context, file string, n int, g *pdn.Game, r *pdn.Replayed) error {
	v := f.o.variant
	pos := r.Positions()
	for ply := f.o.minPly; ply < len(pos)-1; ply++ {
		p := pos[ply]
		fen := v.FEN(p)
		if f.seen[fen] {
			continue
		}
		f.seen[fen] = true
		if f.o.swing > 0 {
			if ply+f.o.window >= len(pos) {
				break
			}
			if after := balance(&pos[ply+f.o.window], p.Side); after < 1 || after-balance(&p, p.Side) < f.o.swing {
				continue
			}
		}
		best, score, ok := f.shot(ctx, p)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !ok {
			continue
		}
		f.found++
		src := fmt.Sprintf("%s game %d, before ply %d (%s - %s, %s, %s)", file, n, ply+1,
			g.Get("White"), g.Get("Black"), g.Get("Event"), g.Get("Date"))
		src = strings.ReplaceAll(src, `"`, "'")
		fmt.Fprintf(f.out, "%s bm %s; id \"shot-%s-%d\"; c0 \"%s\"; ce %d; acd %d;\n",
			v.FEN(p), v.FormatMove(&p, best, false), v.Name, f.found, src, score, f.o.deep)
		fmt.Fprintf(f.log, "suitefind: %d: %s\n", f.found, src)
		if f.found >= f.o.want {
			return errDone
		}
		return nil
	}
	return nil
}

// corpusPath is name from the shared corpus's root on ("../shared/pdn/corpus/x/y.pdn" is
// "x/y.pdn"), or as given when it is not in the corpus.
func corpusPath(name string) string {
	slashed := filepath.ToSlash(name)
	if _, rest, ok := strings.Cut(slashed, "pdn/corpus/"); ok {
		return rest
	}
	return slashed
}

// balance is side's pieces less the opponent's in p, a king counting as a man.
func balance(p *engine.Position, side engine.Color) int {
	m := p.Material()
	return m.Men[side] + m.Kings[side] - m.Men[side.Other()] - m.Kings[side.Other()]
}

// search searches g's position to depth plies with empty tables, following captures at the
// leaves unless static is set.
func (f *finder) search(ctx context.Context, g *engine.Game, depth int, static bool) search.Result {
	f.s.Clear()
	f.searched++
	return f.s.Search(ctx, g, search.Limits{Depth: depth, Nodes: f.o.maxNodes, NoQuiescence: static})
}

// shot reports whether p has a single winning move that the shallow search misses.
func (f *finder) shot(ctx context.Context, p engine.Position) (engine.Move, int, bool) {
	g := engine.NewGame(f.o.variant, p)
	legal := g.Legal()
	reject := func(why string) (engine.Move, int, bool) {
		f.rejected[why]++
		return engine.Move{}, 0, false
	}
	if len(legal) < 2 {
		return reject("one move")
	}
	if slices.ContainsFunc(legal, engine.Move.IsCapture) {
		return reject("a capture to make")
	}
	if f.o.pre > 0 && f.search(ctx, g, f.o.pre, false).Score < f.o.win {
		return reject("not winning at --pre")
	}
	deep := f.search(ctx, g, f.o.deep, false)
	if deep.Depth < f.o.deep || deep.Score < f.o.win {
		return reject("not winning")
	}
	if f.search(ctx, g, f.o.shallow, true).Move == deep.Move {
		return reject("shallow finds")
	}
	for _, m := range legal {
		if m == deep.Move {
			continue
		}
		q := engine.NewGame(f.o.variant, p)
		if err := q.Play(m); err != nil {
			panic(err) // a legal move
		}
		if len(q.Legal()) == 0 {
			return reject("another move wins")
		}
		r := f.search(ctx, q, f.o.deep-1, false)
		if s := -r.Score; r.Depth < f.o.deep-1 || s >= f.o.win || s > deep.Score-f.o.gap {
			return reject("another move wins")
		}
	}
	return deep.Move, deep.Score, true
}
