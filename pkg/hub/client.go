package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rafle/rafle/internal/procgroup"
	"github.com/rafle/rafle/pkg/engine"
)

// The kinds of engine failure. Every error the client returns for a failing engine is an
// *EngineError whose Kind is one of them; errors.Is(err, ErrCrash) and so on tell them
// apart. An Engine is unusable after such an error: Close it and start a new one.
var (
	// ErrCrash: the engine process exited, or closed its output, when an answer was due.
	ErrCrash = errors.New("engine crashed")
	// ErrProtocol: the engine wrote a malformed line, an error message, or a reply that
	// does not belong where it came.
	ErrProtocol = errors.New("protocol error")
	// ErrStall: the engine did not answer in time.
	ErrStall = errors.New("no answer")
	// ErrInterrupted: the engine process was ended by SIGINT, SIGTERM or SIGHUP that rafle
	// did not send (or exited with 128 plus one of them, as a wrapper script whose engine
	// was): a Ctrl-C, timeout(1) or Slurm signalling every process. The engine did not
	// fail; what it was doing was interrupted.
	ErrInterrupted = errors.New("engine stopped by a signal")
	// ErrIllegalMove: the engine played a move that is not legal, or ambiguous. It is
	// engine.ErrIllegalMove, so that ParseMove's errors match it too.
	ErrIllegalMove = engine.ErrIllegalMove
)

// EngineError is a failure of an engine process.
type EngineError struct {
	Engine string // the engine's name (its id name, or its file name)
	Kind   error  // ErrCrash, ErrInterrupted, ErrProtocol, ErrStall or ErrIllegalMove
	Line   string // the offending line the engine wrote, if there is one
	Err    error  // the details, or nil
}

// Error names the engine, the kind of failure, the details and the offending line.
func (e *EngineError) Error() string {
	s := fmt.Sprintf("hub: engine %q: %v", e.Engine, e.Kind)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.Line != "" {
		s += ": line " + strconv.Quote(e.Line)
	}
	return s
}

