package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
)

// checkCommand is "selfplay check": an engine's protocol checked before a match.
func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "check that an engine speaks its protocol correctly before a match",
		UsageText: "selfplay check --engine name=NAME,cmd=PATH,tc=... [--engine-start D] [--format text|json]",
		Description: "Starts the engine as --engine of a match gives it (Hub or DXP), runs the handshake, and\n" +
			"for every variant it claims asks for a move in a fixed list of positions: the start,\n" +
			"the most captures to choose from, a long capture, a promotion, a single legal move\n" +
			"and a move from a draw by the rules (Hub only: DXP sends no history). Each reply must\n" +
			"be legal, well formed and within the time the match would allow. It measures the\n" +
			"latency of a move, ends the engine and starts it again. Prints what passed and what\n" +
			"failed, with the protocol transcript of each failure; exits 1 when anything failed.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "engine", Required: true, Usage: "the engine, as selfplay --engine gives it (docs/engines.md)"},
			&cli.DurationFlag{Name: "engine-start", Value: 10 * time.Second, Usage: "how long the engine may take to start and answer the handshake"},
		}, cliutil.FormatFlags("one object")...),
		Action:       checkEngine,
		OnUsageError: cliutil.OnUsageError,
	}
}

func checkEngine(c *cli.Context) error {
	asJSON, err := cliutil.JSONOutput(c)
	if err != nil {
		return err
	}
	spec, err := match.ParseEngineSpec(c.String("engine"))
	if err != nil {
		return cliutil.UsageError{Err: fmt.Errorf("--engine: %w", err)}
	}
	if c.Duration("engine-start") <= 0 {
		return cliutil.Usagef("--engine-start %v: must be positive", c.Duration("engine-start"))
	}
	rep, err := match.Check(c.Context, spec, match.CheckOptions{HandshakeTimeout: c.Duration("engine-start")})
	if err != nil {
		return err
	}
	w := c.App.Writer
	if asJSON {
		out := struct {
			*match.CheckReport
			Passed bool `json:"passed"`
		}{rep, rep.Failed() == 0}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\n", b)
	} else {
		writeCheck(w, rep)
	}
	if n := rep.Failed(); n > 0 {
		return fmt.Errorf("check: engine %s failed %d of %d checks", spec.Name, n, len(rep.Checks))
	}
	return nil
}

// writeCheck prints the report as text: one line per check, the transcript under each
// failure.
func writeCheck(w io.Writer, rep *match.CheckReport) {
	fmt.Fprintf(w, "engine %s (%s)", rep.Engine, rep.Protocol)
	if id := rep.IDText(); id != "" {
		fmt.Fprintf(w, ": %s", id)
	}
	fmt.Fprintln(w)
	if len(rep.Variants) > 0 {
		fmt.Fprintf(w, "variants: %s\n", strings.Join(rep.Variants, ", "))
	}
	for _, u := range rep.Unknown {
		fmt.Fprintf(w, "not checked: %s\n", u)
	}
	for _, r := range rep.Checks {
		status := "PASS"
		if !r.Passed {
			status = "FAIL"
		}
		line := []string{status, r.Name}
		if r.Variant != "" {
			line = append(line, r.Variant)
		}
		if r.Position != "" {
			line = append(line, r.Position)
		}
		if r.Move != "" {
			line = append(line, "move "+r.Move)
		}
		line = append(line, r.Elapsed.Round(100*time.Microsecond).String())
		fmt.Fprintln(w, strings.Join(line, "  "))
		if r.Passed {
			continue
		}
		if r.FEN != "" {
			fmt.Fprintf(w, "      position %s", r.FEN)
			if r.History > 0 {
				fmt.Fprintf(w, " after %d moves of history", r.History)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "      %s\n", r.Detail)
		if r.Transcript != "" {
			fmt.Fprintln(w, "      transcript:")
			for _, l := range strings.Split(strings.TrimRight(r.Transcript, "\n"), "\n") {
				fmt.Fprintf(w, "      | %s\n", l)
			}
		}
	}
	if l := rep.Latency; l != nil {
		fmt.Fprintf(w, "latency (%s, %d moves): median %v, max %v\n", l.Level, l.Moves,
			l.Median.Round(10*time.Microsecond), l.Max.Round(10*time.Microsecond))
	}
	fmt.Fprintf(w, "%d checks: %d passed, %d failed\n", len(rep.Checks), len(rep.Checks)-rep.Failed(), rep.Failed())
}

// preCheck runs the check of one engine in the match's variant before a match (--check):
// the report goes to stderr, and a failed check stops the match.
func preCheck(ctx context.Context, spec match.EngineSpec, v *engine.Variant, engineStderr io.Writer, start time.Duration, stderr io.Writer) error {
	rep, err := match.Check(ctx, spec, match.CheckOptions{HandshakeTimeout: start, Stderr: engineStderr, Variant: v})
	if err != nil {
		return err
	}
	if n := rep.Failed(); n > 0 {
		writeCheck(stderr, rep)
		return fmt.Errorf("--check: engine %s failed %d of %d checks (above); the match was not started", spec.Name, n, len(rep.Checks))
	}
	fmt.Fprintf(stderr, "selfplay: --check: engine %s passed %d checks in %s\n", spec.Name, len(rep.Checks), v.Name)
	return nil
}
