package match

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rafle/rafle/pkg/dxp"
	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/hub"
	"github.com/rafle/rafle/pkg/search"
)

// SuitePosition is a position of a test suite and the moves that solve it: one of Solving
// (the EPD operation wm when the line has it, else bm), and none of Avoid (am).
type SuitePosition struct {
	File string `json:"file"`
	Line int    `json:"line"`
	ID   string `json:"id,omitempty"`
	FEN  string `json:"fen"`
	// Best (bm), Winning (wm) and Avoid (am) are the moves as the suite writes them.
	Best    []string `json:"best,omitempty"`
	Winning []string `json:"winning,omitempty"`
	Avoid   []string `json:"avoid,omitempty"`

	pos     engine.Position
	solving []engine.Move // wm, else bm; empty when the line has only am
	avoid   []engine.Move
}

// Solves reports whether m solves the position: one of the winning moves (wm) when the
// suite gives them, else one of the best moves (bm) when it gives them, and none of the moves
// to avoid (am).
func (sp *SuitePosition) Solves(m engine.Move) bool {
	if slices.Contains(sp.avoid, m) {
		return false
	}
	return len(sp.solving) == 0 || slices.Contains(sp.solving, m)
}

// SuiteError is a line of a suite that could not be read.
type SuiteError struct {
	File string
	Line int
	Col  int // 0 when the whole line is at fault
	Err  error
}

func (e *SuiteError) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("match: %s:%d:%d: %v", e.File, e.Line, e.Col, e.Err)
	}
	return fmt.Sprintf("match: %s:%d: %v", e.File, e.Line, e.Err)
}

func (e *SuiteError) Unwrap() error { return e.Err }

// maxSuiteLine bounds a line of a suite (a FEN of 80 squares and its moves fit in far less).
const maxSuiteLine = 64 << 10

// ReadSuite reads a test suite of variant v from r, named name in errors, one position a
// line (docs/suites.md): a JSON object as `egdb suite` writes it (fen, best, winning, avoid,
// id), or EPD-like text, "FEN bm MOVES; am MOVES; wm MOVES; id "NAME";", as chess EPD writes
// operations. Blank lines and lines starting with # are skipped. A line that cannot be
// read (a bad FEN, a move that is not legal in its position, no bm, am or wm) is a
// *SuiteError in the joined error, and the other lines are still returned; an error that
// stops the reading (of r itself) ends the list.
func ReadSuite(r io.Reader, name string, v *engine.Variant) ([]SuitePosition, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxSuiteLine)
	var out []SuitePosition
	var errs []error
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		var sp SuitePosition
		var err error
		if strings.HasPrefix(text, "{") {
			sp, err = parseSuiteJSON(text)
		} else {
			sp, err = parseEPD(text)
		}
		if err == nil {
			err = sp.resolve(v)
		}
		if err != nil {
			var se *SuiteError
			if !errors.As(err, &se) {
				se = &SuiteError{Err: err}
			}
			se.File, se.Line = name, line
			errs = append(errs, se)
			continue
		}
		sp.File, sp.Line = name, line
		out = append(out, sp)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("a line longer than %d bytes", maxSuiteLine)
		}
		errs = append(errs, fmt.Errorf("match: %s: %w", name, err))
	}
	return out, errors.Join(errs...)
}

// parseSuiteJSON reads a line of `egdb suite --format json` (egdb.SuiteEntry, the format's
// one definition), which may also name moves to avoid.
func parseSuiteJSON(text string) (SuitePosition, error) {
	var sp SuitePosition
	var obj struct {
		egdb.SuiteEntry
		Avoid []string `json:"avoid"`
	}
	if err := json.Unmarshal([]byte(text), &obj); err != nil {
		return sp, fmt.Errorf("JSON: %w", err)
	}
	if obj.FEN == "" {
		return sp, errors.New("JSON: no \"fen\"")
	}
	sp.ID, sp.FEN, sp.Best, sp.Winning, sp.Avoid = obj.ID, obj.FEN, obj.Best, obj.Winning, obj.Avoid
	return sp, nil
}

