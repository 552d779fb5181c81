package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/rafle/rafle/pkg/engine"
)

// Searcher is what Serve plays with: one per variant, created at "init".
type Searcher interface {
	// NewGame forgets what the searcher learnt in earlier games ("new-game").
	NewGame()
	// Think chooses a move in g's current position within lvl (a zero Level when the GUI
	// set none: search until stopped), calling info with its progress (PV in Hub notation,
	// FormatMove); info is ignored once Think has returned. Think must return soon after
	// ctx ends ("stop"), with its best move so far, or with ctx's error when it has none.
	Think(ctx context.Context, g *engine.Game, lvl Level, info func(Info)) (engine.Move, error)
}

// ServerConfig describes the engine Serve presents.
type ServerConfig struct {
	// ID is sent as "id key=value ...", in order: name, version, author, country.
	ID [][2]string
	// Variants are offered as the enum parameter "variant" under their Hub names
	// (VariantName); the first is the default. At least one is needed.
	Variants []*engine.Variant
	// New creates the searcher for a variant, at "init" (or at the first search).
	New func(v *engine.Variant) (Searcher, error)
	// Params are further parameters declared after "variant"; "set-param" for any of
	// them calls SetParam, whose error is reported to the GUI with an "error" line. After
	// a parameter is set, the searcher is made anew (New, at the next "init" or search),
	// so that it sees the value.
	Params   []Param
	SetParam func(name, value string) error
}

// Serve speaks Hub as an engine on r and w until "quit", the end of r, or the end of ctx;
// it returns nil after "quit" or the end of r, ctx's error when ctx ends, and the first
// error writing to w (which also stops it). Searches run in a goroutine, so that "ping"
// (answered "pong"), "stop" and "ponder-hit" are heard while the engine thinks; any other
// command during a search stops it first, as Scan does. Unknown commands and arguments are
// ignored ("Both the engine and the GUI should ignore commands and arguments that they
// don't understand", protocol.txt); malformed lines and bad values are answered with
// "error message=...". A position or a move that cannot be read leaves the game as it was
// before it (Scan 3.1 does the same). When Serve returns because ctx ended, a goroutine
// may still be blocked reading r until r returns; closing r releases it.
func Serve(ctx context.Context, r io.Reader, w io.Writer, cfg ServerConfig) error {
	if len(cfg.Variants) == 0 || cfg.New == nil {
		return errors.New("hub: ServerConfig needs Variants and New")
	}
	s := &server{cfg: cfg, w: w, variant: cfg.Variants[0], failed: make(chan error, 1)}
	s.game = engine.NewGame(s.variant, s.variant.Start())
	lines := make(chan line, 16)
	readDone := make(chan struct{})
	defer close(readDone)
	go func() {
		sp := lineSplitter{deliver: func(l line) {
			select {
			case lines <- l:
			case <-readDone:
			}
		}}
		_, _ = io.Copy(&sp, r) // a read error ends the input like EOF
		sp.flush()
		close(lines)
	}()
	defer s.stopSearch()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-s.failed:
			return err
		case l, ok := <-lines:
			if !ok {
				return s.writeErr()
			}
			if quit := s.handle(ctx, l); quit {
				return s.writeErr()
			}
		}
	}
}

// server is the state of one Serve call.
type server struct {
	cfg      ServerConfig
	variant  *engine.Variant
	searcher Searcher // nil until init, and again after the variant changes
	game     *engine.Game
	level    Level

	wmu      sync.Mutex
	w        io.Writer
	werr     error
	failed   chan error // receives the first write error
	thinking bool       // a search is running; its info lines may be written

	cancel context.CancelFunc // stops the running search
	done   chan struct{}      // closed when the running search has written "done"
}

// write sends one line; after the first error it writes nothing more.
func (s *server) write(m Message) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.writeLocked(m)
}

func (s *server) writeLocked(m Message) {
	if s.werr != nil {
		return
	}
	if _, err := io.WriteString(s.w, m.String()+"\n"); err != nil {
		s.werr = fmt.Errorf("hub: writing %q: %w", m.Command, err)
		s.failed <- s.werr
	}
}

func (s *server) writeErr() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.werr
}

// errorf answers with "error message=...".
func (s *server) errorf(format string, args ...any) {
	s.write(newMessage("error", "message", fmt.Sprintf(format, args...)))
}

// handle carries out one line; it reports whether the session ends.
func (s *server) handle(ctx context.Context, l line) bool {
	if l.TooLong {
		s.errorf("line longer than %d bytes", maxLine)
		return false
	}
	m, err := Parse(l.Text)
	if err != nil {
		if strings.TrimSpace(l.Text) == "" {
			s.errorf("missing command") // Scan 3.1's answer to an empty line
		} else {
			s.errorf("%v", err)
		}
		return false
	}
	switch m.Command {
	case "ping":
		s.write(Message{Command: "pong"})
		return false
	case "stop":
		s.stopSearch()
		return false
	case "ponder-hit":
		return false // a ponder search is a normal search here: nothing changes
	case "quit":
		return true
	}
	s.stopSearch() // "The only commands that the engine can receive during search are: ping, ponder-hit, stop"
	switch m.Command {
	case "hub":
		s.hello()
	case "set-param":
		s.setParam(m)
	case "init":
		if s.ready() {
			s.write(Message{Command: "ready"})
		}
	case "new-game":
		if s.ready() {
			s.searcher.NewGame()
		}
	case "pos":
		s.position(m)
	case "level":
		if err := s.level.update(m); err != nil {
			s.errorf("level: %v", err)
		}
	case "go":
		if s.ready() {
			s.startSearch(ctx)
		}
	}
	return false
}