// Unwrap returns the kind and the details, for errors.Is and errors.As.
func (e *EngineError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// Param is an engine parameter: "param name=... value=... type=... (+ type constraints)",
// with the types bool, int and real (with min= and max=), string and enum (with values=)
// (protocol.txt, initialisation).
type Param struct {
	Name, Value, Type string
	Min, Max          string   // for int and real
	Values            []string // for enum
}

// message returns the "param" line for p.
func (p Param) message() Message {
	m := newMessage("param", "name", p.Name, "value", p.Value)
	if p.Type != "" {
		m.Args = append(m.Args, Arg{Key: "type", Value: p.Type, HasValue: true})
	}
	if p.Min != "" {
		m.Args = append(m.Args, Arg{Key: "min", Value: p.Min, HasValue: true})
	}
	if p.Max != "" {
		m.Args = append(m.Args, Arg{Key: "max", Value: p.Max, HasValue: true})
	}
	if len(p.Values) > 0 {
		m.Args = append(m.Args, Arg{Key: "values", Value: strings.Join(p.Values, " "), HasValue: true})
	}
	return m
}

// parseParam reads a "param" line.
func parseParam(m Message) Param {
	var p Param
	p.Name, _ = m.Get("name")
	p.Value, _ = m.Get("value")
	p.Type, _ = m.Get("type")
	p.Min, _ = m.Get("min")
	p.Max, _ = m.Get("max")
	if vs, ok := m.Get("values"); ok {
		p.Values = strings.Fields(vs)
	}
	return p
}

// Config says how to start an engine.
type Config struct {
	Path string   // the executable
	Args []string // its arguments: Scan needs "hub"
	Dir  string   // its working directory: Scan reads scan.ini and data/ from it
	// Options are sent as "set-param name=... value=..." in order after the handshake; a
	// name the engine did not declare, and "variant" (see Variant), are errors from Start.
	// A Hub-1 engine declares none and gets "set name value".
	Options [][2]string
	// Variant is set through the engine's "variant" parameter when it has one (before the
	// Options); a variant it does not offer is an error from Start. An engine without that
	// parameter plays international draughts only. Nil keeps the engine's default.
	Variant *engine.Variant
	// Stderr receives the engine's standard error (nil: discarded; its last lines are kept
	// for crash reports either way).
	Stderr io.Writer
	// Transcript receives every protocol line, "> " sent and "< " received, after a time
	// stamp (nil: none).
	Transcript io.Writer
	// HandshakeTimeout bounds each step of Start: "hub" to "wait", and "init" to "ready"
	// (0: 10 s). Loading large endgame databases at init may need more.
	HandshakeTimeout time.Duration
	// Grace is how long Think waits for "done" after "stop", and Close for the process to
	// exit after "quit" before it is killed (0: 1 s).
	Grace time.Duration
}

// Engine is a running Hub engine. Its methods must not be called concurrently, except
// Close, which may be called while another method runs (that method then returns an
// error).
type Engine struct {
	cfg     Config
	name    string
	variant *engine.Variant
	hub1    bool
	id      map[string]string
	params  []Param
	stdin   io.WriteCloser
	kill    func()
	group   *procgroup.Group // the engine's processes, when Start started them
	// interrupted is the signal (SIGINT, SIGTERM, SIGHUP) that ended the process from
	// outside, set before exited is closed
	interrupted string
	lines       chan line
	exited      chan struct{} // closed once the process has been reaped and its output handed on
	exitDetail  string        // how the process ended, set before exited is closed
	stderr      *stderrTail
	closing     chan struct{} // closed by Close: deliveries stop and waiting methods return
	closeMu     sync.Once
	err         error // the failure that made the engine unusable
	grace       time.Duration
	writeMu     sync.Mutex // one line at a time on stdin and in the transcript
	logMu       sync.Mutex
	log         io.Writer
	logErr      error
	splitter    lineSplitter
}

// defaultTimeout is the default HandshakeTimeout, defaultGrace the default Grace.
const (
	defaultTimeout = 10 * time.Second
	defaultGrace   = time.Second
	// writeTimeout bounds one write to the engine's input: an engine that leaves a whole
	// pipe buffer unread that long is stalled.
	writeTimeout = 10 * time.Second
	// maxHistory bounds the moves sent with "pos": Scan keeps a game in an array of 1024
	// positions (game.hpp, Game::Size). A longer game is sent from a later position; the
	// engine then misses only repetitions of positions more than 1000 plies back.
	maxHistory = 1000
)

// Start runs the engine and completes the handshake: "hub" (answered by id and param
// lines and "wait"), the variant and the Options, then "init" (answered by "ready"). The
// dialect is recognised from the answer to "hub": Hub 2 (Scan 3.x: "id name=...") or Hub-1
// (Scan 2.0: "name Scan 2.0"). When ctx ends or a step fails the process is killed.
func Start(ctx context.Context, cfg Config) (*Engine, error) {
	e := newEngine(cfg, filepath.Base(cfg.Path))
	var opened []*os.File // closed if a pipe cannot be made
	closeAll := func(fs []*os.File) {
		for _, f := range fs {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		if r, w, err = os.Pipe(); err == nil {
			opened = append(opened, r, w)
		}
		return r, w, err
	}
	inR, inW, err1 := pipe()
	outR, outW, err2 := pipe()
	errR, errW, err3 := pipe()
	if err := errors.Join(err1, err2, err3); err != nil {
		closeAll(opened)
		return nil, fmt.Errorf("hub: start %s: %w", cfg.Path, err)
	}
	e.stdin = inW
	cmd := exec.Command(cfg.Path, cfg.Args...)
	cmd.Dir = cfg.Dir
	// files, not readers and writers: the reaping does not wait for processes that keep
	// the pipes open (a wrapper's children), which the group's end takes care of
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	g, err := procgroup.Start(cmd)
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		closeAll([]*os.File{inW, outR, errR})
		return nil, fmt.Errorf("hub: start %s: %w", cfg.Path, err)
	}
	e.group = g
	e.kill = func() { g.Terminate(e.grace) }
	outDone, errDone := make(chan struct{}), make(chan struct{})
	go func() {
		_, _ = io.Copy(&e.splitter, outR)
		close(outDone)
	}()
	go func() {
		_, _ = io.Copy(e.stderr, errR)
		close(errDone)
	}()
	go func() {
		<-g.Exited()
		// the output the engine wrote before it exited is handed on; a process of its
		// group that keeps the pipes open (a wrapper's child) is ended after Grace
		t := time.NewTimer(e.grace)
		select {
		case <-outDone:
		case <-t.C:
			g.Terminate(e.grace)
			outR.Close() // a process outside the group (setsid) may hold it still
		}
		t.Stop()
		<-outDone
		outR.Close()
		select {
		case <-errDone:
		case <-time.After(e.grace):
		}
		errR.Close()
		e.splitter.flush()
		e.exitDetail = "exited with status 0"
		if err := g.Err(); err != nil {
			e.exitDetail = "exited: " + err.Error()
		}
		if sig, ok := procgroup.Interrupted(g.State()); ok {
			e.interrupted = sig
		}
		close(e.exited)
	}()
	return e.begin(ctx)
}

// Connect completes the handshake (as Start does) with an engine that reads what is written
// to w and writes its answers to r: an engine in the same process (Serve on pipes) or at
// the other end of a connection. Config.Path, Args, Dir and Stderr are not used. Close
// closes w, and r too when it is an io.Closer; an r that is not must reach its end once w
// is closed, or a goroutine stays blocked reading it.
func Connect(ctx context.Context, r io.Reader, w io.WriteCloser, cfg Config) (*Engine, error) {
	name := cfg.Path
	if name == "" {
		name = "engine"
	}
	e := newEngine(cfg, name)
	e.stdin = w
	e.kill = func() {
		w.Close()
		if c, ok := r.(io.Closer); ok {
			c.Close()
		}
	}
	go func() {
		_, err := io.Copy(&e.splitter, r)
		e.splitter.flush()
		e.exitDetail = "closed its output"
		if err != nil {
			e.exitDetail += ": " + err.Error()
		}
		close(e.exited)
	}()
	return e.begin(ctx)
}

// newEngine returns an Engine with cfg's defaults applied, before its transport is set.
func newEngine(cfg Config, name string) *Engine {
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = defaultTimeout
	}
	if cfg.Grace <= 0 {
		cfg.Grace = defaultGrace
	}
	e := &Engine{
		cfg:     cfg,
		name:    name,
		id:      map[string]string{},
		lines:   make(chan line, 16), // at most 16 lines of maxLine bytes wait to be read
		exited:  make(chan struct{}),
		closing: make(chan struct{}),
		grace:   cfg.Grace,
		log:     cfg.Transcript,
		stderr:  &stderrTail{w: cfg.Stderr},
	}
	e.splitter.deliver = e.deliver
	return e
}

