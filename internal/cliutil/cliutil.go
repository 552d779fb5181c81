// Package cliutil holds what rafle's commands share: the mapping of errors to exit
// statuses, usage errors, and the progress bar that only a terminal gets. Only cmd/*
// import it.
package cliutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// UsageError is a bad command line: exit status 2. Any other error is bad data or a
// failure: exit status 1.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return UsageError{fmt.Errorf(format, args...)}
}

// OnUsageError is the urfave/cli hook for flags that do not parse: they are usage errors.
func OnUsageError(_ *cli.Context, err error, _ bool) error { return UsageError{err} }

// RunFunc is a whole command with its arguments and streams, returning its exit status;
// commands have one so that tests can call it.
type RunFunc func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Main runs a command with the process's arguments and streams, its context cancelled on
// an interrupt or SIGTERM, and exits with the status it returns.
func Main(run RunFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// ExitStatus returns 0 for no error, 2 for a usage error (including the ones urfave/cli
// reports without the hook: unknown flags, missing required flags, unknown help topics),
// and 1 for anything else.
func ExitStatus(err error) int {
	if err == nil {
		return 0
	}
	var u UsageError
	msg := err.Error()
	if errors.As(err, &u) || strings.HasPrefix(msg, "flag provided but not defined") ||
		strings.Contains(msg, "Required flag") || strings.HasPrefix(msg, "invalid value") ||
		strings.HasPrefix(msg, "No help topic") {
		return 2
	}
	return 1
}

// Run runs app, prints a failure as one line "NAME: error" on stderr (without repeating
// the name when the error already starts with it, as a package's errors do when the
// package and the command share a name), and returns the exit status. The app must not
// exit the process itself: Run sets its ExitErrHandler.
func Run(ctx context.Context, app *cli.App, args []string, stderr io.Writer) int {
	app.ExitErrHandler = func(*cli.Context, error) {}
	err := app.RunContext(ctx, args)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s\n", app.Name, strings.TrimPrefix(err.Error(), app.Name+": "))
	}
	return ExitStatus(err)
}

// Progress returns a progress bar on w over total units (-1: unknown) when w is a terminal
// and quiet is false, and nil otherwise: long work shows progress on a terminal and stays
// quiet in pipes and logs.
func Progress(w io.Writer, quiet bool, total int64, desc string, opts ...progressbar.Option) *progressbar.ProgressBar {
	f, ok := w.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	base := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
	}
	return progressbar.NewOptions64(total, append(base, opts...)...)
}
