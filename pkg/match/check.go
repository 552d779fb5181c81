package match

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/rafle/rafle/pkg/dxp"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/hub"
)

// CheckOptions configure Check.
type CheckOptions struct {
	// Stderr receives the engine's standard error (nil: discarded).
	Stderr io.Writer
	// HandshakeTimeout bounds the engine's start (0: 10 s).
	HandshakeTimeout time.Duration
	// LatencyMoves is how many searches of depth 1 a Hub engine answers for the latency
	// (0: 10).
	LatencyMoves int
	// Variant, if set, is the only variant checked (a match's): an engine that does not
	// offer it fails the "variant" check. Nil checks every variant the engine claims.
	Variant *engine.Variant
}

// CheckResult is one check of an engine: a step of the protocol, or a move in one
// position. Transcript holds the protocol lines of a failed check.
type CheckResult struct {
	Name     string `json:"name"`              // handshake, variant, move, restart
	Variant  string `json:"variant,omitempty"` // rafle's name of the variant
	Position string `json:"position,omitempty"`
	FEN      string `json:"fen,omitempty"`
	// History is the number of moves sent before the position (the draw rules' history).
	History    int           `json:"history,omitempty"`
	Move       string        `json:"move,omitempty"` // the engine's move
	Passed     bool          `json:"passed"`
	Detail     string        `json:"detail,omitempty"`
	Elapsed    time.Duration `json:"elapsed_ns"`
	Transcript string        `json:"transcript,omitempty"`
}

// CheckLatency is the time an engine takes to answer a search of the least work: depth 1
// for Hub, or for DXP (which has no depth) every move of the check at its clock.
type CheckLatency struct {
	Level  string        `json:"level"`
	Moves  int           `json:"moves"`
	Median time.Duration `json:"median_ns"`
	Max    time.Duration `json:"max_ns"`
}

// CheckReport is what Check found.
type CheckReport struct {
	Engine   string            `json:"engine"`
	Protocol string            `json:"protocol"`
	ID       map[string]string `json:"id,omitempty"` // the Hub engine's id line
	// Variants are the variants the engine claims that rafle plays, by rafle's names;
	// Unknown those it claims that rafle does not know, with the reason.
	Variants []string      `json:"variants"`
	Unknown  []string      `json:"unknown,omitempty"`
	Checks   []CheckResult `json:"checks"`
	Latency  *CheckLatency `json:"latency,omitempty"`
}

// Failed returns the number of failed checks.
func (r *CheckReport) Failed() int {
	n := 0
	for _, c := range r.Checks {
		if !c.Passed {
			n++
		}
	}
	return n
}

// Check runs an engine through the protocol as a match would, before a match: it starts
// the engine and runs the handshake, then for every variant the engine claims (a Hub
// engine's "variant" parameter; international otherwise, and always for DXP) it asks for a
// move in each position of CheckPositions, at the engine's time control, and checks each
// reply: legal, well formed, and within the time the match would allow (the clock or the
// time per move plus the margin, or the timeout for depth and node limits). It measures
// the latency of a move, and finally ends the engine and starts it again, which must
// answer once more. A failure is a CheckResult that did not pass; the error is for what
// stops the check itself (ctx ended).
func Check(ctx context.Context, spec EngineSpec, opt CheckOptions) (*CheckReport, error) {
	if opt.HandshakeTimeout <= 0 {
		opt.HandshakeTimeout = 10 * time.Second
	}
	if opt.LatencyMoves <= 0 {
		opt.LatencyMoves = 10
	}
	rep := &CheckReport{Engine: spec.Name, Protocol: spec.Proto}
	c := &checker{spec: spec, opt: opt, rep: rep}
	if spec.Proto == "dxp" {
		c.dxp(ctx)
	} else {
		c.hub(ctx)
	}
	return rep, context.Cause(ctx)
}

// checker runs the checks of one engine.
type checker struct {
	spec EngineSpec
	opt  CheckOptions
	rep  *CheckReport
	tr   syncBuffer // the current check's transcript
}

// syncBuffer is a transcript that the protocol clients' goroutines may write.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// take returns the transcript so far and empties it.
func (b *syncBuffer) take() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	b.buf.Reset()
	return s
}

// add records a check; a failed one keeps the transcript since the last check.
func (c *checker) add(r CheckResult, err error) {
	tr := c.tr.take()
	r.Passed = err == nil
	if err != nil {
		r.Detail = err.Error()
		r.Transcript = tr
	}
	c.rep.Checks = append(c.rep.Checks, r)
}

