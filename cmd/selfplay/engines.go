package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
	"github.com/rafle/rafle/pkg/search"
)

// engineFlags are the flags of external engines.
func engineFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "engine", Usage: "an external engine, repeatable: name=NAME,cmd=PATH[,args=\"...\"][,dir=DIR]" +
			"[,proto=hub|dxp][,option.KEY=VALUE...][,tc=MOVES/SECONDS+INC|st=SECONDS|depth=N|nodes=N][,timemargin=MS]" +
			"[,timeout=SECONDS][,host=H,port=N,conns=N]; then name it in --players (docs/engines.md)"},
		&cli.StringFlag{Name: "engine-log", Usage: "folder for the engines' stderr (NAME.stderr.log) and every game's protocol transcript (default: stderr logs next to --output)"},
		&cli.DurationFlag{Name: "engine-start", Value: 10 * time.Second, Usage: "how long an engine may take to start and answer the handshake"},
		&cli.BoolFlag{Name: "check", Usage: "before the match, run selfplay check on every --engine in the match's variant; stop if a check fails"},
		&cli.StringFlag{Name: "adjudicate", Usage: "end games from the scores both players report: draw=MOVES:SCORE,resign=MOVES:SCORE (SCORE in men)"},
	}
}

// engineSet is the external engines of a match.
type engineSet struct {
	specs    []match.EngineSpec
	entrants map[string]match.Entrant
	logs     []*os.File
	procs    []*match.Process // DXP engines started for the match
	start    time.Duration
}

// readEngines parses --engine and decides where the engines' output goes.
func readEngines(c *cli.Context) (*engineSet, error) {
	set := &engineSet{entrants: map[string]match.Entrant{}, start: c.Duration("engine-start")}
	if set.start <= 0 {
		return nil, cliutil.Usagef("--engine-start %v: must be positive", set.start)
	}
	for _, s := range c.StringSlice("engine") {
		spec, err := match.ParseEngineSpec(s)
		if err != nil {
			return nil, cliutil.UsageError{Err: fmt.Errorf("--engine: %w", err)}
		}
		if _, dup := set.entrants[spec.Name]; dup {
			return nil, cliutil.Usagef("--engine: two engines named %s", spec.Name)
		}
		if _, err := search.ParsePlayer(spec.Name); err == nil {
			return nil, cliutil.Usagef("--engine: name %s is a player spec of rafle's: choose another", spec.Name)
		}
		set.specs = append(set.specs, spec)
		set.entrants[spec.Name] = match.Entrant{} // filled by open
	}
	return set, nil
}

// open creates the log files and checks every engine the match plays: a Hub engine is
// started once (it must answer the handshake and offer the variant), a DXP engine with a
// cmd is started for the whole match, and a DXP engine must accept a connection.
func (set *engineSet) open(ctx context.Context, c *cli.Context, v *engine.Variant, used map[string]bool, stderr io.Writer) error {
	dir := c.String("engine-log")
	if dir != "" {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return err
		}
		// a game's transcript is written anew when the game is played: another match's
		// would be lost, a resumed match's unfinished games are played again
		if old, _ := filepath.Glob(filepath.Join(dir, "game-*.log")); len(old) > 0 && !c.Bool("resume") {
			return cliutil.Usagef("--engine-log %s holds the transcripts of another match (%s): give another folder, or --resume that match", dir, filepath.Base(old[0]))
		}
	}
	for _, spec := range set.specs {
		if !used[spec.Name] {
			return cliutil.Usagef("--engine %s: not in --players", spec.Name)
		}
		logPath := ""
		switch {
		case dir != "":
			logPath = filepath.Join(dir, spec.Name+".stderr.log")
		case besideOK(c.String("pdn")): // not /dev/full.NAME.stderr.log
			logPath = c.String("pdn") + "." + spec.Name + ".stderr.log"
		}
		opt := match.ExternalOptions{HandshakeTimeout: set.start}
		if dir != "" {
			opt.TranscriptDir = dir
		}
		if logPath != "" {
			f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
			if err != nil {
				return err
			}
			set.logs = append(set.logs, f)
			opt.Stderr = f
			fmt.Fprintf(stderr, "selfplay: %s: stderr in %s\n", spec.Name, logPath)
		}
		if c.Bool("check") {
			if err := preCheck(ctx, spec, v, opt.Stderr, set.start, stderr); err != nil {
				return err
			}
		}
		if err := set.check(ctx, spec, v, &opt); err != nil {
			return err
		}
		set.entrants[spec.Name] = match.External(spec, opt)
	}
	return nil
}

// check checks an engine before the match; it starts a DXP engine given with cmd= for the
// whole match, and sets opt.Process to it.
func (set *engineSet) check(ctx context.Context, spec match.EngineSpec, v *engine.Variant, opt *match.ExternalOptions) error {
	if spec.Proto == "hub" {
		return match.CheckHub(ctx, spec, v, *opt)
	}
	if v.GameType != 20 {
		return fmt.Errorf("engine %s: DXP plays international draughts (10x10), not %s", spec.Name, v.Name)
	}
	if spec.Cmd != "" {
		p, err := match.StartProcess(spec, opt.Stderr)
		if err != nil {
			return err
		}
		set.procs = append(set.procs, p)
		opt.Process = p
	}
	// the engine must listen: wait for it as long as an engine may take to start
	deadline := time.Now().Add(set.start)
	for {
		conn, err := net.DialTimeout("tcp", spec.Addr, time.Second)
		if err == nil {
			return conn.Close()
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("engine %s: no DXP engine listens on %s after %v: %w", spec.Name, spec.Addr, set.start, err)
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
		}
	}
}

// close ends the DXP engines started for the match (their whole process groups) and
// closes the logs.
func (set *engineSet) close() error {
	var errs []error
	for _, p := range set.procs {
		_ = p.Close() // a failure during the match lost games already, with its reason
	}
	for _, f := range set.logs {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}

// has reports whether name is an engine of the set.
func (set *engineSet) has(name string) bool {
	_, ok := set.entrants[name]
	return ok
}