// parseEPD reads an EPD-like line: the FEN (one field, or in double quotes), then
// operations, each an opcode, operands separated by spaces (a string operand in double
// quotes) and a semicolon. bm, am and wm take moves, id a string; other opcodes are kept
// out (EPD's c0, acd, ..., egdb suite's dtw).
func parseEPD(text string) (SuitePosition, error) {
	var sp SuitePosition
	at := func(col int, format string, args ...any) error {
		return &SuiteError{Col: col + 1, Err: fmt.Errorf(format, args...)}
	}
	i := 0
	if text[0] == '"' {
		end := strings.IndexByte(text[1:], '"')
		if end < 0 {
			return sp, at(0, "the FEN's quote is not closed")
		}
		sp.FEN, i = text[1:end+1], end+2
	} else {
		end := strings.IndexAny(text, " \t")
		if end < 0 {
			end = len(text)
		}
		sp.FEN, i = text[:end], end
	}
	seen := map[string]bool{}
	for {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		if i == len(text) {
			break
		}
		start := i
		for i < len(text) && text[i] != ' ' && text[i] != '\t' && text[i] != ';' {
			i++
		}
		op := text[start:i]
		if op == "" {
			return sp, at(start, "an operation without its opcode")
		}
		if seen[op] {
			return sp, at(start, "operation %s given twice", op)
		}
		seen[op] = true
		var operands []string
		for {
			for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
				i++
			}
			if i == len(text) {
				return sp, at(start, "operation %s: no ';' at its end", op)
			}
			if text[i] == ';' {
				i++
				break
			}
			if text[i] == '"' {
				end := strings.IndexByte(text[i+1:], '"')
				if end < 0 {
					return sp, at(i, "operation %s: the string's quote is not closed", op)
				}
				operands = append(operands, text[i+1:i+1+end])
				i += end + 2
				continue
			}
			s := i
			for i < len(text) && text[i] != ' ' && text[i] != '\t' && text[i] != ';' {
				i++
			}
			operands = append(operands, text[s:i])
		}
		switch op {
		case "bm", "am", "wm":
			if len(operands) == 0 {
				return sp, at(start, "operation %s: no move", op)
			}
			switch op {
			case "bm":
				sp.Best = operands
			case "am":
				sp.Avoid = operands
			case "wm":
				sp.Winning = operands
			}
		case "id":
			if len(operands) != 1 {
				return sp, at(start, "operation id: want one string, got %d operands", len(operands))
			}
			sp.ID = operands[0]
		}
	}
	return sp, nil
}

// resolve reads the FEN and the moves in v.
func (sp *SuitePosition) resolve(v *engine.Variant) error {
	p, err := v.ParseFEN(sp.FEN)
	if err != nil {
		return err
	}
	sp.pos = p
	if len(sp.Best)+len(sp.Winning)+len(sp.Avoid) == 0 {
		return errors.New("no moves: want bm, am or wm (JSON: best, avoid or winning)")
	}
	if len(engine.NewGame(v, p).Legal()) == 0 {
		return fmt.Errorf("position %s: no legal move", sp.FEN)
	}
	moves := func(op string, texts []string) ([]engine.Move, error) {
		var ms []engine.Move
		for _, t := range texts {
			m, err := v.ParseMove(&p, t)
			if err != nil {
				return nil, fmt.Errorf("%s %s in %s: %w", op, t, sp.FEN, err)
			}
			ms = append(ms, m)
		}
		return ms, nil
	}
	best, err := moves("bm", sp.Best)
	if err != nil {
		return err
	}
	winning, err := moves("wm", sp.Winning)
	if err != nil {
		return err
	}
	if sp.avoid, err = moves("am", sp.Avoid); err != nil {
		return err
	}
	sp.solving = best
	if len(winning) > 0 {
		sp.solving = winning
	}
	for _, m := range sp.solving {
		if slices.Contains(sp.avoid, m) {
			return fmt.Errorf("move %s is both to play and to avoid", v.FormatMove(&p, m, false))
		}
	}
	return nil
}