// begin runs the handshake; on failure it closes the engine.
func (e *Engine) begin(ctx context.Context) (*Engine, error) {
	if err := e.handshake(ctx); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// deliver hands a line from the engine to the reader, unless the engine is being closed.
func (e *Engine) deliver(l line) {
	e.logLine("< ", l.Text)
	select {
	case e.lines <- l:
	case <-e.closing:
	}
}

// handshake runs the initialisation phase.
func (e *Engine) handshake(ctx context.Context) error {
	timeout := e.cfg.HandshakeTimeout
	if err := e.send("hub"); err != nil {
		return err
	}
	// The answer is id and param lines, then "wait" (Hub 2), or Scan 2.0's "name",
	// "author" and "country" lines, then "wait" (Hub-1). Other lines are not an answer:
	// Scan 2.0 writes a banner ("Scan 2.0 by Fabien Letouzey") at startup, so they are only
	// remembered, and quoted if no "wait" comes; an "error" line fails at once.
	hub2 := false
	var other []string
	timedOut := func() error {
		if len(other) == 0 {
			return e.fail(ErrStall, "", fmt.Errorf("no answer to \"hub\" within %v (%s)", timeout, e.cfg.Path))
		}
		return e.fail(ErrProtocol, other[0], fmt.Errorf("not a Hub engine? no \"wait\" within %v (%s); its first line", timeout, e.cfg.Path))
	}
	err := e.await(ctx, timeout, timedOut, nil, func(l line) (bool, error) {
		m, err := Parse(l.Text)
		if err != nil {
			other = append(other, l.Text)
			return false, nil
		}
		switch m.Command {
		case "id":
			hub2 = true
			for _, a := range m.Args {
				e.id[a.Key] = a.Value
			}
		case "param":
			hub2 = true
			e.params = append(e.params, parseParam(m))
		case "name", "author", "country", "version":
			// Scan 2.0 (Hub-1): one field per line, the value as plain text (main.cpp,
			// hub_loop).
			e.hub1 = true
			e.id[m.Command] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l.Text), m.Command))
		case "wait":
			return true, nil
		case "error":
			return false, e.fail(ErrProtocol, l.Text, errors.New("error in answer to \"hub\" (does the engine need an argument such as \"hub\"?)"))
		default:
			other = append(other, l.Text)
		}
		return false, nil
	})
	if err != nil {
		return err
	}
	if hub2 {
		e.hub1 = false
	}
	if n := e.id["name"]; n != "" {
		e.name = n
	}
	if err := e.configure(); err != nil {
		return err
	}
	if err := e.send("init"); err != nil {
		return err
	}
	// "the engine should initialise its data structures ... it might display some
	// information here, that the GUI should ignore" (protocol.txt): Scan writes "init
	// book", "init eval"; only an error message stops the handshake.
	return e.await(ctx, timeout, e.stalled(`"init"`, timeout), nil, func(l line) (bool, error) {
		m, err := Parse(l.Text)
		switch {
		case err != nil:
			return false, nil
		case m.Command == "ready":
			return true, nil
		case m.Command == "error":
			return false, e.fail(ErrProtocol, l.Text, errors.New("error during initialisation"))
		}
		return false, nil
	})
}

