package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/hub"
)

// ExternalOptions say where an external engine's output goes.
type ExternalOptions struct {
	// Stderr receives the standard error of every process of the engine (nil: discarded).
	Stderr io.Writer
	// TranscriptDir, if set, receives the protocol transcript of every game, one file per
	// game and engine: game-000001-NAME.log.
	TranscriptDir string
	// HandshakeTimeout bounds an engine's start (0: the protocol package's default).
	HandshakeTimeout time.Duration
	// Process is the DXP engine's program when the command started it (StartProcess), nil
	// when it runs elsewhere: a connection that closes because the process was stopped by a
	// signal from outside is then an interruption, not a crash.
	Process *Process
}

// External returns the entrant of an external engine. Its players start the engine at
// their first game and keep it for the next ones; after a forfeit the match closes the
// player and the next game starts a new process (or connection).
func External(spec EngineSpec, opt ExternalOptions) Entrant {
	tc := spec.Control
	e := Entrant{Name: spec.Name, Control: &tc}
	switch spec.Proto {
	case "dxp":
		slots := make(chan struct{}, max(spec.Conns, 1))
		e.New = func(v *engine.Variant, _ int64) (Player, error) {
			return &dxpPlayer{ext: ext{spec: &spec, opt: &opt, v: v}, slots: slots}, nil
		}
	default:
		e.New = func(v *engine.Variant, _ int64) (Player, error) {
			return &hubPlayer{ext: ext{spec: &spec, opt: &opt, v: v}}, nil
		}
	}
	return e
}

// ext is what the players of both protocols share: the spec and the game's transcript.
type ext struct {
	spec       *EngineSpec
	opt        *ExternalOptions
	v          *engine.Variant
	transcript *os.File
	color      engine.Color
}

// openTranscript opens the transcript file of a game, when there is a transcript folder.
func (x *ext) openTranscript(game int) (io.Writer, error) {
	x.closeTranscript()
	if x.opt.TranscriptDir == "" {
		return nil, nil
	}
	name := fmt.Sprintf("game-%06d-%s.log", game+1, safeName(x.spec.Name))
	f, err := os.Create(filepath.Join(x.opt.TranscriptDir, name))
	if err != nil {
		return nil, err // not a forfeit: the match stops, as for any file it cannot write
	}
	x.transcript = f
	return f, nil
}

// transcriptWriter is the game's transcript, or nil.
func (x *ext) transcriptWriter() io.Writer {
	if x.transcript == nil {
		return nil
	}
	return x.transcript
}

func (x *ext) closeTranscript() {
	if x.transcript != nil {
		x.transcript.Close()
		x.transcript = nil
	}
}

// safeName keeps letters, digits, '-', '_' and '.' of a name for a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}

// ErrEngineInterrupted is the error of a game whose external engine was stopped by a
// signal rafle did not send (SIGINT, SIGTERM or SIGHUP: a Ctrl-C, timeout(1) or Slurm that
// signal every process): the game was interrupted, not lost. Run stops, as for its own
// interruption: the game is not recorded, and a resumed match plays it again.
var ErrEngineInterrupted = errors.New("match: an engine was stopped by a signal from outside rafle; the game is not recorded (a resumed match plays it again)")

// interruptedKinds are the protocol packages' errors of an engine stopped by a signal.
var interruptedKinds = []error{hub.ErrInterrupted}

// protocolForfeit turns a protocol package's error into the forfeit it means, or returns
// err as it is when it is no engine failure (a cancelled match), wrapped in
// ErrEngineInterrupted when the engine was stopped by a signal. kinds are tried in order.
func protocolForfeit(err error, kinds []failure) error {
	for _, k := range interruptedKinds {
		if errors.Is(err, k) {
			return fmt.Errorf("%w: %w", ErrEngineInterrupted, err)
		}
	}
	for _, k := range kinds {
		if errors.Is(err, k.kind) {
			return &Forfeit{Reason: k.reason, Err: err}
		}
	}
	return err
}