// SuiteOptions configure RunSuite: Player for one of rafle's players, or Engine for an
// external engine (Hub or DXP), at its own limits.
type SuiteOptions struct {
	Player *search.PlayerSpec
	Engine *EngineSpec
	// Stderr receives the engine's standard error (nil: discarded).
	Stderr io.Writer
	// HandshakeTimeout bounds the engine's start and each new game (0: 10 s).
	HandshakeTimeout time.Duration
	// Progress, when set, is called after each position with the number done.
	Progress func(done int)
}

// SuiteResult is the engine's answer to one position.
type SuiteResult struct {
	SuitePosition
	Solved bool   `json:"solved"`
	Move   string `json:"move,omitempty"` // the engine's move
	// Depth, Nodes and Score are the search's, as far as the engine says them (a Hub
	// engine's info line; DXP says nothing); Score in hundredths of a man.
	Depth   int           `json:"depth,omitempty"`
	Nodes   int64         `json:"nodes,omitempty"`
	Score   *int          `json:"score,omitempty"`
	Elapsed time.Duration `json:"elapsed_ns"`
	Error   string        `json:"error,omitempty"` // why the engine gave no usable move
}

// SuiteReport is the score of an engine on a suite.
type SuiteReport struct {
	Engine  string        `json:"engine"`
	Variant string        `json:"variant"`
	Limits  string        `json:"limits"`
	Results []SuiteResult `json:"results"`
	Solved  int           `json:"solved"`
	Total   int           `json:"total"`
}

// suiteMover asks one engine for moves.
type suiteMover interface {
	move(ctx context.Context, g *engine.Game, r *SuiteResult) error
	close()
}

// RunSuite puts every position to the engine, one at a time, and reports which it solved.
// rafle's player starts each position with empty tables and the seed 1, so that with depth
// or node limits the report is the same on every run; an external engine gets a new game per
// position, and is started again after a failure (a crash, an illegal or late move), which
// counts as not solved. The error is for what stops the run: the engine cannot start, or ctx
// ended (then the report holds the positions done).
func RunSuite(ctx context.Context, v *engine.Variant, positions []SuitePosition, opt SuiteOptions) (*SuiteReport, error) {
	if opt.HandshakeTimeout <= 0 {
		opt.HandshakeTimeout = 10 * time.Second
	}
	rep := &SuiteReport{Variant: v.Name, Total: len(positions)}
	var start func() (suiteMover, error)
	switch {
	case opt.Player != nil:
		ps := *opt.Player
		rep.Engine, rep.Limits = ps.Spec, limitsText(ps.Limits)
		start = func() (suiteMover, error) {
			p, err := ps.New(v, 1)
			return &playerMover{p: p}, err
		}
	case opt.Engine != nil:
		spec := *opt.Engine
		rep.Engine, rep.Limits = spec.Name, spec.Control.String()
		if spec.Proto == "dxp" {
			if v.Name != "international" {
				return nil, fmt.Errorf("match: engine %s: DXP plays international draughts, not %s", spec.Name, v.Name)
			}
			start = func() (suiteMover, error) {
				proc, client, err := dialDXP(ctx, spec, v, opt.Stderr, nil, opt.HandshakeTimeout)
				return &dxpMover{proc: proc, client: client, tc: spec.Control, wait: opt.HandshakeTimeout}, err
			}
		} else {
			start = func() (suiteMover, error) {
				eng, err := hub.Start(ctx, hub.Config{Path: spec.Cmd, Args: spec.Args, Dir: spec.Dir, Options: spec.Options,
					Variant: v, Stderr: opt.Stderr, HandshakeTimeout: opt.HandshakeTimeout})
				return &hubMover{eng: eng, tc: spec.Control, wait: opt.HandshakeTimeout}, err
			}
		}
	default:
		panic("match: RunSuite without a player or an engine")
	}
	var m suiteMover
	defer func() {
		if m != nil {
			m.close()
		}
	}()
	for i, sp := range positions {
		if err := ctx.Err(); err != nil {
			return rep, context.Cause(ctx)
		}
		if m == nil {
			var err error
			if m, err = start(); err != nil {
				m = nil
				return rep, fmt.Errorf("match: engine %s: %w", rep.Engine, err)
			}
		}
		r := SuiteResult{SuitePosition: sp}
		g := engine.NewGame(v, sp.pos)
		err := m.move(ctx, g, &r)
		if ctx.Err() != nil {
			return rep, context.Cause(ctx) // the position was not done
		}
		if err != nil {
			r.Error = err.Error()
			m.close()
			m = nil
		}
		rep.Results = append(rep.Results, r)
		if r.Solved {
			rep.Solved++
		}
		if opt.Progress != nil {
			opt.Progress(i + 1)
		}
	}
	return rep, nil
}

