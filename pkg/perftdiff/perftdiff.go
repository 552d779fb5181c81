package perftdiff

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rafle/rafle/internal/procgroup"
	"github.com/rafle/rafle/pkg/engine"
)

// Bounds on what the other engine may print for one divide: a divide is a few hundred
// short lines, and log lines are allowed around it.
const (
	MaxEngineBytes = 1 << 20
	MaxEngineLine  = 4096
)

// DefaultEngineTimeout is a timeout for Engine: far more than a divide of the depths
// a diff is used at takes, short enough that an engine that never answers is found out.
const DefaultEngineTimeout = 10 * time.Minute

// engineGrace is how long the other engine has to exit after SIGTERM before SIGKILL: short,
// so that a cancelled context stops a diff within a second.
const engineGrace = 500 * time.Millisecond

// Divide is the divide of one position: the leaf count below each move, with the notation
// each move was written in.
type Divide struct {
	counts map[engine.Move]uint64
	names  map[engine.Move]string
	extra  map[string]uint64 // lines whose move rafle does not find legal
	sum    uint64            // of every count, extra included
}

// Sum is the sum of the divide's counts (the leaves at its depth), moves not legal
// included.
func (d Divide) Sum() uint64 { return d.sum }

// A Divider computes the divide of position p of variant v at depth.
type Divider func(ctx context.Context, v *engine.Variant, p engine.Position, depth int) (Divide, error)

// The results of a Step.
const (
	Descend    = "descend"    // the move lists agree, a count differs: the search goes down into Next
	Difference = "difference" // the move lists differ, or the other engine contradicts itself
	Agree      = "agree"      // every move has the same count
)

