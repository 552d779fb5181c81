package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/hub"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// fake is the engine's state.
type fake struct {
	variants                                     []string
	name                                         string
	slow                                         time.Duration
	split, hub1, noHub, wrongProtocol, ambig     bool
	crashAt, hangAt, illegalAt, garbageAt, errAt int
	signalAt                                     int
	busy                                         time.Duration
	rng                                          *rand.Rand

	out    io.Writer
	stderr io.Writer
	in     <-chan string // nil after the end of the input
	v      *engine.Variant
	game   *engine.Game
	moves  int // searches so far
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := &fake{out: stdout, stderr: stderr}
	fs := flag.NewFlagSet("hubfake", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variants := fs.String("variants", "normal", "variants offered, Hub names separated by commas")
	fs.StringVar(&f.name, "name", "hubfake", "id name")
	seed := fs.Uint64("seed", 0, "random moves from this seed (0: the first legal move)")
	fs.DurationVar(&f.slow, "slow", 0, "think this long before answering")
	fs.BoolVar(&f.split, "split", false, "write replies in several small writes")
	fs.BoolVar(&f.hub1, "hub1", false, "speak Hub-1 (Scan 2.0)")
	fs.BoolVar(&f.noHub, "no-hub", false, "never answer the handshake")
	fs.BoolVar(&f.wrongProtocol, "wrong-protocol", false, "answer hub with another protocol")
	fs.IntVar(&f.crashAt, "crash-at", 0, "exit at the nth search")
	fs.IntVar(&f.hangAt, "hang-at", 0, "stop answering at the nth search")
	fs.IntVar(&f.illegalAt, "illegal-at", 0, "play an illegal move at the nth search")
	fs.IntVar(&f.garbageAt, "garbage-at", 0, "write a malformed line at the nth search")
	fs.IntVar(&f.errAt, "error-at", 0, "write an error message at the nth search")
	fs.BoolVar(&f.ambig, "ambiguous", false, "write ambiguous captures where possible")
	fs.IntVar(&f.signalAt, "signal-at", 0, "kill itself with SIGTERM at the nth search")
	fs.DurationVar(&f.busy, "busy", 0, "search at least this long before reading stop")
	pidFile := fs.String("pid-file", "", "write the process id to this file")
	serve := fs.Bool("serve", false, "run hub.Serve")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *pidFile != "" {
		if err := os.WriteFile(*pidFile, []byte(fmt.Sprintf("%d\n", os.Getpid())), 0o666); err != nil {
			fmt.Fprintln(stderr, "hubfake:", err)
			return 2
		}
	}
	if *variants != "" {
		f.variants = strings.Split(*variants, ",")
	}
	if *seed != 0 {
		f.rng = rand.New(rand.NewPCG(*seed, 0))
	}
	name := "normal"
	if len(f.variants) > 0 && !f.hub1 {
		name = f.variants[0]
	}
	v, err := hub.LookupVariant(name)
	if err != nil {
		fmt.Fprintln(stderr, "hubfake:", err)
		return 2
	}
	f.setVariant(v)
	if *serve {
		return f.serve(stdin, stdout, stderr)
	}

	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	f.in = lines
	for text := range lines {
		if quit := f.handle(text); quit {
			return 0
		}
	}
	return 0
}

func (f *fake) setVariant(v *engine.Variant) {
	f.v = v
	f.game = engine.NewGame(v, v.Start())
}

// say writes one line, in small pieces with -split.
func (f *fake) say(format string, args ...any) {
	b := []byte(fmt.Sprintf(format, args...) + "\n")
	if !f.split {
		f.out.Write(b)
		return
	}
	for len(b) > 0 {
		n := min(3, len(b))
		f.out.Write(b[:n])
		b = b[n:]
		time.Sleep(200 * time.Microsecond)
	}
}

// handle carries out one command; it reports whether to quit.
func (f *fake) handle(text string) bool {
	if f.hub1 {
		return f.handleHub1(text)
	}
	m, err := hub.Parse(text)
	if err != nil {
		f.say("%s", hub.Message{Command: "error", Args: []hub.Arg{{Key: "message", Value: err.Error(), HasValue: true}}})
		return false
	}
	switch m.Command {
	case "hub":
		if f.answersHub() {
			f.say("id name=%s version=1.0 author=\"rafle tests\"", quote(f.name))
			if len(f.variants) > 0 {
				f.say("param name=variant value=%s type=enum values=\"%s\"", f.variants[0], strings.Join(f.variants, " "))
			}
			f.say("param name=hash value=16 type=int min=1 max=1024")
			f.say("wait")
		}
	case "set-param":
		name, _ := m.Get("name")
		value, _ := m.Get("value")
		if name == "variant" {
			v, err := hub.LookupVariant(value)
			if err != nil || !slices.Contains(f.variants, value) {
				f.errorf("unknown variant %q", value)
				return false
			}
			f.setVariant(v)
		}
	case "init":
		f.say("init tables") // information the GUI should ignore, as Scan writes "init eval"
		f.say("ready")
	case "ping":
		f.say("pong")
	case "pos":
		start := f.v.Start()
		if text, ok := m.Get("pos"); ok {
			p, err := hub.ParsePosition(f.v, text)
			if err != nil {
				f.errorf("bad position")
				return false
			}
			start = p
		}
		moves, _ := m.Get("moves")
		f.replay(start, strings.Fields(moves))
	case "go":
		return f.search()
	case "quit":
		return true
	}
	return false
}

// answersHub reports whether to answer "hub"; with -wrong-protocol it writes the wrong
// answer first.
func (f *fake) answersHub() bool {
	if f.wrongProtocol {
		f.say("uciok")
	}
	return !f.noHub && !f.wrongProtocol
}

// replay sets the game to start and the moves; a bad move stops it there.
func (f *fake) replay(start engine.Position, moves []string) bool {
	g := engine.NewGame(f.v, start)
	f.game = g
	for _, text := range moves {
		p := g.Position()
		m, err := hub.ParseMove(f.v, &p, text)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			f.errorf("illegal move")
			return false
		}
	}
	return true
}

