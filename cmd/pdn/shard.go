package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/shard"
)

// Archives in shards
//
// validate, stats, convert, filter and dedupe run in shards with --shard K/N (or the
// scheduler's environment) and --out FILE: the games of all the inputs are numbered 0, 1,
// 2, ... in order, and shard K reads every game (to number them) but checks, counts,
// replays and writes only those whose number is K modulo N. It writes one shard file,
// FILE.shard-K-of-N.EXT, and `pdn merge` joins the N files into the output that one run of
// the command on one machine prints, byte for byte, with the same messages and exit status.
//
// A shard file is a JSON line (archive.ShardHeader: the command, its flags, the inputs' names,
// sizes and SHA-256, the shard), then one JSON line per game that has something to say
// (archive.ShardRecord: its problems, its output, its errors, its MoveHash for dedupe), in game
// order, a record's output following its line as raw bytes and a line break, and a last
// line with the counts (archive.ShardEnd). It is written under a temporary name and linked to its
// name when complete, never over an existing file.

// shardFlags are the flags of the commands that run in shards.
func shardFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "shard", Usage: "run shard `K/N`: only the games whose number over all the inputs (from 0) is K modulo N, " +
			"into --output, for pdn merge (default, with --output: from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with --shards)"},
		shardsFlag(),
		outputFlag(),
	}
}

// shardsFlag is --shards, of the commands that run in shards (and annotate).
func shardsFlag() cli.Flag {
	return &cli.IntFlag{Name: "shards", DefaultText: "none", Usage: "the number of shards `N`, when the index comes from Kubernetes' JOB_COMPLETION_INDEX"}
}

// notShardFlag lists the flags that do not change what a shard finds, left out of its
// header.
var notShardFlag = map[string]bool{"shard": true, "shards": true, "output": true, "jobs": true, "quiet": true, "help": true}

// shardOut writes a shard file.
type shardOut struct {
	h     archive.ShardHeader
	shard shard.Shard
	path  string // the shard file
	tmp   *os.File
	w     *bufio.Writer
	index map[string]int // input names to indexes
	end   archive.ShardEnd
	err   error // the first write error

	// Copy: the output of the game being written, and messages about it.
	out         bytes.Buffer
	sep         []byte // what the output has between games
	wrote       bool   // a game was written
	readErr     string
	replayErr   string
	flushOutput func() error
}

// shardOf returns the shard the command runs, from --shard or, with --out, from the
// environment, with its header (the inputs hashed); nil without a shard. begin creates its
// file.
func shardOf(c *cli.Context) (*shardOut, error) {
	if plainRun(c) {
		return nil, nil // --output is the file of the whole run
	}
	if !c.IsSet("shard") && !c.IsSet("out") {
		if c.IsSet("shards") {
			return nil, cliutil.Usagef("--shards: give --output FILE for the shard's file")
		}
		return nil, nil
	}
	sh, err := cliutil.ReadShard(c)
	if err != nil {
		return nil, err
	}
	out := c.String("out")
	switch {
	case sh.Count == 0:
		return nil, cliutil.Usagef("--out: give --shard K/N, or run in a Slurm array or an indexed Kubernetes Job (the output of a whole run goes to stdout)")
	case out == "":
		return nil, cliutil.Usagef("--shard %s: give --output FILE for the shard's file (pdn merge joins the shards)", sh)
	}
	if c.String("report") != "" {
		return nil, cliutil.Usagef("--report: not with a shard (run stats --report on the merged archive)")
	}
	names := c.Args().Slice()
	if len(names) == 0 {
		return nil, cliutil.Usagef("--shard: name the input files (standard input cannot be checked to be the same for every shard)")
	}
	so := &shardOut{shard: sh, path: sh.Path(out, true), index: map[string]int{}}
	h := archive.ShardHeader{Format: archive.ShardFormat, Command: c.Command.Name, Flags: shardFlagValues(c), Shard: sh.Index, Shards: sh.Count}
	for i, name := range names {
		if name == "-" {
			return nil, cliutil.Usagef("--shard: name the input files (standard input cannot be checked to be the same for every shard)")
		}
		if !cliutil.Reopenable(name) {
			return nil, cliutil.Usagef("--shard: %s is not a regular file (a stream cannot be checked to be the same for every shard)", name)
		}
		if _, ok := so.index[name]; ok {
			return nil, cliutil.Usagef("--shard: %s is given twice", name)
		}
		if !utf8.ValidString(name) {
			return nil, cliutil.Usagef("--shard: %q: the name is not UTF-8", name)
		}
		so.index[name] = i
	}
	if _, err := os.Lstat(so.path); err == nil {
		return nil, cliutil.Usagef("--output: %s exists (a shard never overwrites; remove it to run the shard again)", so.path)
	}
	for _, name := range names {
		in, err := identify(c.Context, name)
		if err != nil {
			return nil, err
		}
		h.Inputs = append(h.Inputs, in)
	}
	so.h = h
	return so, nil
}

// sharded reports whether the command runs a shard (a usage error otherwise is caught by
// shardOf).
func sharded(c *cli.Context) bool { return !plainRun(c) && (c.IsSet("shard") || c.IsSet("out")) }

// begin creates the shard file, under a temporary name, and writes its header.
func (so *shardOut) begin() error {
	tmp, err := os.CreateTemp(filepath.Dir(so.path), "."+filepath.Base(so.path)+".tmp*")
	if err != nil {
		return err
	}
	so.tmp, so.w = tmp, bufio.NewWriterSize(tmp, 256<<10)
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	so.line(so.h)
	return nil // a write error is returned by finish
}