// failure maps a protocol package's error kind to a termination reason.
type failure struct {
	kind   error
	reason string
}

var hubKinds = []failure{{hub.ErrIllegalMove, ReasonIllegalMove}, {hub.ErrStall, ReasonStall},
	{hub.ErrCrash, ReasonCrash}, {hub.ErrProtocol, ReasonProtocolError}}

// hubPlayer is an engine process speaking Hub.
type hubPlayer struct {
	ext
	eng *hub.Engine
}

// Reset does nothing: a Hub engine is told of a new game in StartGame.
func (p *hubPlayer) Reset(int64) {}

// StartGame starts the engine if it is not running, and sends new-game.
func (p *hubPlayer) StartGame(ctx context.Context, info GameInfo) error {
	p.color = info.Color
	w, err := p.openTranscript(info.Index)
	if err != nil {
		return err
	}
	if p.eng == nil {
		cfg := hub.Config{Path: p.spec.Cmd, Args: p.spec.Args, Dir: p.spec.Dir, Options: p.spec.Options,
			Variant: p.v, Stderr: p.opt.Stderr, Transcript: w, HandshakeTimeout: p.opt.HandshakeTimeout}
		if p.eng, err = hub.Start(ctx, cfg); err != nil {
			return protocolForfeit(err, hubKinds)
		}
	} else {
		p.eng.SetTranscript(w)
	}
	return protocolForfeit(p.eng.NewGame(ctx), hubKinds)
}

// Choose asks the engine for a move within its time control.
func (p *hubPlayer) Choose(ctx context.Context, t Turn) (Reply, error) {
	tc := &p.spec.Control
	lvl := hub.Level{Depth: tc.Depth, Nodes: tc.Nodes, MoveTime: tc.MoveTime}
	if c := t.Clock; c != nil && tc.Base > 0 {
		// a clock run down within the margin still sends a time, or the level would be empty
		lvl.Moves, lvl.Time, lvl.Inc = c.MovesToGo, max(c.Remaining, time.Millisecond), tc.Inc
	}
	// "stop" goes when the player's time is up; the margin past it is for the answer
	// (the engine's reaction, the pipe, the scheduler), and the match's ctx ends after it
	var stop time.Time
	if c := t.Clock; c != nil && tc.Timed() {
		stop = time.Now().Add(max(c.Remaining, 0))
	}
	r, err := p.eng.ThinkUntil(ctx, stop, t.Game, lvl)
	if err != nil {
		return Reply{}, protocolForfeit(err, hubKinds)
	}
	reply := Reply{Move: r.Move, Depth: r.Info.Depth, Nodes: r.Info.Nodes, HasScore: r.Info.HasScore, Elapsed: r.Elapsed}
	if r.Info.HasScore {
		reply.Score = int(math.Round(r.Info.Score * 100)) // men to hundredths
	}
	return reply, nil
}

// EndGame closes the game's transcript.
func (p *hubPlayer) EndGame(*Record) { p.closeTranscript() }

// Close quits the engine.
func (p *hubPlayer) Close() error {
	p.closeTranscript()
	if p.eng == nil {
		return nil
	}
	err := p.eng.Close()
	p.eng = nil
	return err
}

// CheckHub starts a Hub engine once, to find before a match that it runs, speaks Hub and
// plays the variant, and quits it.
func CheckHub(ctx context.Context, spec EngineSpec, v *engine.Variant, opt ExternalOptions) error {
	eng, err := hub.Start(ctx, hub.Config{Path: spec.Cmd, Args: spec.Args, Dir: spec.Dir, Options: spec.Options,
		Variant: v, Stderr: opt.Stderr, HandshakeTimeout: opt.HandshakeTimeout})
	if err != nil {
		return fmt.Errorf("engine %s: %w", spec.Name, err)
	}
	return eng.Close()
}