func (f *fake) errorf(format string, args ...any) {
	msg := hub.Message{Command: "error", Args: []hub.Arg{{Key: "message", Value: fmt.Sprintf(format, args...), HasValue: true}}}
	if f.hub1 {
		f.say("error %s", fmt.Sprintf(format, args...))
		return
	}
	f.say("%s", msg)
}

// search answers "go"; it reports whether to quit.
func (f *fake) search() bool {
	f.moves++
	n := f.moves
	switch n {
	case f.crashAt:
		fmt.Fprintf(f.stderr, "hubfake: crashing at search %d\n", n)
		os.Exit(3)
	case f.hangAt:
		for {
			time.Sleep(time.Hour) // never read nor answer again (a sleep, not a deadlock)
		}
	case f.signalAt:
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			p.Signal(syscall.SIGTERM)
		}
		time.Sleep(time.Hour) // the signal's default action ends the process
	}
	if f.busy > 0 {
		time.Sleep(f.busy)
		stopped, quit := f.pending()
		if quit {
			return true
		}
		if stopped {
			return f.reply(f.moves)
		}
	}
	if f.slow > 0 {
		if quit := f.think(f.slow); quit {
			return true
		}
	}
	return f.reply(f.moves)
}

// pending reads the commands that arrived while the search was busy: it reports whether
// one of them stops the search, and whether to quit.
func (f *fake) pending() (stopped, quit bool) {
	for {
		select {
		case text, ok := <-f.in:
			if !ok {
				return true, true
			}
			switch strings.TrimSpace(text) {
			case "ping":
				f.say("pong")
			case "quit":
				return true, true
			case "", "ponder-hit":
			default:
				return true, false
			}
		default:
			return false, false
		}
	}
}

// reply answers the nth search; it reports whether to quit.
func (f *fake) reply(n int) bool {
	p := f.game.Position()
	legal := f.game.Legal()
	if len(legal) == 0 {
		f.answer("", "")
		return false
	}
	m := legal[0]
	if f.rng != nil {
		m = legal[f.rng.IntN(len(legal))]
	}
	text := hub.FormatMove(f.v, &p, m)
	if f.ambig {
		for _, a := range legal {
			if a.IsCapture() && slices.ContainsFunc(legal, func(b engine.Move) bool { return b != a && b.From == a.From && b.To == a.To }) {
				full := hub.FormatMove(f.v, &p, a)
				parts := strings.Split(full, "x")
				m, text = a, parts[0]+"x"+parts[1]
				break
			}
		}
	}
	switch n {
	case f.illegalAt:
		text = illegal(f.v, &p)
	case f.garbageAt:
		f.say(`=garbage "unterminated`)
		return false
	case f.errAt:
		f.errorf("search failed")
		return false
	}
	after := p.Play(m)
	ponder := ""
	if moves := f.v.Generate(nil, &after); len(moves) > 0 {
		ponder = hub.FormatMove(f.v, &after, moves[0])
	}
	if !f.hub1 {
		pv := strings.TrimSpace(text + " " + ponder)
		f.say("info depth=1 score=0.25 nodes=%d time=0.001 pv=\"%s\"", len(legal), pv)
	} else {
		f.say("info 1 1.0 25 %d 0.00 0.0 %s %s", len(legal), text, ponder)
	}
	f.answer(text, ponder)
	return false
}