// configure sets the variant and the options.
func (e *Engine) configure() error {
	var variantParam *Param
	for i := range e.params {
		if e.params[i].Name == "variant" {
			variantParam = &e.params[i]
		}
	}
	e.variant = engine.MustLookup("international")
	if variantParam != nil && variantParam.Value != "" {
		if v, err := LookupVariant(variantParam.Value); err == nil {
			e.variant = v
		} else {
			e.variant = nil // a default rafle cannot play; only an explicit Variant will do
		}
	}
	if v := e.cfg.Variant; v != nil {
		name := VariantName(v)
		switch {
		case variantParam == nil && v.Name != "international":
			return fmt.Errorf("hub: engine %q has no variant parameter and plays international draughts only, not %s", e.name, v.Name)
		case variantParam != nil && len(variantParam.Values) > 0 && !slices.Contains(variantParam.Values, name):
			return fmt.Errorf("hub: engine %q does not offer variant %q (%s); it offers %s", e.name, name, v.Name, strings.Join(variantParam.Values, ", "))
		case variantParam != nil:
			if err := e.setParam("variant", name); err != nil {
				return err
			}
		}
		e.variant = v
	}
	for _, o := range e.cfg.Options {
		if o[0] == "variant" {
			return fmt.Errorf("hub: engine %q: set the variant with Config.Variant, not as an option", e.name)
		}
		if !e.hub1 && !slices.ContainsFunc(e.params, func(p Param) bool { return p.Name == o[0] }) {
			names := make([]string, len(e.params))
			for i, p := range e.params {
				names[i] = p.Name
			}
			return fmt.Errorf("hub: engine %q has no parameter %q (it has: %s)", e.name, o[0], strings.Join(names, ", "))
		}
		if err := e.setParam(o[0], o[1]); err != nil {
			return err
		}
	}
	return nil
}

// setParam sends one parameter in the engine's dialect.
func (e *Engine) setParam(name, value string) error {
	if e.hub1 {
		// Scan 2.0: "set <name> <value>", read word by word (main.cpp, hub_loop).
		if strings.ContainsFunc(name+value, func(r rune) bool { return r <= ' ' }) || value == "" {
			return fmt.Errorf("hub: engine %q (Hub-1) cannot take parameter %q = %q: Hub-1 values are single words", e.name, name, value)
		}
		return e.send("set " + name + " " + value)
	}
	return e.send(newMessage("set-param", "name", name, "value", value).String())
}

// ID returns the engine's identification: for Scan 3.1 name, version, author and country.
func (e *Engine) ID() map[string]string { return maps.Clone(e.id) }

// Params returns the parameters the engine declared, in its order, with its default
// values (Hub-1 engines declare none).
func (e *Engine) Params() []Param { return e.params }

// Dialect returns 2 for the Hub protocol version 2 (Scan 3.x) and 1 for Hub-1 (Scan 2.0).
func (e *Engine) Dialect() int {
	if e.hub1 {
		return 1
	}
	return 2
}

// Variant returns the variant the engine plays, or nil when its default is one rafle does
// not know.
func (e *Engine) Variant() *engine.Variant { return e.variant }

// SetTranscript changes where protocol lines are written (nil: nowhere), for instance at
// the start of each game.
func (e *Engine) SetTranscript(w io.Writer) {
	e.logMu.Lock()
	e.log = w
	e.logMu.Unlock()
}

// logLine writes one transcript line; after a write error the transcript stops and Close
// reports the error.
func (e *Engine) logLine(dir, text string) {
	e.logMu.Lock()
	defer e.logMu.Unlock()
	if e.log == nil || e.logErr != nil {
		return
	}
	stamp := time.Now().Format("15:04:05.000")
	if _, err := io.WriteString(e.log, stamp+" "+dir+text+"\n"); err != nil {
		e.logErr = fmt.Errorf("hub: transcript: %w", err)
	}
}