// Step is one position of the search, as Search hands it to its caller (and as perft diff
// --json prints it, one line per step).
type Step struct {
	Depth      int      `json:"depth"`
	After      []string `json:"after"` // the moves from the start position
	FEN        string   `json:"fen"`
	Missing    []string `json:"missing,omitempty"`    // rafle has, the engine lacks
	Extra      []string `json:"extra,omitempty"`      // the engine has, rafle lacks
	Miscounted []string `json:"miscounted,omitempty"` // "MOVE rafle N, engine M"
	// Result is Descend (into Next), Difference or Agree.
	Result string `json:"result"`
	Next   string `json:"next,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Line writes the moves After: "the start position" when there are none.
func Line(after []string) string {
	if len(after) == 0 {
		return "the start position"
	}
	return strings.Join(after, " ")
}

// Search compares the divides of ours and theirs from position p at depth, and while the
// move lists agree and some count differs, descends into the first miscounted move (by
// name) one ply deeper, until the move lists differ, the counts agree, or depth 1 is
// passed. It hands every position to step, in order (a step error stops it) and returns
// the last: its Result is Agree when the divides agree at the start, Difference when a
// difference was found. An error of ours is wrapped with the depth and the line; an error
// of theirs is returned as it is.
func Search(ctx context.Context, v *engine.Variant, p engine.Position, depth int, ours, theirs Divider, step func(*Step) error) (Step, error) {
	line := []string{}
	var claimed uint64 // the engine's count for the move descended into
	var last Step
	for ; depth >= 1; depth-- {
		our, err := ours(ctx, v, p, depth)
		if err != nil {
			return last, fmt.Errorf("depth %d after %s: %w", depth, Line(line), err)
		}
		their, err := theirs(ctx, v, p, depth)
		if err != nil {
			return last, err
		}
		st := compare(our, their)
		st.Depth, st.After, st.FEN = depth, line, v.FEN(p)
		var next engine.Move
		switch {
		case len(st.Missing)+len(st.Extra) > 0:
			st.Result = Difference
		case len(st.Miscounted) > 0 && depth == 1:
			st.Result, st.Reason = Difference, "a move at depth 1 is one leaf"
		case len(st.Miscounted) > 0:
			next = firstMiscounted(our, their)
			st.Result, st.Next = Descend, our.names[next]
		case len(line) > 0:
			st.Result = Difference
			st.Reason = fmt.Sprintf("the engine counts %d leaves below %s at depth %d, but its own divide after it sums to %d, as rafle counts",
				claimed, line[len(line)-1], depth+1, their.sum)
		default:
			st.Result = Agree
		}
		last = st
		if err := step(&st); err != nil {
			return last, err
		}
		if st.Result != Descend {
			return last, nil
		}
		claimed = their.counts[next]
		line = append(line[:len(line):len(line)], our.names[next])
		p = p.Play(next)
	}
	return last, nil
}

// compare lists the moves of two divides that differ.
func compare(ours, theirs Divide) Step {
	var st Step
	for m, n := range ours.counts {
		t, ok := theirs.counts[m]
		switch {
		case !ok:
			st.Missing = append(st.Missing, fmt.Sprintf("%s %d", ours.names[m], n))
		case t != n:
			st.Miscounted = append(st.Miscounted, fmt.Sprintf("%s rafle %d, engine %d", ours.names[m], n, t))
		}
	}
	for m, n := range theirs.counts {
		if _, ok := ours.counts[m]; !ok {
			st.Extra = append(st.Extra, fmt.Sprintf("%s %d", theirs.names[m], n))
		}
	}
	for text, n := range theirs.extra {
		st.Extra = append(st.Extra, fmt.Sprintf("%s %d", text, n))
	}
	for _, l := range [][]string{st.Missing, st.Extra, st.Miscounted} {
		sort.Strings(l)
	}
	return st
}

// firstMiscounted returns the miscounted move that comes first by name.
func firstMiscounted(ours, theirs Divide) engine.Move {
	var next engine.Move
	found := false
	for m, n := range ours.counts {
		if t, ok := theirs.counts[m]; ok && t != n && (!found || ours.names[m] < ours.names[next]) {
			next, found = m, true
		}
	}
	return next
}

// Rafle is the Divider of rafle's own move generator, with the perft options opt.
func Rafle(opt engine.PerftOptions) Divider {
	return func(ctx context.Context, v *engine.Variant, p engine.Position, depth int) (Divide, error) {
		return rafleDivide(ctx, v, p, depth, opt)
	}
}

// Engine is the Divider of another engine: the program argv[0], run with the arguments
// argv[1:] and VARIANT FEN DEPTH, which prints one "MOVE COUNT" line per root move
// (ReadDivide), within timeout for each divide.
func Engine(argv []string, timeout time.Duration) Divider {
	return func(ctx context.Context, v *engine.Variant, p engine.Position, depth int) (Divide, error) {
		return engineDivide(ctx, argv, v, p, depth, timeout)
	}
}

func rafleDivide(ctx context.Context, v *engine.Variant, p engine.Position, depth int, opt engine.PerftOptions) (Divide, error) {
	entries, err := v.Divide(ctx, p, depth, opt)
	if err != nil {
		return Divide{}, err
	}
	d := Divide{counts: map[engine.Move]uint64{}, names: map[engine.Move]string{}}
	for _, e := range entries {
		d.counts[e.Move] += e.Nodes
		d.names[e.Move] = v.FormatMove(&p, e.Move, false)
		d.sum += e.Nodes
	}
	return d, nil
}

// engineDivide runs the other engine as argv VARIANT FEN DEPTH and reads its divide, at most
// MaxEngineBytes of it, within timeout: the engine is stopped when it prints more or takes
// longer. It runs in a process group of its own, which is ended on every way out (Ctrl-C
// included), so that a wrapper's children do not outlive it.
func engineDivide(ctx context.Context, argv []string, v *engine.Variant, p engine.Position, depth int, timeout time.Duration) (Divide, error) {
	fen := v.FEN(p)
	args := append(append([]string{}, argv[1:]...), v.Name, fen, strconv.Itoa(depth))
	what := fmt.Sprintf("engine %q %s %q %d", argv[0], v.Name, fen, depth)
	run, stop := context.WithTimeout(ctx, timeout)
	defer stop()
	outR, outW, err := os.Pipe()
	if err != nil {
		return Divide{}, err
	}
	defer outR.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		outW.Close()
		return Divide{}, err
	}
	defer errR.Close()
	cmd := exec.Command(argv[0], args...)
	cmd.Stdout, cmd.Stderr = outW, errW
	g, err := procgroup.Start(cmd)
	outW.Close()
	errW.Close()
	if err != nil {
		return Divide{}, fmt.Errorf("%s: %w", what, err)
	}
	// the group ends when run does (Ctrl-C, the timeout, a bad output), and in any case
	// before engineDivide returns
	ended := context.AfterFunc(run, func() { g.Terminate(engineGrace) })
	defer func() {
		ended()
		g.Terminate(engineGrace)
	}()
	stderr := &headBuffer{max: 2048}
	stderrDone := make(chan struct{})
	go func() {
		_, _ = io.Copy(stderr, errR)
		close(stderrDone)
	}()
	d, perr := ReadDivide(outR, v, &p)
	if perr != nil {
		stop() // it may still be printing
	}
	select {
	case <-g.Exited():
	case <-run.Done():
		<-g.Exited() // the group is being ended
	}
	g.Terminate(engineGrace) // what the engine left running
	errR.Close()
	<-stderrDone
	werr := g.Err()
	switch {
	case ctx.Err() != nil:
		return d, fmt.Errorf("%s: %w", what, ctx.Err())
	case errors.Is(run.Err(), context.DeadlineExceeded):
		return d, fmt.Errorf("%s: no complete divide within %v (--engine-timeout): stopped", what, timeout)
	case perr != nil:
		return d, fmt.Errorf("%s: %w", what, perr)
	case werr != nil:
		return d, fmt.Errorf("%s: %v: %s", what, werr, strings.TrimSpace(stderr.String()))
	}
	return d, nil
}

// ReadDivide reads an engine's divide: lines "MOVE COUNT" (or "MOVE: COUNT"). Other lines
// are ignored, except a total ("Nodes searched: N", "total N", "nodes N", "N"), which must
// be the sum of the counts. r is read up to MaxEngineBytes, in lines of at most
// MaxEngineLine bytes.
func ReadDivide(r io.Reader, v *engine.Variant, p *engine.Position) (Divide, error) {
	d := Divide{counts: map[engine.Move]uint64{}, names: map[engine.Move]string{}, extra: map[string]uint64{}}
	lr := &io.LimitedReader{R: r, N: MaxEngineBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 4096), MaxEngineLine)
	var first, totalLine string
	var total uint64
	moves, n := 0, 0
	for sc.Scan() {
		n++
		text := sc.Text()
		if first == "" {
			first = strings.TrimSpace(text)
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		last, err := strconv.ParseUint(f[len(f)-1], 10, 64)
		if err != nil {
			continue
		}
		head := strings.ToLower(strings.TrimSuffix(f[0], ":"))
		switch {
		case len(f) == 2 && looksLikeMove(strings.TrimSuffix(f[0], ":")):
			moves++
			d.sum += last
			name := strings.TrimSuffix(f[0], ":")
			m, err := v.ParseMove(p, name)
			if err != nil {
				d.extra[name] += last
				continue
			}
			d.counts[m] += last
			d.names[m] = name
		case len(f) == 1 || head == "total" || head == "nodes" || head == "leaves":
			total, totalLine = last, fmt.Sprintf("line %d %q", n, strings.TrimSpace(text))
		}
	}
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return d, fmt.Errorf("output line %d longer than %d bytes: not a divide", n+1, MaxEngineLine)
	case err != nil:
		return d, err
	case lr.N <= 0:
		return d, fmt.Errorf("more than %d KiB of output: not a divide", MaxEngineBytes>>10)
	case moves == 0 && len(v.Generate(nil, p)) > 0:
		return d, fmt.Errorf("no MOVE COUNT line in its output (first line %q)", first)
	case totalLine != "" && total != d.sum:
		return d, fmt.Errorf("output %s: total %d, but its moves sum to %d", totalLine, total, d.sum)
	}
	return d, nil
}

// looksLikeMove reports whether s is written like a move: squares (numbers or letters and
// digits) joined by '-', 'x' or ':'.
func looksLikeMove(s string) bool {
	if len(s) < 3 || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) || !strings.ContainsAny(s[1:len(s)-1], "-x:") ||
		!strings.ContainsAny(s, "0123456789") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '-' && s[i] != ':' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// headBuffer keeps the first max bytes written to it and drops the rest.
type headBuffer struct {
	b   []byte
	max int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (h *headBuffer) String() string { return string(h.b) }
