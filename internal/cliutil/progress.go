package cliutil

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress returns a progress bar on w over total units (-1: unknown) when w is a terminal
// and quiet is false, and nil otherwise: long work shows progress on a terminal and stays
// quiet in pipes and logs. w is a terminal when it is an *os.File on one, or when it has an
// IsTerminal method that says so (as tests' writers do, to see the bar). desc labels the bar: what is being done ("reading", "fit",
// "games"); an empty desc is shown as "working". The bar is drawn at once, so that its clock
// starts with the work and its first rate is a true average (not the burst of the first
// buffer read); it is redrawn at most ten times a second and cleared when finished. opts
// add to or override these: the unit (progressbar.OptionShowBytes,
// progressbar.OptionShowCount with progressbar.OptionSetItsString), and
// progressbar.OptionSetPredictTime(false) for work whose rate varies too much for a
// remaining time to mean anything.
func Progress(w io.Writer, quiet bool, total int64, desc string, opts ...progressbar.Option) *progressbar.ProgressBar {
	if quiet || !isTerminal(w) {
		return nil
	}
	return newBar(w, total, desc, opts...)
}

func isTerminal(w io.Writer) bool {
	switch w := w.(type) {
	case *os.File:
		return term.IsTerminal(int(w.Fd()))
	case interface{ IsTerminal() bool }:
		return w.IsTerminal()
	}
	return false
}

// newBar is Progress on any writer.
func newBar(w io.Writer, total int64, desc string, opts ...progressbar.Option) *progressbar.ProgressBar {
	if desc == "" {
		desc = "working"
	}
	base := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetPredictTime(total > 0),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
	}
	return progressbar.NewOptions64(total, append(base, opts...)...)
}
