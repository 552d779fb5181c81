package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// errUsage marks errors in the command line (exit code 2).
var errUsage = errors.New("usage")

// errFailed marks a failed check whose report is already written (exit code 1, no message).
var errFailed = errors.New("failed")

const usage = `usage: go run ./benchmarks <command> [flags]

commands:
  run        run the suite, print a table, write JSON with --out (the default command)
  signature  print, --check or --update the bench signatures (benchmarks/signatures.json)
  compare    compare the working tree with --base REV, interleaved, as a regression gate
  plot       plot benchmarks/history/*.json as SVG and print the history table
  history    record results of older revisions (--revs A,B,C) in benchmarks/history
  list       list the benchmarks and their workloads

"go run ./benchmarks <command> -h" shows the flags of a command; run is the default.
`

// run runs the command line args and returns the exit code: 0, 1 for a failed check or
// error, 2 for a usage error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd, named := "run", false
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args, named = args[0], args[1:], true
	}
	commands := map[string]func(context.Context, []string, io.Writer, io.Writer) error{
		"run": cmdRun, "signature": cmdSignature, "compare": cmdCompare, "plot": cmdPlot,
		"list": cmdList, "exec": cmdExec, "history": cmdHistory,
	}
	fn, ok := commands[cmd]
	// "benchmarks -h" is the general usage; "benchmarks CMD -h" the command's own flags
	if cmd == "help" || !named && len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if !ok {
		fmt.Fprintf(stderr, "benchmarks: unknown command %q\n%s", cmd, usage)
		return 2
	}
	err := fn(ctx, args, stdout, stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "benchmarks %s: %v\n", cmd, err)
		return 2
	case errors.Is(err, errFailed):
		return 1
	}
	fmt.Fprintf(stderr, "benchmarks %s: %v\n", cmd, err)
	return 1
}

// newFlags returns a flag set that reports its errors as usage errors.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("benchmarks "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses args, wrapping errors other than -h in errUsage, and rejects arguments.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}