// limit returns the Hub level for the spec's time control, how long a move may take, and
// when to send "stop" (zero for depth and node limits).
func checkLimit(tc *TimeControl) (lvl hub.Level, limit time.Duration, timed bool) {
	switch {
	case tc.MoveTime > 0:
		return hub.Level{MoveTime: tc.MoveTime}, tc.MoveTime + tc.Margin, true
	case tc.Base > 0:
		return hub.Level{Moves: tc.Moves, Time: tc.Base, Inc: tc.Inc}, tc.Base + tc.Margin, true
	}
	limit = tc.Timeout
	if limit <= 0 {
		limit = DefaultTimeout
	}
	return hub.Level{Depth: tc.Depth, Nodes: tc.Nodes}, limit, false
}

// late is the error of a reply that came after the limit.
func late(elapsed, limit time.Duration) error {
	return fmt.Errorf("late: the move took %v, the time control allows %v", elapsed.Round(time.Millisecond), limit)
}

// hubConfig is the configuration that starts the engine for variant v (nil: its default).
func (c *checker) hubConfig(v *engine.Variant) hub.Config {
	return hub.Config{Path: c.spec.Cmd, Args: c.spec.Args, Dir: c.spec.Dir, Options: c.spec.Options, Variant: v,
		Stderr: c.opt.Stderr, Transcript: &c.tr, HandshakeTimeout: c.opt.HandshakeTimeout}
}

