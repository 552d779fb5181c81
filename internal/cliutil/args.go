package cliutil

import (
	"strings"
	"sync"

	"github.com/urfave/cli/v2"
)

// interspersed returns args (the program name first) with the flags of each command moved
// before its arguments, each with its value when it takes one, so that urfave/cli, which
// stops reading flags at the first argument, reads them all: "a.pdn --json" becomes
// "--json a.pdn". The first argument that names a subcommand starts that command's flags.
// "--" ends the flags; it is kept, before the arguments, so that the ones after it that
// start with '-' stay arguments. A command that skips flag parsing, or help, gets the rest
// as it is. A last flag that needs a value and has none is a usage error.
func interspersed(app *cli.App, args []string) ([]string, error) {
	if len(args) == 0 || app.SkipFlagParsing {
		return args, nil
	}
	rest, err := reorder(args[1:], app.Flags, app.Command)
	return append([]string{args[0]}, rest...), err
}

// reorder moves the flags of one command (flags, its subcommands found by sub) first.
func reorder(args []string, flags []cli.Flag, sub func(string) *cli.Command) ([]string, error) {
	takesValue := map[string]bool{}
	for _, f := range flags {
		tv, ok := f.(interface{ TakesValue() bool })
		for _, name := range f.Names() {
			takesValue[name] = !ok || tv.TakesValue()
		}
	}
	var opts, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return concat(opts, []string{"--"}, pos, args[i+1:]), nil
		case len(a) > 1 && a[0] == '-':
			opts = append(opts, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && takesValue[name] {
				if i+1 == len(args) {
					return nil, Usagef("flag needs an argument: %s", a)
				}
				opts = append(opts, args[i+1])
				i++
			}
		case len(pos) == 0 && sub != nil && sub(a) != nil:
			c := sub(a)
			if c.SkipFlagParsing || c.Name == "help" {
				return concat(opts, args[i:]), nil
			}
			subs := c.Command
			if len(c.Subcommands) == 0 {
				subs = nil
			}
			if !c.HideHelp && !c.HideHelpCommand {
				subs = func(name string) *cli.Command {
					if name == "help" || name == "h" {
						return &cli.Command{Name: "help"}
					}
					return c.Command(name)
				}
			}
			rest, err := reorder(args[i+1:], c.Flags, subs)
			return concat(opts, []string{a}, rest), err
		default:
			pos = append(pos, a)
		}
	}
	return concat(opts, pos), nil
}

func concat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var flagStringerOnce sync.Once

// setFlagStringer makes urfave/cli's help show a flag's default once: not again after a
// usage that already states it, as in "goroutines (default: all CPUs)".
func setFlagStringer() {
	flagStringerOnce.Do(func() {
		stringer := cli.FlagStringer
		cli.FlagStringer = func(f cli.Flag) string {
			s := stringer(f)
			df, ok := f.(cli.DocGenerationFlag)
			if !ok {
				return s
			}
			usage := df.GetUsage()
			if !strings.Contains(usage, "(default: ") {
				return s
			}
			if i := strings.LastIndex(s, " (default: "); i >= 0 && i >= strings.LastIndex(s, usage)+len(usage) {
				return s[:i]
			}
			return s
		}
	})
}
