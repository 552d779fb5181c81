package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/dxp"
	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/hub"
	"github.com/rafle/rafle/pkg/search"
)

// version is rafle's version as the protocols announce it.
const version = "0.3"

func engineCommand() *cli.Command {
	return &cli.Command{
		Name:  "engine",
		Usage: "play as an engine: Hub on stdin/stdout, or a DXP follower on a port",
		UsageText: "selfplay engine --proto hub [--player max|SPEC] [--variant V] [--egdb DIR]\n" +
			"   selfplay engine --proto dxp [--listen 127.0.0.1:27531] [--player max|SPEC] [--sessions N] [--egdb DIR]",
		Description: "With --proto hub, rafle speaks Scan's Hub protocol on stdin and stdout, so that Hub\n" +
			"GUIs and match runners (selfplay --engine itself) can play it; every variant rafle plays\n" +
			"is offered in the variant parameter (international as \"normal\"). The level the GUI\n" +
			"sends (depth, nodes, move time, clock) replaces the player's own limits; its threads\n" +
			"parameter (default the player's threads=, at most the CPUs) sets the threads that search.\n" +
			"With --proto dxp, rafle waits for DamExchange games (international draughts) on --listen,\n" +
			"loopback unless another address is given, as a follower: Moby Dam's matchmaker, Kingsrow\n" +
			"or selfplay --engine proto=dxp start the games. It stops on Ctrl-C or SIGTERM.\n" +
			"With --egdb, the player plays the positions the endgame database holds from it (the\n" +
			"shortest win, the longest loss, a drawing move) and scores those below the root with it;\n" +
			"the database is of --variant (dxp: international), and a Hub game of another variant is\n" +
			"played without it.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "proto", Value: "hub", Usage: "hub or dxp"},
			&cli.StringFlag{Name: "player", Value: "max", Usage: "the player: easy, medium, hard, max (rafle at its strongest: no depth cap, reductions) or a search spec such as depth=6"},
			&cli.StringFlag{Name: "variant", Aliases: []string{"v"}, Value: "international", Usage: "hub: the variant until the GUI sets one"},
			&cli.StringFlag{Name: "listen", Value: "127.0.0.1:27531", Usage: "dxp: the address to listen on"},
			&cli.IntFlag{Name: "sessions", Value: 1, Usage: "dxp: connections served at once"},
			&cli.StringFlag{Name: "transcript", Usage: "dxp: append every message to `FILE`"},
			egdbFlag("the endgame database in `DIR` (egdb build), of --variant (dxp: international)"),
		},
		Action:       serveEngine,
		OnUsageError: cliutil.OnUsageError,
	}
}

func serveEngine(c *cli.Context) error {
	if c.Args().Present() {
		return cliutil.Usagef("unexpected argument %q", c.Args().First())
	}
	ps, err := search.ParsePlayer(c.String("player"))
	if err != nil {
		return cliutil.UsageError{Err: err}
	}
	v, err := engine.Lookup(c.String("variant"))
	if err != nil {
		return cliutil.UsageError{Err: err}
	}
	proto := c.String("proto")
	if proto != "hub" && proto != "dxp" {
		return cliutil.Usagef("--proto %q: want hub or dxp", proto)
	}
	if proto == "dxp" {
		v = engine.MustLookup("international")
	}
	db, err := openEGDB(c, v)
	if err != nil {
		return err
	}
	if db != nil {
		defer db.Close()
		fmt.Fprintf(c.App.ErrWriter, "selfplay: endgame database %s: %s up to %d pieces\n", db.Dir(), v.Name, db.MaxPieces())
	}
	if proto == "hub" {
		return serveHub(c, ps, v, db)
	}
	ps.EGDB = db
	return serveDXP(c, ps)
}

