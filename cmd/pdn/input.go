package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/pdn"
)

// inputs turns the arguments into pdn.Inputs; none or "-" is stdin.
func inputs(c *cli.Context) []archive.Input {
	names := c.Args().Slice()
	if len(names) == 0 {
		names = []string{"-"}
	}
	stdin, _ := c.Context.Value(stdinKey{}).(io.Reader)
	ctx := c.Context
	ins := make([]archive.Input, len(names))
	for i, name := range names {
		name := name
		ins[i] = archive.Input{Name: name}
		if name == "-" {
			ins[i].Open = func() (io.ReadCloser, error) { return io.NopCloser(cliutil.InterruptibleReader(ctx, stdin)), nil }
			continue
		}
		if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() {
			ins[i].Size = fi.Size()
		}
		ins[i].Open = func() (io.ReadCloser, error) { return cliutil.OpenInput(ctx, name) }
	}
	return ins
}

// Whether readJob infers the variant of the games without a GameType tag, input by input
// (unless --variant gives it), and whether it says so on stderr.
const (
	noInfer    = iota
	infer      // the command infers while it replays (archive's Infer option); its report shows the variants
	inferNoted // the command says nothing else about variants: a line per input on stderr
)

// readJob reads the input flags and arguments into a job, with a progress bar when stderr
// is a terminal and the input is large. With inferNoted, it first reads every input once to
// infer the variant of its games without a GameType tag; with infer, the command does it as
// it goes. Either way an input that cannot be opened twice (standard input, a FIFO, a
// process substitution: cliutil.Reopenable) is kept in a temporary file, to be read twice;
// without inference every input is read once. done ends the progress bar and removes that
// file.
func readJob(c *cli.Context, mode int) (job archive.Job, done func(), err error) {
	enc, err := pdn.ParseEncoding(c.String("encoding"))
	if err != nil {
		return archive.Job{}, nil, flagError("--encoding", err)
	}
	if f, ok := c.Context.Value(stdoutKey{}).(*os.File); ok {
		if err := cliutil.OpenNotAnInput(f, "standard output", c.Args().Slice()...); err != nil {
			return archive.Job{}, nil, cliutil.UsageError{Err: err}
		}
	}
	job = archive.Job{Inputs: inputs(c), Reader: pdn.ReaderOptions{Strict: c.Bool("strict"), Encoding: enc}, Jobs: c.Int("jobs")}
	var cleanup []func()
	done = func() {
		for _, f := range cleanup {
			f()
		}
	}
	if mode != noInfer && !c.IsSet("variant") {
		for i := range job.Inputs {
			if in := &job.Inputs[i]; !cliutil.Reopenable(in.Name) {
				path, err := spool(c.Context, in)
				if path != "" {
					cleanup = append(cleanup, func() { os.Remove(path) })
				}
				if err != nil {
					done()
					return job, nil, interrupted(err, 0)
				}
			}
		}
		if mode == inferNoted {
			if err := job.InferVariants(c.Context); err != nil {
				done()
				return job, nil, interrupted(err, 0)
			}
			for _, note := range inferenceNotes(job) {
				fmt.Fprintln(c.App.ErrWriter, note)
			}
		}
	}
	var total int64
	for _, in := range job.Inputs {
		total += in.Size
	}
	if total >= 8<<20 {
		if bar := cliutil.Progress(c.App.ErrWriter, c.Bool("quiet"), total, "reading", progressbar.OptionShowBytes(true)); bar != nil {
			job.Progress = func(d, _ int64) { bar.Set64(d) }
			cleanup = append([]func(){func() { bar.Finish() }}, cleanup...)
		}
	}
	return job, done, nil
}

// inferenceNotes are the lines that say which variant the games without a GameType tag of
// each input were inferred to be.
func inferenceNotes(job archive.Job) []string {
	var notes []string
	for _, in := range job.Inputs {
		if inf := in.Inferred; inf != nil && inf.Variant != nil {
			notes = append(notes, fmt.Sprintf("pdn: %s: %d %s without a GameType tag: %v", in.Name, inf.Games, plural(inf.Games, "game", "games"), inf))
		}
	}
	return notes
}

// spool copies what in opens (standard input, a FIFO) into a temporary file, which in then
// opens, so that it can be read twice. It returns the file's path ("" if none was made).
// The file is bounded by cliutil.SpoolLimit. An input that cannot be kept then opens with
// the error, for the job to report it with the other inputs' errors; the error returned is
// ctx's only.
func spool(ctx context.Context, in *archive.Input) (string, error) {
	src, err := in.Open()
	if err == nil {
		defer src.Close()
	}
	var path string
	var n int64
	if err == nil {
		path, n, err = cliutil.Spool(ctx, src, in.Name, cliutil.SpoolLimit())
	}
	if cerr := ctx.Err(); cerr != nil {
		return "", cerr
	}
	if err != nil {
		in.Open = func() (io.ReadCloser, error) { return nil, err }
		return "", nil
	}
	in.Size = n
	in.Open = func() (io.ReadCloser, error) { return cliutil.OpenInput(ctx, path) }
	return path, nil
}

// plural returns one for n == 1 and many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
