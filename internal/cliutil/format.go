package cliutil

import (
	"github.com/urfave/cli/v2"
)

// The flags every command names alike (issue 33): --format for the output's format (--to,
// and --json for --format json, are older spellings), --output/-o for the output file
// (--out, and selfplay's --pdn), --jobs/-j for the goroutines or games at once (perft's
// --threads/-t, selfplay's --concurrency).

// FormatFlags returns the --format flag of a command whose output is text or JSON lines,
// with --json, the same as --format json; what describes the JSON output.
func FormatFlags(what string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json (" + what + ")"},
		&cli.BoolFlag{Name: "json", Usage: "the same as --format json"},
	}
}

// JSONOutput reports whether the command's output is JSON (--format json, or --json); a
// format other than text or json is a usage error.
func JSONOutput(c *cli.Context) (bool, error) {
	switch f := c.String("format"); f {
	case "text", "":
		return c.Bool("json"), nil
	case "json":
		return true, nil
	default:
		return false, Usagef("--format %q: want text or json", f)
	}
}

// OutputAliases are the other names of --output: --out and -o.
var OutputAliases = []string{"out", "o"}