// fail records err as the failure that makes the engine unusable and returns it.
func (e *Engine) fail(kind error, text string, detail error) error {
	err := &EngineError{Engine: e.name, Kind: kind, Line: text, Err: detail}
	if e.err == nil {
		e.err = err
	}
	return err
}

// crashed returns the error for a process that exited when an answer was due.
func (e *Engine) crashed() error {
	detail := e.exitDetail
	if t := e.stderr.text(); t != "" {
		detail += "; stderr ends: " + strconv.Quote(t)
	}
	if e.interrupted != "" {
		return e.fail(ErrInterrupted, "", fmt.Errorf("%s from outside rafle: %s", e.interrupted, detail))
	}
	return e.fail(ErrCrash, "", errors.New(detail))
}

// send writes one line to the engine.
func (e *Engine) send(text string) error { return e.sendLines(text) }

// sendLines writes lines to the engine in one write, each logged in the transcript. A
// search's lines (pos, level, go) go together: written one by one, the engine woken by the
// first could take the processor before the next, and on a loaded machine the referee's
// "go" was seen up to 206 ms after its "pos", time charged to the engine's clock (a match
// at 1 s + 0.1 s, two games at once on 2 cores under a load of 40: 29 of 2254 searches
// had "pos" and "level" more than 5 ms apart).
func (e *Engine) sendLines(texts ...string) error {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	for _, text := range texts {
		e.logLine("> ", text)
	}
	text := strings.Join(texts, "\n")
	setWriteDeadline(e.stdin, time.Now().Add(writeTimeout))
	if _, err := io.WriteString(e.stdin, text+"\n"); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return e.fail(ErrStall, "", fmt.Errorf("does not read its input (%s unread for %v)", strconv.Quote(text), writeTimeout))
		}
		select {
		case <-e.exited:
			return e.crashed()
		case <-time.After(e.grace):
		}
		return e.fail(ErrCrash, "", fmt.Errorf("writing %q: %w", text, err))
	}
	return nil
}

// await hands the engine's lines to handle until it is done or fails. It fails when the
// process exits (ErrCrash), when Close is called, when the timeout passes (timedOut's
// error; no timeout when timedOut is nil) and when ctx ends (ErrStall). With stop set (a
// search), "stop" is sent at *stop (unless it is zero) or when ctx ends, whichever comes
// first, and the end of ctx leaves Grace for the answer.
func (e *Engine) await(ctx context.Context, timeout time.Duration, timedOut func() error, stop *time.Time, handle func(line) (bool, error)) error {
	var expired <-chan time.Time
	if timedOut != nil {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		expired = timer.C
	}
	var stopNow <-chan time.Time
	if stop != nil && !stop.IsZero() {
		timer := time.NewTimer(time.Until(*stop))
		defer timer.Stop()
		stopNow = timer.C
	}
	stopped := false
	sendStop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		return e.send("stop")
	}
	ctxDone := ctx.Done()
	for {
		select {
		case l := <-e.lines:
			if l.TooLong {
				return e.fail(ErrProtocol, l.Text[:80]+"...", errLong)
			}
			if strings.TrimSpace(l.Text) == "" {
				continue
			}
			if done, err := handle(l); done || err != nil {
				return err
			}
		case <-e.exited:
			switch err := e.drain(handle); {
			case err == errDone:
				return nil
			case err != nil:
				return err
			}
			return e.crashed()
		case <-expired:
			return timedOut()
		case <-stopNow:
			stopNow = nil
			if err := sendStop(); err != nil {
				return err
			}
		case <-ctxDone:
			if stop == nil {
				return e.fail(ErrStall, "", fmt.Errorf("no answer: %w", context.Cause(ctx)))
			}
			ctxDone = nil
			if err := sendStop(); err != nil {
				return err
			}
			timer := time.NewTimer(e.grace)
			defer timer.Stop()
			expired = timer.C
			timedOut = func() error {
				return e.fail(ErrStall, "", fmt.Errorf("no \"done\" within %v of \"stop\" (%v)", e.grace, context.Cause(ctx)))
			}
		case <-e.closing:
			return e.fail(ErrCrash, "", errors.New("closed"))
		}
	}
}

// stalled returns the error for an engine that did not answer what within timeout.
func (e *Engine) stalled(what string, timeout time.Duration) func() error {
	return func() error {
		return e.fail(ErrStall, "", fmt.Errorf("no answer to %s within %v (%s)", what, timeout, e.cfg.Path))
	}
}