// serveHub serves the Hub protocol; db, when not nil, is an endgame database of v, which
// the player of a game of v uses.
func serveHub(c *cli.Context, ps search.PlayerSpec, v *engine.Variant, db *egdb.DB) error {
	variants := []*engine.Variant{v}
	for _, name := range engine.Names() {
		if w := engine.MustLookup(name); w != v {
			variants = append(variants, w)
		}
	}
	// the threads parameter (as Scan's), the player's own until the GUI sets it, at most
	// the machine's CPUs
	threads := min(max(ps.Limits.Threads, 1), runtime.NumCPU())
	cfg := hub.ServerConfig{
		ID:       [][2]string{{"name", "rafle"}, {"version", version}, {"author", "the rafle authors"}},
		Variants: variants,
		Params: []hub.Param{{Name: "threads", Value: strconv.Itoa(threads), Type: "int", Min: "1",
			Max: strconv.Itoa(runtime.NumCPU())}},
		SetParam: func(name, value string) error {
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				return fmt.Errorf("%q: want a positive integer", value)
			}
			threads = min(n, runtime.NumCPU())
			return nil
		},
		New: func(w *engine.Variant) (hub.Searcher, error) {
			ps := ps
			ps.Limits.Threads = threads
			if w.Name == v.Name {
				ps.EGDB = db
			}
			p, err := newPlayer(ps, w)
			return hubPlayer{p}, err
		},
	}
	stdin, _ := c.Context.Value(stdinKey{}).(io.Reader)
	err := hub.Serve(c.Context, stdin, c.App.Writer, cfg)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func serveDXP(c *cli.Context, ps search.PlayerSpec) error {
	if err := cliutil.CheckJobs("--sessions", c.Int("sessions")); err != nil {
		return err
	}
	ln, err := dxp.Listen(c.String("listen"))
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "selfplay: DXP follower (%s) listening on %s\n", ps, ln.Addr())
	stderr := c.App.ErrWriter
	cfg := dxp.ServerConfig{Name: "rafle " + ps.String(), MaxSessions: c.Int("sessions"),
		// why a connection closed, a game refused or ended: the follower's log
		Notes: func(note string) { fmt.Fprintf(stderr, "selfplay: dxp %s\n", note) },
		New: func() (dxp.Searcher, error) {
			p, err := newPlayer(ps, engine.MustLookup("international"))
			return dxpPlayer{p}, err
		}}
	if path := c.String("transcript"); path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
		if err != nil {
			return err
		}
		defer f.Close()
		cfg.Transcript = f
	}
	err = dxp.Serve(c.Context, ln, cfg)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// player is rafle's player behind the protocol servers: its own limits, or the limits the
// other side sets.
type player struct {
	sp   *search.Player
	spec search.PlayerSpec
}

func newPlayer(ps search.PlayerSpec, v *engine.Variant) (*player, error) {
	p, err := ps.New(v, 1)
	if err != nil {
		return nil, err
	}
	return &player{sp: p, spec: ps}, nil
}

// NewGame clears the tables, as the match does for a player between games.
func (p *player) NewGame() { p.sp.Reset() }

// search searches within lim, or within the player's own limits (and with its random
// moves) when lim sets none.
func (p *player) search(ctx context.Context, g *engine.Game, lim search.Limits) (search.Result, error) {
	if lim.Depth == 0 && lim.Nodes == 0 && lim.MoveTime == 0 {
		return p.sp.Choose(ctx, g)
	}
	lim.NoQuiescence = p.spec.Limits.NoQuiescence
	lim.FullWidth = p.spec.Limits.FullWidth
	lim.Threads = p.spec.Limits.Threads
	return p.sp.Searcher().Search(ctx, g, lim), nil
}

// hubPlayer plays for a Hub GUI.
type hubPlayer struct{ *player }

// Think searches within the level the GUI set.
func (p hubPlayer) Think(ctx context.Context, g *engine.Game, lvl hub.Level, info func(hub.Info)) (engine.Move, error) {
	lim := search.Limits{Depth: lvl.Depth, Nodes: lvl.Nodes, MoveTime: lvl.MoveTime}
	if lvl.Time > 0 || lvl.Inc > 0 {
		lim.MoveTime = budget(lvl.Time, lvl.Inc, lvl.Moves)
	}
	res, err := p.search(ctx, g, lim)
	if err != nil {
		return engine.Move{}, err
	}
	if !res.Random {
		info(hubInfo(g, res))
	}
	return res.Move, nil
}

// dxpPlayer plays for a DXP initiator, which gives only the game's clock: the player's
// own limits when they are fixed (depth, nodes), else a share of the clock.
type dxpPlayer struct{ *player }

// Think searches within the player's limits or the clock.
func (p dxpPlayer) Think(ctx context.Context, g *engine.Game, remaining time.Duration, movesToGo int) (engine.Move, error) {
	var lim search.Limits
	if p.spec.Limits.MoveTime > 0 && remaining > 0 {
		lim = p.spec.Limits
		lim.MoveTime = min(lim.MoveTime, budget(remaining, 0, movesToGo))
	}
	res, err := p.search(ctx, g, lim)
	return res.Move, err
}

// hubInfo is the Hub info line of a search.
func hubInfo(g *engine.Game, res search.Result) hub.Info {
	v := g.Variant()
	p := g.Position()
	var pv []string
	for _, m := range res.PV {
		pv = append(pv, hub.FormatMove(v, &p, m))
		p = p.Play(m)
	}
	return hub.Info{Depth: res.Depth, Score: float64(res.Score) / 100, HasScore: true, Nodes: res.Nodes,
		PV: strings.Join(pv, " "), Time: res.Elapsed}
}

// budget is the time for one move with remaining on the clock, inc added after each move
// and movesToGo moves to the next control (0: the rest of the game, taken as 30 moves): an
// even share plus most of the increment, never more than a third of the clock.
func budget(remaining, inc time.Duration, movesToGo int) time.Duration {
	moves := movesToGo
	if moves <= 0 {
		moves = 30
	}
	b := remaining/time.Duration(moves) + inc*3/4
	return max(min(b, remaining/3), time.Millisecond)
}
