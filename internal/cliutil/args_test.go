package cliutil

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// seen is what an action of argsApp saw: its command, flags and arguments.
type seen struct {
	cmd  string
	out  string
	json bool
	n    int
	args []string
}

// argsApp is an app with a flag of each kind at the top, a command with its own flags and
// a subcommand, as rafle's commands have.
func argsApp(got *seen) *cli.App {
	action := func(name string) cli.ActionFunc {
		return func(c *cli.Context) error {
			*got = seen{cmd: name, out: c.String("out"), json: c.Bool("json"), n: c.Int("n"), args: c.Args().Slice()}
			return nil
		}
	}
	flags := func() []cli.Flag {
		return []cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}},
			&cli.BoolFlag{Name: "json"},
			&cli.IntFlag{Name: "n", Aliases: []string{"j"}},
		}
	}
	return &cli.App{
		Name:            "demo",
		HideHelpCommand: true,
		Flags:           flags(),
		Action:          action("demo"),
		OnUsageError:    OnUsageError,
		Commands: []*cli.Command{{
			Name:         "sub",
			Aliases:      []string{"s"},
			Flags:        flags(),
			Action:       action("sub"),
			OnUsageError: OnUsageError,
			Subcommands: []*cli.Command{{
				Name:         "leaf",
				Flags:        flags(),
				Action:       action("leaf"),
				OnUsageError: OnUsageError,
			}},
		}},
	}
}

// TestFlagsAnywhere: flags after arguments are flags, with their values, at every level;
// "--" ends the flags.
func TestFlagsAnywhere(t *testing.T) {
	for _, tc := range []struct {
		args string
		want seen
	}{
		{"a.pdn --json", seen{cmd: "demo", json: true, args: []string{"a.pdn"}}},
		{"a.pdn --out x b.pdn -j 3", seen{cmd: "demo", out: "x", n: 3, args: []string{"a.pdn", "b.pdn"}}},
		{"a.pdn --out=x --json=false", seen{cmd: "demo", out: "x", args: []string{"a.pdn"}}},
		{"a.pdn -o -x.pdn", seen{cmd: "demo", out: "-x.pdn", args: []string{"a.pdn"}}},
		{"- --json", seen{cmd: "demo", json: true, args: []string{"-"}}},
		{"a.pdn -- --json -n", seen{cmd: "demo", args: []string{"a.pdn", "--json", "-n"}}},
		{"-- -a.pdn", seen{cmd: "demo", args: []string{"-a.pdn"}}},
		{"--json -- a.pdn", seen{cmd: "demo", json: true, args: []string{"a.pdn"}}},
		{"sub f --n 3 g", seen{cmd: "sub", n: 3, args: []string{"f", "g"}}},
		{"--n 4 s f --json", seen{cmd: "sub", json: true, args: []string{"f"}}},
		{"sub leaf f --out y", seen{cmd: "leaf", out: "y", args: []string{"f"}}},
		{"sub --json leaf f -- -g", seen{cmd: "leaf", args: []string{"f", "-g"}}},
		{"f sub --json", seen{cmd: "demo", json: true, args: []string{"f", "sub"}}},
	} {
		var got seen
		var stderr bytes.Buffer
		args := append([]string{"demo"}, strings.Fields(tc.args)...)
		code := Run(context.Background(), argsApp(&got), args, &stderr)
		if code != 0 || got.cmd != tc.want.cmd || got.out != tc.want.out || got.json != tc.want.json ||
			got.n != tc.want.n || !slices.Equal(got.args, tc.want.args) {
			t.Errorf("demo %s: exit %d, %+v, stderr %q; want %+v", tc.args, code, got, stderr.String(), tc.want)
		}
	}
	// A flag that needs a value and has none is still a usage error, as is an unknown one.
	for _, args := range []string{"a.pdn --out", "a.pdn --nonsense", "sub f --out"} {
		var got seen
		var stderr bytes.Buffer
		if code := Run(context.Background(), argsApp(&got), append([]string{"demo"}, strings.Fields(args)...), &stderr); code != 2 {
			t.Errorf("demo %s: exit %d, stderr %q; want 2", args, code, stderr.String())
		}
	}
}

// TestHelpDefaults: a flag whose usage already states its default shows it once.
func TestHelpDefaults(t *testing.T) {
	app := &cli.App{
		Name: "demo",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "jobs", Usage: "goroutines (default: all CPUs)"},
			&cli.BoolFlag{Name: "skip", Usage: "skip bad games (default: keep them)"},
			&cli.IntFlag{Name: "depth", Value: 4, Usage: "depth"},
		},
		Action: func(*cli.Context) error { return nil },
	}
	var stdout, stderr bytes.Buffer
	app.Writer = &stdout
	if code := Run(context.Background(), app, []string{"demo", "--help"}, &stderr); code != 0 {
		t.Fatalf("demo --help: exit %d, %s", code, stderr.String())
	}
	help := stdout.String()
	for _, want := range []string{"goroutines (default: all CPUs)\n", "skip bad games (default: keep them)\n", "depth (default: 4)\n"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
}