// drain hands the lines still buffered after the process exited to handle; it returns
// handle's error, or errDone when handle was done.
func (e *Engine) drain(handle func(line) (bool, error)) error {
	for {
		select {
		case l := <-e.lines:
			if l.TooLong || strings.TrimSpace(l.Text) == "" {
				continue
			}
			if done, err := handle(l); err != nil {
				return err
			} else if done {
				return errDone
			}
		default:
			return nil
		}
	}
}

// errLong is the detail of a line longer than maxLine.
var errLong = fmt.Errorf("line longer than %d bytes", maxLine)

// errDone is drain's report that the answer arrived before the process exited.
var errDone = errors.New("done")

// usable returns the error that made the engine unusable, if any.
func (e *Engine) usable() error {
	if e.err != nil {
		return e.err
	}
	select {
	case <-e.closing:
		return fmt.Errorf("hub: engine %q: closed", e.name)
	default:
	}
	return nil
}

// discardPending drops the lines the engine wrote since the last answer (a late pong).
func (e *Engine) discardPending() {
	for {
		select {
		case <-e.lines:
		default:
			return
		}
	}
}

// NewGame tells the engine that the next search belongs to another game ("new-game":
// "indicates that the next search will be unrelated to previous ones (=> clear TT)",
// protocol.txt) and waits until it has done so (ping, pong).
func (e *Engine) NewGame(ctx context.Context) error {
	if err := e.usable(); err != nil {
		return err
	}
	cmd := "new-game"
	if e.hub1 {
		cmd = "new" // Scan 2.0 (main.cpp, hub_loop)
	}
	if err := e.send(cmd); err != nil {
		return err
	}
	return e.Ping(ctx)
}

// Ping sends "ping" and waits for "pong" until ctx ends (an error wrapping ErrStall).
func (e *Engine) Ping(ctx context.Context) error {
	if err := e.usable(); err != nil {
		return err
	}
	e.discardPending()
	if err := e.send("ping"); err != nil {
		return err
	}
	return e.await(ctx, 0, nil, nil, func(l line) (bool, error) {
		return strings.TrimSpace(l.Text) == "pong", nil
	})
}

// Reply is the engine's answer to Think.
type Reply struct {
	Move   engine.Move // the move, legal in the game's position
	Text   string      // the move as the engine wrote it
	Ponder string      // the answer the engine expects, as it wrote it ("" if none)
	Info   Info        // the engine's last search information
	// Elapsed is the move's time at the pipe: from the search's lines written to the answer
	// read, without rafle's own work before and after (formatting the game, checking the
	// move), which a loaded machine can stretch.
	Elapsed time.Duration
}

// Think asks the engine for a move in g's current position within lvl. It sends "pos" with
// the game's start position and its moves (the last 1000 of a longer game), "level" and
// "go think", reads "info" lines until "done", and returns the move, checked against the
// position's legal moves. When ctx ends first it sends "stop" and waits Config.Grace for
// "done" (the engine "is not expected to react instantly, but must still produce a
// "done" answer", protocol.txt): a move that then arrives is returned with a nil error,
// and the caller decides what the time spent means. No answer gives an error wrapping
// ErrStall.
//
// An engine that exits gives ErrCrash; a malformed line, an "error" message (the engine
// rejected the position or the level), or "done" without a move, ErrProtocol; an illegal
// or ambiguous move, ErrIllegalMove. The error text holds the offending line. After such an
// error the Engine is unusable. A Level without any limit, or a game with no legal move or
// of another variant than the engine's, gives an error before anything is sent, and the
// Engine stays usable.
func (e *Engine) Think(ctx context.Context, g *engine.Game, lvl Level) (Reply, error) {
	return e.ThinkUntil(ctx, time.Time{}, g, lvl)
}

