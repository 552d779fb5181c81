package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/internal/shellwords"
	"github.com/rafle/rafle/pkg/engine"
)

func diffCommand() *cli.Command {
	flags := commonFlags()
	flags = append(flags, &cli.StringFlag{Name: "engine", Required: true,
		Usage: `the other engine's command line, split as a shell would ("'/opt/my engine' --perft"); ` +
			`it is run with VARIANT FEN DEPTH added and prints one "MOVE COUNT" line per root move`})
	return &cli.Command{
		Name:  "diff",
		Usage: "find the first position where another engine's divide disagrees with rafle's",
		UsageText: "perft diff --engine CMD --variant V [--fen F] --depth N [--duplicates keep|unique|paths] [--json]\n\n" +
			"Both divides are compared move by move (moves are read in any notation rafle accepts); the\n" +
			"search descends into the first move whose counts differ until the move lists themselves differ,\n" +
			"then prints that position and the missing, extra or miscounted moves. A miscount that does not\n" +
			"reproduce below is a difference too: the engine's count contradicts its own divide. Lines of\n" +
			"the engine's output other than MOVE COUNT are ignored; a total (\"Nodes searched: N\", \"total N\"\n" +
			"or a lone number) must be the sum of its moves. The output is bounded (" + strconv.Itoa(maxEngineBytes>>10) +
			" KiB, lines of " + strconv.Itoa(maxEngineLine) + " bytes).\n" +
			"Exit status 1 when a difference is found, 0 when the counts agree.",
		Flags:        flags,
		Action:       diffAction,
		OnUsageError: cliutil.OnUsageError,
	}
}

// Bounds on what the other engine may print for one divide: a divide is a few hundred
// short lines, and log lines are allowed around it.
const (
	maxEngineBytes = 1 << 20
	maxEngineLine  = 4096
)

// divideCounts maps each move to its leaf count, and keeps the notation to print.
type divideCounts struct {
	counts map[engine.Move]uint64
	names  map[engine.Move]string
	extra  map[string]uint64 // lines whose move rafle does not find legal
	sum    uint64            // of every count, extra included
}

// diffStep is one position of the search, one line of --json.
type diffStep struct {
	Depth      int      `json:"depth"`
	After      []string `json:"after"` // the moves from the start position
	FEN        string   `json:"fen"`
	Missing    []string `json:"missing,omitempty"`    // rafle has, the engine lacks
	Extra      []string `json:"extra,omitempty"`      // the engine has, rafle lacks
	Miscounted []string `json:"miscounted,omitempty"` // "MOVE rafle N, engine M"
	// Result is "descend" (into Next), "difference" or "agree".
	Result string `json:"result"`
	Next   string `json:"next,omitempty"`
	Reason string `json:"reason,omitempty"`
}

func diffAction(c *cli.Context) error {
	if c.Args().Present() {
		return cliutil.Usagef("unexpected argument %q", c.Args().First())
	}
	cfg, err := readConfig(c)
	if err != nil {
		return err
	}
	argv, err := shellwords.Split(c.String("engine"))
	if err != nil {
		return cliutil.Usagef("--engine: %v", err)
	}
	if len(argv) == 0 {
		return cliutil.Usagef("--engine: empty command")
	}
	w := c.App.Writer
	v, p := cfg.variant, cfg.pos
	line := []string{}
	var claimed uint64 // the engine's count for the move descended into
	for depth := cfg.depth; depth >= 1; depth-- {
		ours, err := rafleDivide(c.Context, v, p, depth, cfg.opt)
		if err != nil {
			return fmt.Errorf("depth %d after %s: %w", depth, movesOrStart(line), err)
		}
		theirs, err := engineDivide(c.Context, argv, v, p, depth)
		if err != nil {
			return err
		}
		st := compare(ours, theirs)
		st.Depth, st.After, st.FEN = depth, line, v.FEN(p)
		var next engine.Move
		switch {
		case len(st.Missing)+len(st.Extra) > 0:
			st.Result = "difference"
		case len(st.Miscounted) > 0 && depth == 1:
			st.Result, st.Reason = "difference", "a move at depth 1 is one leaf"
		case len(st.Miscounted) > 0:
			next = firstMiscounted(ours, theirs)
			st.Result, st.Next = "descend", ours.names[next]
		case len(line) > 0:
			st.Result = "difference"
			st.Reason = fmt.Sprintf("the engine counts %d leaves below %s at depth %d, but its own divide after it sums to %d, as rafle counts",
				claimed, line[len(line)-1], depth+1, theirs.sum)
		default:
			st.Result = "agree"
		}
		if err := printStep(w, cfg.json, &st); err != nil {
			return err
		}
		switch st.Result {
		case "agree":
			return nil
		case "difference":
			if st.Reason != "" && len(st.Missing)+len(st.Extra) == 0 {
				return fmt.Errorf("the engine's counts contradict its own divide at %s", st.FEN)
			}
			return fmt.Errorf("move generators differ at %s", st.FEN)
		}
		claimed = theirs.counts[next]
		line = append(line[:len(line):len(line)], ours.names[next])
		p = p.Play(next)
	}
	return nil
}

