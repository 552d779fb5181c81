package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/archive"
)

// interrupted words the error of a command that stopped because its context was
// cancelled (Ctrl-C, SIGTERM): it says how many games it had read. Other errors come back
// unchanged.
func interrupted(err error, games int) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("interrupted after %d games: %w", games, err)
	}
	return err
}

// errorPrinter returns a function that prints the first maxShown errors it gets on w, one
// line each: "pdn: ", what, and the error without its own "pdn: ".
func errorPrinter(w io.Writer, what string) func(error) {
	shown := 0
	return func(err error) {
		if shown++; shown <= maxShown {
			fmt.Fprintf(w, "pdn: %s%s\n", what, clean(err))
		}
	}
}

// outcome is the end of a command that read games, from the error of its run (nil, the
// context's, inputs that could not be read, another) and the count of games read and of
// those with errors:
//   - interrupted: it says how many games it read;
//   - inputs that could not be read: each is named on stderr (an input without games is
//     a warning with --skip-bad);
//   - games with errors (named on stderr as they came): with --skip-bad it says how many
//     it left out and succeeds; without, it fails.
func outcome(c *cli.Context, err error, games, bad int) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return interrupted(err, games)
	}
	list, inputs := archive.InputErrors(err)
	if err != nil && !inputs {
		return err
	}
	skip := c.Bool("skip-bad")
	var failed []error
	for _, ie := range list {
		if skip && errors.Is(ie, archive.ErrNoGames) {
			fmt.Fprintf(c.App.ErrWriter, "pdn: warning: %s\n", clean(ie))
			continue
		}
		failed = append(failed, ie)
	}
	var berr error
	switch {
	case bad == 0:
	case skip:
		fmt.Fprintf(c.App.ErrWriter, "pdn: left out %d %s with errors (--skip-bad)\n", bad, plural(bad, "game", "games"))
	case hasFlag(c, "skip-bad"):
		berr = fmt.Errorf("%d of %d games have errors (--skip-bad leaves them out)", bad, games)
	default:
		berr = fmt.Errorf("%d of %d games have errors", bad, games)
	}
	if len(failed) == 0 {
		return berr
	}
	if len(failed) == 1 && berr == nil {
		return failed[0]
	}
	for _, e := range failed {
		fmt.Fprintf(c.App.ErrWriter, "pdn: %s\n", clean(e))
	}
	if berr != nil {
		fmt.Fprintf(c.App.ErrWriter, "pdn: %v\n", berr)
	}
	return fmt.Errorf("%d of %d inputs could not be read", len(failed), max(c.NArg(), 1))
}

// hasFlag reports whether the command has the flag called name.
func hasFlag(c *cli.Context, name string) bool {
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

// problemError words a validation problem as an error with its file, game and position.
func problemError(p archive.Problem) error {
	where := fmt.Sprintf("%s: game %d", p.File, p.Game)
	if p.Line > 0 {
		where += fmt.Sprintf(": line %d, column %d", p.Line, p.Column)
	}
	return fmt.Errorf("%s: %s", where, p.Message)
}

// prefixes are the package names that wrapping repeats in error texts.
var prefixes = []string{"pdn: ", "archive: ", "engine: ", "book: "}

// clean returns the text of err without the package names that wrapping repeats in it
// (prefixes): a command prints its own "pdn: " once.
func clean(err error) string {
	s := err.Error()
	for _, p := range prefixes {
		s = strings.ReplaceAll(s, ": "+p, ": ")
	}
	for again := true; again; {
		again = false
		for _, p := range prefixes {
			if t, ok := strings.CutPrefix(s, p); ok {
				s, again = t, true
			}
		}
	}
	return s
}

// flagError is the usage error for a bad value of the flag: "FLAG: what is wrong".
func flagError(flag string, err error) error {
	return cliutil.Usagef("%s: %s", flag, clean(err))
}