// ThinkUntil is Think that sends "stop" at the time stop, if ctx has not ended before: the
// engine then has until ctx ends to answer, and Grace more after that, as Think gives. A
// referee sends "stop" when the player's time is up and lets ctx end when the margin past
// it has gone too, so that an engine that stops only when told (or finishes an iteration
// first, as Scan 2.0 does) answers within the margin. A zero stop is Think.
func (e *Engine) ThinkUntil(ctx context.Context, stop time.Time, g *engine.Game, lvl Level) (Reply, error) {
	stopAt := stop
	if err := e.usable(); err != nil {
		return Reply{}, err
	}
	v := g.Variant()
	switch {
	case lvl.isZero():
		return Reply{}, errors.New("hub: the level sets no limit (set Infinite to search until stopped)")
	case e.hub1 && lvl.Nodes > 0:
		return Reply{}, fmt.Errorf("hub: engine %q speaks Hub-1, which has no node limit", e.name)
	case e.variant == nil:
		return Reply{}, fmt.Errorf("hub: engine %q plays a variant rafle does not know; set Config.Variant", e.name)
	case v != e.variant:
		return Reply{}, fmt.Errorf("hub: the game is %s but engine %q plays %s", v.Name, e.name, e.variant.Name)
	}
	legal := g.Legal()
	if len(legal) == 0 {
		return Reply{}, errors.New("hub: the game's position has no legal move")
	}
	if err := ctx.Err(); err != nil {
		return Reply{}, err
	}
	e.discardPending()
	if err := e.sendLines(e.searchLines(g, lvl)...); err != nil {
		return Reply{}, err
	}
	sent := time.Now()

	p := g.Position()
	var rep Reply
	handle := func(l line) (done bool, err error) {
		if e.hub1 {
			done, err = e.hub1Line(l, v, &p, legal, &rep)
		} else {
			done, err = e.hub2Line(l, v, &p, legal, &rep)
		}
		if done && !l.At.IsZero() {
			rep.Elapsed = max(l.At.Sub(sent), 0)
		}
		return done, err
	}
	if err := e.await(ctx, 0, nil, &stopAt, handle); err != nil {
		return Reply{}, err
	}
	return rep, nil
}

// searchLines returns the lines that start a search of g's position within lvl.
func (e *Engine) searchLines(g *engine.Game, lvl Level) []string {
	v := g.Variant()
	positions, moves := g.Positions(), g.Moves()
	first := max(0, len(moves)-maxHistory)
	start := positions[first]
	texts := make([]string, 0, len(moves)-first)
	for i := first; i < len(moves); i++ {
		texts = append(texts, FormatMove(v, &positions[i], moves[i]))
	}
	if e.hub1 {
		// Scan 2.0 (main.cpp, hub_loop): "pos <position>" with the side in lower case (it
		// also resets the limits), one "move <move>" per move, "depth <plies>", "time <ms
		// per move>", "level <moves> <ms> <increment ms>", then "go".
		pos := FormatPosition(v, &start)
		out := []string{"pos " + strings.ToLower(pos[:1]) + pos[1:]}
		for _, t := range texts {
			out = append(out, "move "+t)
		}
		if lvl.Depth > 0 {
			out = append(out, "depth "+strconv.Itoa(lvl.Depth))
		}
		if lvl.MoveTime > 0 {
			out = append(out, "time "+strconv.FormatInt(lvl.MoveTime.Milliseconds(), 10))
		}
		if lvl.clock() {
			out = append(out, fmt.Sprintf("level %d %d %d", lvl.Moves, lvl.Time.Milliseconds(), lvl.Inc.Milliseconds()))
		}
		return append(out, "go")
	}
	pos := newMessage("pos", "pos", FormatPosition(v, &start))
	if len(texts) > 0 {
		pos.Args = append(pos.Args, Arg{Key: "moves", Value: strings.Join(texts, " "), HasValue: true})
	}
	// Scan resets the level at "pos", so "level" comes after it (main.cpp, hub_loop).
	return []string{pos.String(), lvl.message().String(), "go think"}
}

// hub2Line handles one line of a Hub 2 search.
func (e *Engine) hub2Line(l line, v *engine.Variant, p *engine.Position, legal []engine.Move, rep *Reply) (bool, error) {
	m, err := Parse(l.Text)
	if err != nil {
		return false, e.fail(ErrProtocol, l.Text, err)
	}
	switch m.Command {
	case "info":
		rep.Info = parseInfo(m)
	case "done":
		text, ok := m.Get("move")
		if !ok || text == "" {
			return false, e.fail(ErrProtocol, l.Text, errors.New("\"done\" without a move"))
		}
		rep.Ponder, _ = m.Get("ponder")
		return true, e.resolve(l, v, p, legal, text, rep)
	case "error":
		msg, _ := m.Get("message")
		return false, e.fail(ErrProtocol, l.Text, fmt.Errorf("the engine reports an error: %s", msg))
	}
	return false, nil // "pong", and what the protocol says to ignore
}