// identify reads an input whole: its size and SHA-256.
func identify(ctx context.Context, name string) (archive.ShardInput, error) {
	f, err := cliutil.OpenInput(ctx, name)
	if err != nil {
		return archive.ShardInput{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return archive.ShardInput{}, fmt.Errorf("%s: %w", name, err)
	}
	return archive.ShardInput{Name: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// shardFlagValues lists the value of every flag of the command that changes its result,
// as flags that give it: --name=value, once per value of a repeated flag.
func shardFlagValues(c *cli.Context) []string {
	var fs []string
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		if notShardFlag[name] {
			continue
		}
		switch f.(type) {
		case *cli.BoolFlag:
			fs = append(fs, "--"+name+"="+strconv.FormatBool(c.Bool(name)))
		case *cli.IntFlag:
			fs = append(fs, "--"+name+"="+strconv.Itoa(c.Int(name)))
		case *cli.StringSliceFlag:
			for _, v := range c.StringSlice(name) {
				fs = append(fs, "--"+name+"="+v)
			}
		default:
			fs = append(fs, "--"+name+"="+c.String(name))
		}
	}
	return fs
}

// line writes v as a JSON line.
func (so *shardOut) line(v any) {
	if so.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		so.err = err
		return
	}
	so.w.Write(b)
	if err := so.w.WriteByte('\n'); err != nil {
		so.err = &cliutil.WriteError{Name: so.path, Err: err}
	}
}

// selector returns the Job.Select of the shard, which also counts the games.
func (so *shardOut) selector() func(int) bool {
	sel := so.shard.Has
	return func(i int) bool {
		so.end.Games = i + 1
		if !sel(i) {
			return false
		}
		so.end.ShardGames++
		return true
	}
}

// problem records a problem of a game of the shard.
func (so *shardOut) problem(p archive.Problem) {
	so.line(archive.ShardRecord{Input: so.index[p.File], Game: p.Game, Problem: &p})
}

// copyOptions sets up the shard's side of a copy to w, which writes to so.out: the output
// of each game and the messages about it are recorded with it.
func (so *shardOut) copyOptions(opt *archive.CopyOptions, w pdn.GameWriter, to string) error {
	if to == "pdn" {
		so.sep = []byte("\n") // pdn.Writer puts a blank line between games
	}
	so.flushOutput = w.Flush
	if err := w.Flush(); err != nil { // the csv header
		return err
	}
	so.end.Prefix = so.out.String()
	so.out.Reset()
	report := opt.OnError
	opt.OnError = func(err error) {
		report(err)
		var re *pdn.ReplayError
		if errors.As(err, &re) {
			so.replayErr = err.Error()
		} else {
			so.readErr = err.Error()
		}
	}
	opt.Outcome = so.outcome
	return nil
}

// outcome records what the copy did with a game of the shard, when the merge needs it.
func (so *shardOut) outcome(in *archive.Input, n int, o archive.CopyOutcome) {
	r := archive.ShardRecord{Input: so.index[in.Name], Game: n, Written: o.Written, Dropped: o.Dropped,
		ReadError: so.readErr, ReplayError: so.replayErr}
	so.readErr, so.replayErr = "", ""
	if o.Deduped {
		r.Hash = strconv.FormatUint(o.Hash, 16)
	}
	var p []byte
	if o.Written {
		if err := so.flushOutput(); err != nil && so.err == nil {
			so.err = err
		}
		p = so.out.Bytes()
		if so.wrote {
			if !bytes.HasPrefix(p, so.sep) {
				so.err = fmt.Errorf("%s: game %d: the output does not start with %q", in.Name, n, so.sep)
			}
			p = p[len(so.sep):]
		}
		so.wrote = true
		r.Bytes = len(p)
	}
	if !o.Written && r.Hash == "" && r.ReadError == "" && r.ReplayError == "" {
		return
	}
	so.line(r)
	if o.Written {
		so.w.Write(p)
		so.w.WriteByte('\n')
		so.out.Reset()
	}
}

// finish records the inputs that could not be read (from err, the error of the run) and
// the end, and gives the shard file its name. It says on stderr what the shard did.
func (so *shardOut) finish(c *cli.Context, err error) error {
	defer func() {
		so.tmp.Close()
		os.Remove(so.tmp.Name())
	}()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return interrupted(err, so.end.ShardGames)
	}
	list, inputs := archive.InputErrors(err)
	if err != nil && !inputs {
		return err
	}
	for _, ie := range list {
		so.end.InputErrors = append(so.end.InputErrors, archive.ShardInputError{Name: ie.Name, Error: ie.Error(), NoGames: errors.Is(ie, archive.ErrNoGames)})
	}
	so.line(archive.ShardRecord{End: &so.end})
	if so.err == nil {
		so.err = so.w.Flush()
	}
	if so.err == nil {
		so.err = so.tmp.Sync()
	}
	if cerr := so.tmp.Close(); so.err == nil {
		so.err = cerr
	}
	if so.err != nil {
		return so.err
	}
	if err := os.Link(so.tmp.Name(), so.path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: written meanwhile by another run: this shard's file is not kept", so.path)
		}
		return err
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "pdn: shard %s: %d of %d games, to %s (pdn merge joins the shards)\n",
			so.shard, so.end.ShardGames, so.end.Games, so.path)
	}
	return nil
}
