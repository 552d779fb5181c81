package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rafle/rafle/pkg/dxp"
	"github.com/rafle/rafle/pkg/engine"
)

var dxpKinds = []failure{{dxp.ErrIllegalMove, ReasonIllegalMove}, {dxp.ErrStall, ReasonStall},
	{dxp.ErrCrash, ReasonCrash}, {dxp.ErrProtocol, ReasonProtocolError}, {dxp.ErrRefused, ReasonProtocolError}}

// Termination reasons of a DXP engine that ends a game itself (GAMEEND): rafle decides
// results, so a resignation is taken and any other claim loses.
const (
	ReasonResign     = "resign"      // the engine gave up
	ReasonFalseClaim = "false-claim" // the engine claimed a draw or a win the rules do not give
)

// dxpPlayer is a connection to an engine that listens for DXP games. The game is requested
// at the engine's first move, from the position then (DXP sends a position, not a history);
// the opponent's moves are sent as the engine's turns come.
type dxpPlayer struct {
	ext
	slots  chan struct{} // the engine's connections at once
	slot   bool          // this player holds one: it has a connection, or is making one
	client *dxp.Client
	game   *engine.Game
	synced int // plies of game the engine knows
}

// Reset does nothing: each game is requested anew.
func (p *dxpPlayer) Reset(int64) {}