// compare lists the moves of two divides that differ.
func compare(ours, theirs divideCounts) diffStep {
	var st diffStep
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
func firstMiscounted(ours, theirs divideCounts) engine.Move {
	var next engine.Move
	found := false
	for m, n := range ours.counts {
		if t, ok := theirs.counts[m]; ok && t != n && (!found || ours.names[m] < ours.names[next]) {
			next, found = m, true
		}
	}
	return next
}

func printStep(w io.Writer, asJSON bool, st *diffStep) error {
	if asJSON {
		return json.NewEncoder(w).Encode(st)
	}
	var err error
	switch st.Result {
	case "agree":
		_, err = fmt.Fprintf(w, "no difference: %s depth %d agrees move by move\n", st.FEN, st.Depth)
	case "descend":
		_, err = fmt.Fprintf(w, "depth %d: %d miscounted, descending into %s\n", st.Depth, len(st.Miscounted), st.Next)
	case "difference":
		fmt.Fprintf(w, "difference at depth %d after %s\nfen %s\n", st.Depth, movesOrStart(st.After), st.FEN)
		report(w, "missing (rafle has, engine lacks)", st.Missing)
		report(w, "extra (engine has, rafle lacks)", st.Extra)
		report(w, "miscounted", st.Miscounted)
		if st.Reason != "" {
			_, err = fmt.Fprintln(w, st.Reason)
		}
	}
	return err
}

func movesOrStart(line []string) string {
	if len(line) == 0 {
		return "the start position"
	}
	return strings.Join(line, " ")
}

func report(w io.Writer, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n", title)
	for _, s := range items {
		fmt.Fprintf(w, "  %s\n", s)
	}
}

func rafleDivide(ctx context.Context, v *engine.Variant, p engine.Position, depth int, opt engine.PerftOptions) (divideCounts, error) {
	entries, err := v.Divide(ctx, p, depth, opt)
	if err != nil {
		return divideCounts{}, err
	}
	d := divideCounts{counts: map[engine.Move]uint64{}, names: map[engine.Move]string{}}
	for _, e := range entries {
		d.counts[e.Move] += e.Nodes
		d.names[e.Move] = v.FormatMove(&p, e.Move, false)
		d.sum += e.Nodes
	}
	return d, nil
}

// engineDivide runs the other engine as argv VARIANT FEN DEPTH and reads its divide, at most
// maxEngineBytes of it: the engine is stopped when it prints more.
func engineDivide(ctx context.Context, argv []string, v *engine.Variant, p engine.Position, depth int) (divideCounts, error) {
	fen := v.FEN(p)
	args := append(append([]string{}, argv[1:]...), v.Name, fen, strconv.Itoa(depth))
	what := fmt.Sprintf("engine %q %s %q %d", argv[0], v.Name, fen, depth)
	run, stop := context.WithCancel(ctx)
	defer stop()
	cmd := exec.CommandContext(run, argv[0], args...)
	cmd.WaitDelay = time.Second // do not wait for children that keep its output open
	stderr := &headBuffer{max: 2048}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return divideCounts{}, err
	}
	if err := cmd.Start(); err != nil {
		return divideCounts{}, fmt.Errorf("%s: %w", what, err)
	}
	d, perr := readDivide(out, v, &p)
	if perr != nil {
		stop() // it may still be printing
	}
	werr := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return d, fmt.Errorf("%s: %w", what, ctx.Err())
	case perr != nil:
		return d, fmt.Errorf("%s: %w", what, perr)
	case werr != nil:
		return d, fmt.Errorf("%s: %v: %s", what, werr, strings.TrimSpace(stderr.String()))
	}
	return d, nil
}

// readDivide reads an engine's divide: lines "MOVE COUNT" (or "MOVE: COUNT"). Other lines
// are ignored, except a total ("Nodes searched: N", "total N", "nodes N", "N"), which must
// be the sum of the counts. r is read up to maxEngineBytes, in lines of at most
// maxEngineLine bytes.
func readDivide(r io.Reader, v *engine.Variant, p *engine.Position) (divideCounts, error) {
	d := divideCounts{counts: map[engine.Move]uint64{}, names: map[engine.Move]string{}, extra: map[string]uint64{}}
	lr := &io.LimitedReader{R: r, N: maxEngineBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 4096), maxEngineLine)
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
		return d, fmt.Errorf("output line %d longer than %d bytes: not a divide", n+1, maxEngineLine)
	case err != nil:
		return d, err
	case lr.N <= 0:
		return d, fmt.Errorf("more than %d KiB of output: not a divide", maxEngineBytes>>10)
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
