package cliutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/procgroup"
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

// Interrupted is the cause of a command's context being cancelled by a signal (see Main).
// A command stopped by it exits with status 128 plus the signal's number, as a shell
// reports a process killed by that signal: 130 for SIGINT, 143 for SIGTERM.
type Interrupted struct{ Signal os.Signal }

func (e Interrupted) Error() string {
	switch e.Signal {
	case os.Interrupt:
		return "interrupted (SIGINT)"
	case syscall.SIGTERM:
		return "interrupted (SIGTERM)"
	}
	return "interrupted (" + e.Signal.String() + ")"
}

// ExitStatus returns 128 plus the signal's number.
func (e Interrupted) ExitStatus() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// RunFunc is a whole command with its arguments and streams, returning its exit status;
// commands have one so that tests can call it.
type RunFunc func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Main runs a command with the process's arguments and streams and exits with the status
// it returns. The first SIGINT or SIGTERM cancels the command's context with Interrupted
// as the cause; when the command has stopped (and said what it did), Main exits with 130 or
// 143. A second signal ends the process at once, and the external engines it started
// (procgroup.KillAll). Main closes standard output at the end: a
// failure to close it turns a success into exit status 1. With PeakMemoryEnv set it writes
// the peak memory of the command last.
func Main(run RunFunc) {
	inMain.Store(true)
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		cancel(Interrupted{s})
		// A second signal ends the process at once, by the signal's default action, with
		// the external engines it started: they run in process groups of their own, which
		// the terminal's signal does not reach.
		s = <-sigs
		procgroup.KillAll()
		signal.Reset(s)
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			_ = p.Signal(s)
		}
		time.Sleep(time.Second) // the signal's default action ends the process meanwhile
		os.Exit(Interrupted{s}.ExitStatus())
	}()
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	signal.Stop(sigs)
	if err := os.Stdout.Close(); err != nil && code == 0 && !errors.Is(err, syscall.EBADF) && !errors.Is(err, os.ErrClosed) {
		fmt.Fprintf(os.Stderr, "%s: close stdout: %v\n", filepath.Base(os.Args[0]), pathErr(err))
		code = 1
	}
	if err := writePeakMemory(); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %s: %v\n", filepath.Base(os.Args[0]), PeakMemoryEnv, err)
		code = max(code, 1)
	}
	os.Exit(statusAfter(ctx, code))
}

// statusAfter returns code, or the status of the signal that cancelled ctx: the command was
// interrupted even if it stopped without an error.
func statusAfter(ctx context.Context, code int) int {
	var in Interrupted
	if errors.As(context.Cause(ctx), &in) {
		return in.ExitStatus()
	}
	return code
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
		strings.HasPrefix(msg, "flag needs an argument") || strings.HasPrefix(msg, "No help topic") {
		return 2
	}
	return 1
}

// Run runs app with args and returns the exit status. It
//
//   - accepts flags anywhere before "--", after arguments too, at every level of commands
//     ("pdn validate a.pdn --json" is "pdn validate --json a.pdn");
//   - gives the app a standard output that keeps the first write error: every later write
//     returns it without writing, the command's context is cancelled with it as the cause,
//     and Run fails with "NAME: write stdout: ..." even when the command ignored it;
//   - prints a failure as one line "NAME: error" on stderr (without repeating the name when
//     the error already starts with it, as a package's errors do when the package and the
//     command share a name), with "context canceled" replaced by the signal when a signal
//     stopped the command (see Main), which then exits with 128 plus its number;
//   - shows each flag's default once in the help, when its usage already states it.
//
// The app must not exit the process itself: Run sets its ExitErrHandler.
func Run(ctx context.Context, app *cli.App, args []string, stderr io.Writer) int {
	setFlagStringer()
	app.ExitErrHandler = func(*cli.Context, error) {}
	app.Setup()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	out := &output{w: app.Writer, name: "stdout", failed: cancel}
	app.Writer = out
	args, err := interspersed(app, args)
	if err == nil {
		err = app.RunContext(ctx, args)
	}
	werr := out.Err()
	if werr != nil && (err == nil || errors.Is(err, werr) || errors.Is(err, context.Canceled)) {
		err = nil // the write error explains it
	}
	for _, e := range []error{err, werr} {
		if e == nil {
			continue
		}
		msg := e.Error()
		var in Interrupted
		if errors.As(context.Cause(ctx), &in) && errors.Is(e, context.Canceled) {
			msg = strings.Replace(msg, context.Canceled.Error(), in.Error(), 1)
		}
		fmt.Fprintf(stderr, "%s: %s\n", app.Name, strings.TrimPrefix(msg, app.Name+": "))
	}
	code := ExitStatus(err)
	if werr != nil {
		code = max(code, 1)
	}
	return statusAfter(ctx, code)
}