// StartGame connects when not connected, after waiting until the engine serves fewer
// connections than it can (EngineSpec.Conns): a worker keeps its connection for the match.
func (p *dxpPlayer) StartGame(ctx context.Context, info GameInfo) error {
	p.color, p.game = info.Color, nil
	if !p.slot {
		select {
		case p.slots <- struct{}{}:
			p.slot = true
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	w, err := p.openTranscript(info.Index)
	if err != nil {
		return err
	}
	if p.client != nil {
		p.client.SetTranscript(w)
	}
	return nil
}

// request connects if needed and requests the game from g's position. An engine that is
// still closing an earlier connection may drop a new one, and one still ending an earlier
// game (a stalled search it was told to end) may refuse it: the request is tried again
// until the engine's start time (ExternalOptions.HandshakeTimeout) has passed.
func (p *dxpPlayer) request(ctx context.Context, g *engine.Game) error {
	wait := p.opt.HandshakeTimeout
	if wait <= 0 {
		wait = 10 * time.Second
	}
	deadline := time.Now().Add(wait)
	minutes, moves := dxpClock(&p.spec.Control)
	var refusal error // the engine's last refusal: what it did, when the time then runs out
	for {
		var err error
		if p.client == nil {
			p.client, err = dxp.Dial(ctx, dxp.Config{Addr: p.spec.Addr, Name: "rafle", Transcript: p.transcriptWriter(),
				DialTimeout: wait, Variant: p.v})
		}
		if err == nil {
			if _, err = p.client.StartGame(ctx, g.Position(), p.color, minutes, moves); err == nil {
				return nil
			}
		}
		if refusal != nil && (ctx.Err() != nil || errors.Is(err, dxp.ErrStall)) { // the connection's deadline is ctx's
			return refusal
		}
		if !errors.Is(err, dxp.ErrCrash) && !errors.Is(err, dxp.ErrRefused) || time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		if errors.Is(err, dxp.ErrRefused) {
			refusal = err
			// the connection serves: ask again on it, a little later
			select {
			case <-time.After(100 * time.Millisecond):
				continue
			case <-ctx.Done():
				return err // the refusal, not the end of the wait
			}
		}
		if p.client != nil {
			p.client.Close()
			p.client = nil
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
		}
	}
}

// Choose requests the game at the engine's first move, sends the opponent's moves since
// its last one, and waits for its move.
func (p *dxpPlayer) Choose(ctx context.Context, t Turn) (Reply, error) {
	g := t.Game
	if p.game != g {
		if err := p.request(ctx, g); err != nil {
			return Reply{}, p.failed(ctx, err)
		}
		p.game, p.synced = g, g.Ply()
	}
	positions, played := g.Positions(), g.Moves()
	for ; p.synced < g.Ply(); p.synced++ {
		if err := p.client.Send(&positions[p.synced], played[p.synced], 0); err != nil {
			return Reply{}, p.failed(ctx, err)
		}
	}
	pos := g.Position()
	m, err := p.client.Receive(ctx, &pos)
	var e *dxp.Error
	if errors.As(err, &e) && errors.Is(err, dxp.ErrGameEnd) {
		p.endGame(dxp.EndLoss, 2*time.Second) // answers the engine's GAMEEND
		if e.Reason == dxp.EndLoss {
			return Reply{}, &Forfeit{Reason: ReasonResign, Text: e.Text, Err: err}
		}
		return Reply{}, &Forfeit{Reason: ReasonFalseClaim, Text: e.Text, Err: fmt.Errorf("%w, in a game that goes on", err)}
	}
	if err != nil {
		return Reply{}, p.failed(ctx, err)
	}
	p.synced++ // the match plays the move
	return Reply{Move: m}, nil
}

// failed ends the game the engine failed in, if it is one, with GAMEEND: it lost (or, when
// the match was interrupted, result unknown). An engine that listens for games refuses
// the next one until its last has ended, as Moby Dam does. It returns the forfeit err
// means, or err.
func (p *dxpPlayer) failed(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.Canceled) { // the match stops: no result
		p.endGame(dxp.EndUnknown, 500*time.Millisecond) // within a second of Ctrl-C
		return err
	}
	if proc := p.opt.Process; proc != nil && errors.Is(err, dxp.ErrCrash) {
		if sig, ok := proc.interrupted(processInterrupted); ok {
			return fmt.Errorf("%w: engine %s: %w: %s from outside rafle (%w)", ErrEngineInterrupted, p.spec.Name, errProcessInterrupted, sig, err)
		}
	}
	f := protocolForfeit(err, dxpKinds)
	if asForfeit(f) != nil {
		p.endGame(dxp.EndLoss, 2*time.Second)
	}
	return f
}

// endGame sends GAMEEND with the engine's result and waits at most wait for its answer (a
// second at most: dxp.Client.EndGame).
func (p *dxpPlayer) endGame(result dxp.EndReason, wait time.Duration) {
	if p.client == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := p.client.EndGame(ctx, result); err != nil {
		p.client.Close()
		p.client = nil
	}
}

// maxDXPMinutes is the most thinking time GAMEREQ can give: a field of three digits
// (DamExchange protocol 1.0, GAMEREQ).
const maxDXPMinutes = 999

// dxpClock is GAMEREQ's thinking time for tc, in whole minutes for the game: the clock (a
// whole number of minutes from ParseEngineSpec, rounded up otherwise); for a time per move
// (possible through the API only), that time for 100 moves; without a clock, the most DXP
// can say. The number of moves is always 0 (no limit): rafle ends the game by the rules, or
// at the match's MaxPlies.
func dxpClock(tc *TimeControl) (minutes, moves int) {
	switch {
	case tc.Base > 0:
		return min(int((tc.Base+time.Minute-1)/time.Minute), maxDXPMinutes), 0
	case tc.MoveTime > 0:
		return min(max(int((100*tc.MoveTime+time.Minute-1)/time.Minute), 1), maxDXPMinutes), 0
	}
	return maxDXPMinutes, 0
}

// EndGame tells the engine the result rafle decided.
func (p *dxpPlayer) EndGame(rec *Record) {
	defer p.closeTranscript()
	if p.client == nil || p.game == nil {
		return
	}
	result := dxp.EndDraw
	switch rec.Winner {
	case p.color.String():
		result = dxp.EndWin
	case p.color.Other().String():
		result = dxp.EndLoss
	}
	p.endGame(result, 2*time.Second)
	if p.client == nil { // the connection failed: the next game connects again
		p.release()
	}
}

func (p *dxpPlayer) release() {
	if p.slot {
		<-p.slots
		p.slot = false
	}
}

// Close closes the connection.
func (p *dxpPlayer) Close() error {
	p.closeTranscript()
	p.release()
	if p.client == nil {
		return nil
	}
	err := p.client.Close()
	p.client = nil
	return err
}
