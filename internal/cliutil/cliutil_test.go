package cliutil

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestExitStatus(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("bad data"), 1},
		{Usagef("--depth %d: out of range", 0), 2},
		{fmt.Errorf("wrapped: %w", UsageError{Err: errors.New("x")}), 2},
		{errors.New("flag provided but not defined: -nonsense"), 2},
		{errors.New(`Required flag "depth" not set`), 2},
	} {
		if got := ExitStatus(tc.err); got != tc.want {
			t.Errorf("ExitStatus(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

func TestRun(t *testing.T) {
	app := &cli.App{
		Name:         "demo",
		Flags:        []cli.Flag{&cli.IntFlag{Name: "n"}},
		OnUsageError: OnUsageError,
		Action:       func(c *cli.Context) error { return fmt.Errorf("n=%d is bad", c.Int("n")) },
	}
	var stderr bytes.Buffer
	if got := Run(context.Background(), app, []string{"demo", "--n", "3"}, &stderr); got != 1 || stderr.String() != "demo: n=3 is bad\n" {
		t.Errorf("Run with a failing action: %d, %q", got, stderr.String())
	}
	stderr.Reset()
	if got := Run(context.Background(), app, []string{"demo", "--n", "x"}, &stderr); got != 2 {
		t.Errorf("Run with a bad flag value: %d, %q", got, stderr.String())
	}
	stderr.Reset()
	app.Action = func(*cli.Context) error { return errors.New("demo: already named") }
	if got := Run(context.Background(), app, []string{"demo"}, &stderr); got != 1 || stderr.String() != "demo: already named\n" {
		t.Errorf("Run with an error that names the command: %d, %q", got, stderr.String())
	}
	if bar := Progress(&stderr, false, 10, "x"); bar != nil {
		t.Errorf("Progress on a buffer: a bar, want none (not a terminal)")
	}
}

func TestCheckJobs(t *testing.T) {
	if err := CheckJobs("-j", 1); err != nil {
		t.Errorf("-j 1: %v", err)
	}
	for _, n := range []int{0, -3, MaxJobsPerCPU*runtime.NumCPU() + 1, 99999999999} {
		err := CheckJobs("-j", n)
		if err == nil || ExitStatus(err) != 2 || !strings.Contains(err.Error(), "-j") {
			t.Errorf("-j %d: got %v, want a usage error naming -j", n, err)
		}
	}
}

func TestCheckMemory(t *testing.T) {
	if err := CheckMemory("--hash", 16); err != nil {
		t.Errorf("--hash 16: %v", err)
	}
	for _, mib := range []int64{-1, 99999999999999} {
		err := CheckMemory("--hash", mib)
		if err == nil || ExitStatus(err) != 2 || !strings.Contains(err.Error(), "--hash") {
			t.Errorf("--hash %d: got %v, want a usage error naming --hash", mib, err)
		}
	}
	if avail, ok := AvailableMiB(); ok {
		if err := CheckMemory("--hash", avail+1); err == nil {
			t.Errorf("--hash %d (available %d): accepted", avail+1, avail)
		}
	}
}