// hub checks a Hub engine.
func (c *checker) hub(ctx context.Context) {
	t0 := time.Now()
	eng, err := hub.Start(ctx, c.hubConfig(nil))
	c.add(CheckResult{Name: "handshake", Elapsed: time.Since(t0)}, err)
	if err != nil {
		return
	}
	c.rep.ID = eng.ID()
	claimed := []string{"normal"} // an engine without the parameter plays international
	for _, p := range eng.Params() {
		if p.Name == "variant" && p.Type == "enum" && len(p.Values) > 0 {
			claimed = p.Values
		}
	}
	eng.Close()
	c.tr.take()
	var first *engine.Variant
	for _, name := range claimed {
		v, err := hub.LookupVariant(name)
		if err != nil {
			c.rep.Unknown = append(c.rep.Unknown, err.Error())
			continue
		}
		if c.opt.Variant != nil && v != c.opt.Variant {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		c.rep.Variants = append(c.rep.Variants, v.Name)
		if first == nil {
			first = v
		}
		c.hubVariant(ctx, v, first == v)
	}
	if want := c.opt.Variant; want != nil && first == nil {
		c.add(CheckResult{Name: "variant", Variant: want.Name}, fmt.Errorf("the engine does not offer %s (Hub %q); it offers %v", want.Name, hub.VariantName(want), claimed))
	}
	if first == nil || ctx.Err() != nil {
		return
	}
	// restart: the engine quits, and a new process answers again
	c.tr.take()
	t0 = time.Now()
	eng, err = hub.Start(ctx, c.hubConfig(first))
	if err == nil {
		defer eng.Close()
		_, err = c.hubMove(ctx, eng, engine.NewGame(first, first.Start()))
	}
	c.add(CheckResult{Name: "restart", Variant: first.Name, Elapsed: time.Since(t0)}, err)
}

// hubVariant checks the positions of v, and the latency when latency is set.
func (c *checker) hubVariant(ctx context.Context, v *engine.Variant, latency bool) {
	var name string
	start := func() *hub.Engine {
		t0 := time.Now()
		eng, err := hub.Start(ctx, c.hubConfig(v))
		c.add(CheckResult{Name: name, Variant: v.Name, Elapsed: time.Since(t0)}, err)
		if err != nil {
			return nil
		}
		return eng
	}
	name = "variant"
	eng := start()
	name = "restart after failure"
	if eng == nil {
		return
	}
	defer func() {
		if eng != nil { // nil when a restart after a failure failed
			eng.Close()
			c.tr.take()
		}
	}()
	for _, cp := range CheckPositions(v) {
		if ctx.Err() != nil {
			return
		}
		r := cp.result(v)
		t0 := time.Now()
		m, err := c.hubMove(ctx, eng, cp.Game)
		r.Elapsed, r.Move = time.Since(t0), m
		c.add(r, err)
		if err != nil { // the engine is unusable: a new one for the next position
			eng.Close()
			c.tr.take()
			if eng = start(); eng == nil {
				return
			}
		}
	}
	if !latency {
		return
	}
	var times []time.Duration
	g := engine.NewGame(v, v.Start())
	for range c.opt.LatencyMoves {
		if ctx.Err() != nil {
			return
		}
		t0 := time.Now()
		tctx, cancel := context.WithTimeout(ctx, c.opt.HandshakeTimeout)
		_, err := eng.Think(tctx, g, hub.Level{Depth: 1})
		cancel()
		if err != nil {
			c.add(CheckResult{Name: "latency", Variant: v.Name, Position: "start"}, err)
			return
		}
		times = append(times, time.Since(t0))
	}
	c.tr.take()
	c.rep.Latency = latencyOf("depth 1", times)
}

// hubMove starts a new game and asks for a move in g's position at the spec's time
// control, within the time the match would allow.
func (c *checker) hubMove(ctx context.Context, eng *hub.Engine, g *engine.Game) (string, error) {
	_, text, err := askHub(ctx, eng, g, &c.spec.Control, c.opt.HandshakeTimeout)
	return text, err
}

// latencyOf summarises the times of moves.
func latencyOf(level string, times []time.Duration) *CheckLatency {
	if len(times) == 0 {
		return nil
	}
	s := slices.Clone(times)
	slices.Sort(s)
	return &CheckLatency{Level: level, Moves: len(s), Median: s[len(s)/2], Max: s[len(s)-1]}
}

// dxp checks a DXP engine: international draughts only, and positions without their
// history (DXP sends a position, not a game), so the draw-rule positions are left out.
func (c *checker) dxp(ctx context.Context) {
	v := engine.MustLookup("international")
	if want := c.opt.Variant; want != nil && want != v {
		c.add(CheckResult{Name: "variant", Variant: want.Name}, fmt.Errorf("DXP plays international draughts, not %s", want.Name))
		return
	}
	c.rep.Variants = []string{v.Name}
	var proc *Process
	var client *dxp.Client
	stopAll := func() {
		if client != nil {
			client.Close()
			client = nil
		}
		if proc != nil {
			proc.Close()
			proc = nil
		}
	}
	defer stopAll()
	start := func(name string) bool {
		t0 := time.Now()
		var err error
		proc, client, err = dialDXP(ctx, c.spec, v, c.opt.Stderr, &c.tr, c.opt.HandshakeTimeout)
		c.add(CheckResult{Name: name, Variant: v.Name, Elapsed: time.Since(t0)}, err)
		return err == nil
	}
	if !start("handshake") {
		return
	}
	var times []time.Duration
	move := func(cp CheckPosition) (string, time.Duration, error) {
		_, text, elapsed, err := askDXP(ctx, client, v, cp.Game.Position(), &c.spec.Control, c.opt.HandshakeTimeout)
		if err == nil {
			times = append(times, elapsed)
		}
		return text, elapsed, err
	}
	for _, cp := range CheckPositions(v) {
		if ctx.Err() != nil {
			return
		}
		if cp.History { // DXP sends a position without the game before it
			continue
		}
		r := cp.result(v)
		r.History = 0
		m, elapsed, err := move(cp)
		r.Move, r.Elapsed = m, elapsed
		c.add(r, err)
		if err != nil { // start afresh: the connection may be unusable, the engine gone
			stopAll()
			if !start("restart after failure") {
				return
			}
		}
	}
	c.rep.Latency = latencyOf("the engine's clock", times)
	if ctx.Err() != nil {
		return
	}
	stopAll()
	c.tr.take()
	if !start("restart") {
		return
	}
	_, _, err := move(CheckPosition{Name: "start", Game: engine.NewGame(v, v.Start())})
	if err != nil {
		c.add(CheckResult{Name: "restart", Variant: v.Name, Position: "start"}, err)
	}
}

// CheckPosition is a position of the check, in its game (the moves before it matter to
// the draw rules).
type CheckPosition struct {
	Name string
	Game *engine.Game
	// History is set when the position means something only with its game: the draw
	// rules count the moves before it.
	History bool
}

// result is the start of the check of p.
func (p CheckPosition) result(v *engine.Variant) CheckResult {
	pos := p.Game.Position()
	return CheckResult{Name: "move", Variant: v.Name, Position: p.Name, FEN: v.FEN(pos), History: p.Game.Ply()}
}

// checkSeed fixes the games CheckPositions draws its positions from.
const checkSeed = 2026

// CheckPositions returns the positions Check sends for v, always the same ones: the start
// position, and from random games of a fixed seed the position with the most legal
// captures, the one with the longest capture, one where a man can promote, one with a
// single legal move, and one a move away from a draw by the variant's rules (with its
// game), as far as the games hold them.
func CheckPositions(v *engine.Variant) []CheckPosition {
	rng := rand.New(rand.NewPCG(checkSeed, uint64(len(v.Name))))
	out := []CheckPosition{{Name: "start", Game: engine.NewGame(v, v.Start())}}
	var many, long, promo, one, draw *engine.Game
	bestMany, bestLong := 1, 1
	drawReason := ""
	snapshot := func(g *engine.Game, plies int) *engine.Game {
		s := engine.NewGame(v, g.Start())
		for _, m := range g.Moves()[:plies] {
			if err := s.Play(m); err != nil {
				panic(err) // replaying the game's own moves
			}
		}
		return s
	}
	for i := 0; i < 200 && (i < 40 || draw == nil || promo == nil || one == nil); i++ {
		g := engine.NewGame(v, v.Start())
		for g.Ply() < 400 && !g.Outcome().Over {
			legal := g.Legal()
			caps, longest, promotes := 0, 0, false
			for _, m := range legal {
				if m.IsCapture() {
					caps++
					longest = max(longest, m.CaptureCount())
				}
				promotes = promotes || m.Promotes()
			}
			if caps > bestMany {
				bestMany, many = caps, snapshot(g, g.Ply())
			}
			if longest > bestLong {
				bestLong, long = longest, snapshot(g, g.Ply())
			}
			if promotes && promo == nil {
				promo = snapshot(g, g.Ply())
			}
			if len(legal) == 1 && one == nil && g.Ply() > 0 {
				one = snapshot(g, g.Ply())
			}
			m := legal[rng.IntN(len(legal))]
			if hunt := i >= 40 && draw == nil; hunt && !m.IsCapture() {
				// after the first games, kings shuffle when they can: the draw rules'
				// counters and repetitions come within reach
				p := g.Position()
				var kings []engine.Move
				for _, q := range legal {
					if _, king, _ := p.At(q.From); king && !q.IsCapture() {
						kings = append(kings, q)
					}
				}
				if len(kings) > 0 {
					m = kings[rng.IntN(len(kings))]
				}
			}
			if err := g.Play(m); err != nil {
				panic(err) // a legal move
			}
		}
		if o := g.Outcome(); o.Draw && draw == nil {
			draw, drawReason = snapshot(g, g.Ply()-1), o.Reason
		}
	}
	add := func(name string, g *engine.Game) {
		if g != nil {
			out = append(out, CheckPosition{Name: name, Game: g})
		}
	}
	add(fmt.Sprintf("captures (%d choices)", bestMany), many)
	add(fmt.Sprintf("long capture (%d pieces)", bestLong), long)
	add("promotion", promo)
	add("one legal move", one)
	if draw == nil {
		draw, drawReason = kingShuffle(v)
	}
	if draw != nil {
		out = append(out, CheckPosition{Name: "a move from a draw (" + drawReason + ")", Game: draw, History: true})
	}
	return out
}

// kingShuffle returns a game one move from a draw by v's rules, and the draw's reason,
// for a variant whose random games reach none: two kings of each side, White's on the
// first playing squares and Black's on the last (or a few squares in, when that fails),
// move to and fro (the first quiet king move, then back) until the rules draw (a
// repetition, or a king-move counter). nil when a capture comes up, a king cannot go back,
// the position of kings is over (a variant won by a king), or no draw comes within 400
// plies, for every placement tried.
func kingShuffle(v *engine.Variant) (*engine.Game, string) {
	n := v.Squares()
	// the first placement that works: the kings a few squares in from the ends
	for shift := range 4 {
		var p engine.Position
		for k, s := range []int{1 + shift, 2 + shift, n - 1 - shift, n - shift} {
			i, ok := v.Index(engine.Square(s))
			if !ok {
				return nil, ""
			}
			p.Put(i, map[bool]engine.Color{true: engine.White, false: engine.Black}[k < 2], true)
		}
		p.Side = v.FirstMover
		p.Hash = p.ComputeHash()
		if g, reason := shuffleKings(v, p); g != nil {
			return g, reason
		}
	}
	return nil, ""
}

// shuffleKings plays kingShuffle's moves from p.
func shuffleKings(v *engine.Variant, p engine.Position) (*engine.Game, string) {
	g := engine.NewGame(v, p)
	var out [2]engine.Move // each side's move out, played back on its next turn
	for ply := 0; ply < 400; ply++ {
		if o := g.Outcome(); o.Over {
			if !o.Draw || ply == 0 {
				return nil, ""
			}
			s := engine.NewGame(v, p)
			for _, m := range g.Moves()[:ply-1] {
				if err := s.Play(m); err != nil {
					panic(err) // replaying the game's own moves
				}
			}
			return s, o.Reason
		}
		legal := g.Legal()
		side := ply % 2
		var m engine.Move
		found := false
		for _, q := range legal {
			if q.IsCapture() {
				return nil, ""
			}
			back := out[side] != (engine.Move{}) && q.From == out[side].To && q.To == out[side].From
			if out[side] == (engine.Move{}) || back {
				m, found = q, true
				break
			}
		}
		if !found {
			return nil, ""
		}
		if out[side] == (engine.Move{}) {
			out[side] = m
		} else {
			out[side] = engine.Move{}
		}
		if err := g.Play(m); err != nil {
			panic(err) // a legal move
		}
	}
	return nil, ""
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// IDText writes the Hub engine's id line's fields, in order.
func (r *CheckReport) IDText() string {
	var b bytes.Buffer
	for _, k := range sortedKeys(r.ID) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%q", k, r.ID[k])
	}
	return b.String()
}
