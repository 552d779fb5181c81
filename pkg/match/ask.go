package match

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/rafle/rafle/pkg/dxp"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/hub"
)

// The asking of one move in one position of an external engine, outside a match: Check
// and RunSuite share it.

// askHub starts a new game in eng and asks for a move in g's position at tc, within the time
// a match would allow it (the clock or the time per move plus the margin, or the timeout of
// a depth or node limit); wait bounds the new game's handshake. The move is returned as
// text too, in the variant's notation, also when it came late (then with the error).
func askHub(ctx context.Context, eng *hub.Engine, g *engine.Game, tc *TimeControl, wait time.Duration) (hub.Reply, string, error) {
	nctx, cancel := context.WithTimeout(ctx, wait)
	err := eng.NewGame(nctx)
	cancel()
	if err != nil {
		return hub.Reply{}, "", fmt.Errorf("new-game: %w", err)
	}
	lvl, limit, timed := checkLimit(tc)
	t0 := time.Now()
	var stop time.Time
	if timed {
		stop = t0.Add(limit - tc.Margin)
	}
	tctx, cancel := context.WithDeadline(ctx, t0.Add(limit))
	defer cancel()
	r, err := eng.ThinkUntil(tctx, stop, g, lvl)
	elapsed := time.Since(t0)
	if r.Elapsed > 0 { // the time at the pipe, as the match's clock counts it
		elapsed = min(elapsed, r.Elapsed)
	}
	if err != nil {
		return r, "", err
	}
	p := g.Position()
	text := g.Variant().FormatMove(&p, r.Move, false)
	if elapsed > limit {
		return r, text, late(elapsed, limit)
	}
	return r, text, nil
}

// dialDXP starts spec's engine when it has a command, and connects to it as the DXP
// initiator, retrying for wait while the engine starts. On an error nothing is left running.
func dialDXP(ctx context.Context, spec EngineSpec, v *engine.Variant, stderr, transcript io.Writer, wait time.Duration) (*Process, *dxp.Client, error) {
	var proc *Process
	if spec.Cmd != "" {
		var err error
		if proc, err = StartProcess(spec, stderr); err != nil {
			return nil, nil, err
		}
	}
	deadline := time.Now().Add(wait)
	for {
		client, err := dxp.Dial(ctx, dxp.Config{Addr: spec.Addr, Name: "rafle", Transcript: transcript,
			DialTimeout: wait, Variant: v})
		if err == nil {
			return proc, client, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			if proc != nil {
				proc.Close()
			}
			return nil, nil, err
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
		}
	}
}

// askDXP starts a game in pos with the engine to move, at tc's clock, waits for its move
// within the time a match would allow, and ends the game. wait bounds GAMEREQ. The move
// is returned as text too, also when it came late (then with the error).
func askDXP(ctx context.Context, client *dxp.Client, v *engine.Variant, pos engine.Position, tc *TimeControl, wait time.Duration) (engine.Move, string, time.Duration, error) {
	minutes, moves := dxpClock(tc)
	_, limit, _ := checkLimit(tc)
	t0 := time.Now() // an engine that moves first may send its move with GAMEACC
	rctx, cancel := context.WithTimeout(ctx, wait)
	_, err := client.StartGame(rctx, pos, pos.Side, minutes, moves)
	cancel()
	if err != nil {
		return engine.Move{}, "", 0, fmt.Errorf("GAMEREQ: %w", err)
	}
	mctx, cancel := context.WithDeadline(ctx, t0.Add(limit))
	m, err := client.Receive(mctx, &pos)
	cancel()
	elapsed := time.Since(t0)
	ectx, cancel := context.WithTimeout(ctx, 2*time.Second)
	eerr := client.EndGame(ectx, dxp.EndUnknown)
	cancel()
	if err != nil {
		return m, "", elapsed, err
	}
	text := v.FormatMove(&pos, m, false)
	if elapsed > limit {
		return m, text, elapsed, late(elapsed, limit)
	}
	if eerr != nil {
		return m, text, elapsed, fmt.Errorf("GAMEEND: %w", eerr)
	}
	return m, text, elapsed, nil
}