// hub1Line handles one line of a Hub-1 search (Scan 2.0, main.cpp and search.cpp): "info
// <depth> <mean depth> <score in centi-men> <nodes> <seconds> <Mnps> <pv...>", "move <move>
// [<ponder>]", "error <text>"; Scan 2.0 also echoes input during a search as "input
// "<line>"", which is ignored with everything else.
func (e *Engine) hub1Line(l line, v *engine.Variant, p *engine.Position, legal []engine.Move, rep *Reply) (bool, error) {
	f := strings.Fields(l.Text)
	switch f[0] {
	case "info":
		var in Info
		if len(f) >= 7 {
			in.Depth, _ = strconv.Atoi(f[1])
			in.MeanDepth, _ = strconv.ParseFloat(f[2], 64)
			if cs, err := strconv.Atoi(f[3]); err == nil {
				in.Score, in.HasScore = float64(cs)/100, true
			}
			in.Nodes, _ = strconv.ParseInt(f[4], 10, 64)
			in.Time, _ = parseSeconds(f[5])
			in.PV = strings.Join(f[7:], " ")
		}
		rep.Info = in
	case "move":
		if len(f) < 2 {
			return false, e.fail(ErrProtocol, l.Text, errors.New("\"move\" without a move"))
		}
		if len(f) > 2 {
			rep.Ponder = f[2]
		}
		return true, e.resolve(l, v, p, legal, f[1], rep)
	case "error":
		return false, e.fail(ErrProtocol, l.Text, errors.New("the engine reports an error"))
	}
	return false, nil
}

// resolve parses the engine's move and checks it against the legal moves.
func (e *Engine) resolve(l line, v *engine.Variant, p *engine.Position, legal []engine.Move, text string, rep *Reply) error {
	m, err := ParseMove(v, p, text)
	switch {
	case errors.Is(err, engine.ErrInvalidMove):
		return e.fail(ErrProtocol, l.Text, err)
	case err != nil:
		return e.fail(ErrIllegalMove, l.Text, err)
	case !slices.Contains(legal, m):
		return e.fail(ErrIllegalMove, l.Text, fmt.Errorf("%s breaks the limit on king moves", text))
	}
	rep.Move, rep.Text = m, text
	return nil
}

// Close ends the engine: "quit" (and the end of its input, which "the engine should
// assume [means] that the GUI has crashed and, therefore, quit as directly as possible",
// protocol.txt), then, once the process has exited or Config.Grace has passed, SIGTERM to
// its process group (Start runs the engine in a group of its own, so that a wrapper's
// children end with it) and SIGKILL after Grace more. It reaps the process and leaves no
// goroutine behind. It returns the transcript's write error, if there was one; calling it
// again does nothing.
func (e *Engine) Close() error {
	e.closeMu.Do(func() {
		close(e.closing)
		// quit, unless another line is being written (a stalled engine): closing the
		// input then ends that write, and the engine is killed below
		if e.writeMu.TryLock() {
			e.logLine("> ", "quit")
			setWriteDeadline(e.stdin, time.Now().Add(e.grace))
			_, _ = io.WriteString(e.stdin, "quit\n")
			e.writeMu.Unlock()
		}
		e.stdin.Close()
		// the engine's own process exits, or is ended after Grace; then the rest of its
		// group is ended (a wrapper's children)
		var gone <-chan struct{} = e.exited
		if e.group != nil {
			gone = e.group.Exited()
		}
		t := time.NewTimer(e.grace)
		defer t.Stop()
		select {
		case <-gone:
		case <-t.C:
		}
		e.kill()
		<-e.exited
	})
	e.logMu.Lock()
	defer e.logMu.Unlock()
	return e.logErr
}

// setWriteDeadline sets a deadline on w's writes when it has them (pipes do on most
// systems).
func setWriteDeadline(w io.Writer, t time.Time) {
	if d, ok := w.(interface{ SetWriteDeadline(time.Time) error }); ok {
		_ = d.SetWriteDeadline(t)
	}
}

// stderrTail passes the engine's standard error on and keeps its end for crash reports.
type stderrTail struct {
	mu   sync.Mutex
	w    io.Writer
	bad  bool
	tail []byte
}

// stderrKeep is how many bytes of the engine's standard error a crash report quotes.
const stderrKeep = 300

// Write never fails, so that a failing destination cannot block the engine.
func (s *stderrTail) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.w != nil && !s.bad {
		if _, err := s.w.Write(p); err != nil {
			s.bad = true
		}
	}
	s.tail = append(s.tail, p...)
	if len(s.tail) > stderrKeep {
		s.tail = append(s.tail[:0], s.tail[len(s.tail)-stderrKeep:]...)
	}
	return len(p), nil
}

// text returns the kept end of the standard error.
func (s *stderrTail) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.TrimSpace(string(s.tail))
}