// limitsText writes a search's limits as a player spec writes them.
func limitsText(l search.Limits) string {
	var parts []string
	if l.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth=%d", l.Depth))
	}
	if l.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("nodes=%d", l.Nodes))
	}
	if l.MoveTime > 0 {
		parts = append(parts, "movetime="+l.MoveTime.String())
	}
	if l.NoQuiescence {
		parts = append(parts, "quiescence=false")
	}
	return strings.Join(parts, ":")
}

// record fills r with the move m of the game's position.
func (r *SuiteResult) record(g *engine.Game, m engine.Move) {
	p := g.Position()
	r.Move = g.Variant().FormatMove(&p, m, false)
	r.Solved = r.Solves(m)
}

// playerMover is rafle's player.
type playerMover struct{ p *search.Player }

func (pm *playerMover) move(ctx context.Context, g *engine.Game, r *SuiteResult) error {
	pm.p.Reseed(1)
	res, err := pm.p.Choose(ctx, g)
	if err != nil {
		return err
	}
	r.record(g, res.Move)
	score := res.Score
	r.Depth, r.Nodes, r.Score, r.Elapsed = res.Depth, res.Nodes, &score, res.Elapsed
	return nil
}

func (pm *playerMover) close() {}

// hubMover is a Hub engine.
type hubMover struct {
	eng  *hub.Engine
	tc   TimeControl
	wait time.Duration
}

func (hm *hubMover) move(ctx context.Context, g *engine.Game, r *SuiteResult) error {
	t0 := time.Now()
	reply, text, err := askHub(ctx, hm.eng, g, &hm.tc, hm.wait)
	r.Elapsed = time.Since(t0)
	if text != "" {
		r.record(g, reply.Move)
		r.Solved = r.Solved && err == nil // a late move does not solve
	}
	r.Depth, r.Nodes = reply.Info.Depth, reply.Info.Nodes
	if reply.Info.HasScore {
		score := int(math.Round(reply.Info.Score * 100)) // men to hundredths
		r.Score = &score
	}
	return err
}

func (hm *hubMover) close() { hm.eng.Close() }

// dxpMover is a DXP engine.
type dxpMover struct {
	proc   *Process
	client *dxp.Client
	tc     TimeControl
	wait   time.Duration
}

func (dm *dxpMover) move(ctx context.Context, g *engine.Game, r *SuiteResult) error {
	m, text, elapsed, err := askDXP(ctx, dm.client, g.Variant(), g.Position(), &dm.tc, dm.wait)
	r.Elapsed = elapsed
	if text != "" {
		r.record(g, m)
		r.Solved = r.Solved && err == nil
	}
	return err
}

func (dm *dxpMover) close() {
	dm.client.Close()
	if dm.proc != nil {
		dm.proc.Close()
	}
}