// hello answers "hub": id, the parameters, wait.
func (s *server) hello() {
	id := Message{Command: "id"}
	for _, kv := range s.cfg.ID {
		id.Args = append(id.Args, Arg{Key: kv[0], Value: kv[1], HasValue: true})
	}
	s.write(id)
	names := make([]string, len(s.cfg.Variants))
	for i, v := range s.cfg.Variants {
		names[i] = VariantName(v)
	}
	s.write(Param{Name: "variant", Value: VariantName(s.variant), Type: "enum", Values: names}.message())
	for _, p := range s.cfg.Params {
		s.write(p.message())
	}
	s.write(Message{Command: "wait"})
}

// setParam handles "set-param name=... value=...".
func (s *server) setParam(m Message) {
	name, _ := m.Get("name")
	value, _ := m.Get("value")
	switch {
	case name == "":
		s.errorf("missing name") // Scan 3.1's message
	case name == "variant":
		i := slices.IndexFunc(s.cfg.Variants, func(v *engine.Variant) bool { return VariantName(v) == value })
		if i < 0 {
			s.errorf("unknown variant %q", value)
			return
		}
		if v := s.cfg.Variants[i]; v != s.variant {
			s.variant, s.searcher = v, nil
			s.game = engine.NewGame(v, v.Start())
		}
	case s.cfg.SetParam != nil && slices.ContainsFunc(s.cfg.Params, func(p Param) bool { return p.Name == name }):
		if err := s.cfg.SetParam(name, value); err != nil {
			s.errorf("%s: %v", name, err)
			return
		}
		s.searcher = nil
	}
}

// ready creates the searcher if there is none yet; it reports whether there is one.
func (s *server) ready() bool {
	if s.searcher != nil {
		return true
	}
	sr, err := s.cfg.New(s.variant)
	if err != nil {
		s.errorf("init: %v", err)
		return false
	}
	s.searcher = sr
	return true
}

// position handles "pos [start] [pos=...] [moves=...]". Like Scan, it resets the level.
func (s *server) position(m Message) {
	s.level = Level{}
	v := s.variant
	start := v.Start()
	if text, ok := m.Get("pos"); ok {
		p, err := ParsePosition(v, text)
		if err != nil {
			s.errorf("bad position: %v", err)
			return
		}
		start = p
	}
	g := engine.NewGame(v, start)
	moves, _ := m.Get("moves")
	for _, text := range strings.Fields(moves) {
		p := g.Position()
		mv, err := ParseMove(v, &p, text)
		if err == nil {
			err = g.Play(mv)
		}
		if err != nil {
			s.errorf("bad move %s: %v", text, err)
			return
		}
	}
	s.game = g
}

// startSearch launches the search of the current position with the current level.
func (s *server) startSearch(ctx context.Context) {
	sctx, cancel := context.WithCancel(ctx)
	s.cancel, s.done = cancel, make(chan struct{})
	g, lvl, sr, done := s.game, s.level, s.searcher, s.done
	s.level = Level{} // Scan resets the level after each search (main.cpp, hub_loop)
	s.wmu.Lock()
	s.thinking = true
	s.wmu.Unlock()
	go func() {
		defer close(done)
		s.search(sctx, g, lvl, sr)
	}()
}

// stopSearch stops the running search, if any, and waits until it has answered.
func (s *server) stopSearch() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	<-s.done
	s.cancel, s.done = nil, nil
}

// search runs one search and answers "done move=... ponder=...". A searcher that fails,
// or that is stopped before it has a move, is answered for with the first legal move (as
// Scan plays its "quick move"), since the protocol requires an answer.
func (s *server) search(ctx context.Context, g *engine.Game, lvl Level, sr Searcher) {
	v := g.Variant()
	p := g.Position()
	legal := g.Legal()
	var last Info
	report := func(in Info) {
		s.wmu.Lock()
		defer s.wmu.Unlock()
		if s.thinking {
			last = in
			s.writeLocked(in.message())
		}
	}
	done := Message{Command: "done"}
	if len(legal) > 0 {
		mv, err := sr.Think(ctx, g, lvl, report)
		s.wmu.Lock()
		s.thinking = false // info reported from now on is dropped
		pv := last.PV
		s.wmu.Unlock()
		if err == nil && !slices.Contains(legal, mv) {
			err = fmt.Errorf("searcher chose %s, not a legal move", v.FormatMove(&p, mv, true))
		}
		if err != nil {
			if ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
				s.errorf("search: %v", err)
			}
			mv = legal[0]
		}
		text := FormatMove(v, &p, mv)
		done.Args = append(done.Args, Arg{Key: "move", Value: text, HasValue: true})
		if ponder := ponderMove(v, p.Play(mv), text, pv); ponder != "" {
			done.Args = append(done.Args, Arg{Key: "ponder", Value: ponder, HasValue: true})
		}
	}
	s.wmu.Lock()
	s.thinking = false
	s.writeLocked(done)
	s.wmu.Unlock()
}

// ponderMove returns the expected answer: the second move of pv when pv starts with the
// move played and the second move is legal after it, in Hub notation.
func ponderMove(v *engine.Variant, after engine.Position, played, pv string) string {
	f := strings.Fields(pv)
	if len(f) < 2 || f[0] != played {
		return ""
	}
	m, err := ParseMove(v, &after, f[1])
	if err != nil {
		return ""
	}
	return FormatMove(v, &after, m)
}