// answer writes the search's result in the dialect.
func (f *fake) answer(move, ponder string) {
	if f.hub1 {
		f.say("move %s %s", move, ponder)
		return
	}
	switch {
	case move == "":
		f.say("done")
	case ponder == "":
		f.say("done move=%s", move)
	default:
		f.say("done move=%s ponder=%s", move, ponder)
	}
}

// think waits d, answering ping, until "stop" or any other command arrives (handled after
// the search, as Scan does, except quit); it reports whether to quit.
func (f *fake) think(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return false
		case text, ok := <-f.in:
			if !ok {
				return true
			}
			fields := strings.Fields(text)
			if len(fields) == 0 {
				continue
			}
			switch fields[0] {
			case "ping":
				f.say("pong")
			case "ponder-hit":
			case "quit":
				return true
			default:
				return false // stop, or a command that stops the search (it is dropped)
			}
		}
	}
}

// illegal returns a well-formed quiet move from a piece of the side to move to an empty
// square that is not legal in p.
func illegal(v *engine.Variant, p *engine.Position) string {
	for from := engine.Square(1); int(from) <= v.Squares(); from++ {
		i, _ := v.Index(from)
		if c, _, ok := p.At(i); !ok || c != p.Side {
			continue
		}
		for to := engine.Square(1); int(to) <= v.Squares(); to++ {
			j, _ := v.Index(to)
			if _, _, ok := p.At(j); ok {
				continue
			}
			text := fmt.Sprintf("%d-%d", from, to)
			if _, err := hub.ParseMove(v, p, text); errors.Is(err, hub.ErrIllegalMove) {
				return text
			}
		}
	}
	return "1-2"
}

// quote quotes a value for a Hub line when it needs it.
func quote(s string) string {
	if s == "" || strings.ContainsAny(s, " \t=\"") {
		return `"` + s + `"`
	}
	return s
}

// handleHub1 carries out one Hub-1 command (Scan 2.0, main.cpp, hub_loop).
func (f *fake) handleHub1(text string) bool {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return false
	}
	arg := ""
	if len(fields) > 1 {
		arg = fields[1]
	}
	switch fields[0] {
	case "hub":
		if f.answersHub() {
			f.say("name %s 1.0", f.name)
			f.say("author rafle tests")
			f.say("country Nowhere")
			f.say("wait")
		}
	case "init":
		f.say("init eval")
		f.say("ready")
	case "ping":
		f.say("pong")
	case "start":
		f.setVariant(f.v)
	case "pos":
		p, err := hub.ParsePosition(f.v, arg)
		if err != nil || arg[0] != 'w' && arg[0] != 'b' {
			f.errorf("bad position")
			return false
		}
		f.game = engine.NewGame(f.v, p)
	case "move":
		p := f.game.Position()
		m, err := hub.ParseMove(f.v, &p, arg)
		if err == nil {
			err = f.game.Play(m)
		}
		if err != nil {
			f.errorf("illegal move")
		}
	case "go":
		return f.search()
	case "quit":
		return true
	}
	return false
}

// serve runs hub.Serve with a searcher that plays like the fake.
func (f *fake) serve(stdin io.Reader, stdout, stderr io.Writer) int {
	var variants []*engine.Variant
	for _, name := range f.variants {
		v, err := hub.LookupVariant(name)
		if err != nil {
			fmt.Fprintln(stderr, "hubfake:", err)
			return 2
		}
		variants = append(variants, v)
	}
	cfg := hub.ServerConfig{
		ID:       [][2]string{{"name", f.name}, {"version", "1.0"}},
		Variants: variants,
		New: func(*engine.Variant) (hub.Searcher, error) {
			return &searcher{rng: f.rng, slow: f.slow}, nil
		},
	}
	if err := hub.Serve(context.Background(), stdin, stdout, cfg); err != nil {
		fmt.Fprintln(stderr, "hubfake:", err)
		return 1
	}
	return 0
}

// searcher is the -serve mode's hub.Searcher.
type searcher struct {
	rng  *rand.Rand
	slow time.Duration
}

func (s *searcher) NewGame() {}

func (s *searcher) Think(ctx context.Context, g *engine.Game, _ hub.Level, info func(hub.Info)) (engine.Move, error) {
	legal := g.Legal()
	m := legal[0]
	if s.rng != nil {
		m = legal[s.rng.IntN(len(legal))]
	}
	p := g.Position()
	info(hub.Info{Depth: 1, Nodes: int64(len(legal)), PV: hub.FormatMove(g.Variant(), &p, m)})
	if s.slow > 0 {
		t := time.NewTimer(s.slow)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return m, nil
}
