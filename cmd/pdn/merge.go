package main

import (
	"bufio"
	"bytes"
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/annotate"
	"github.com/rafle/rafle/pkg/archive"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join the shards of validate, stats, convert, filter, dedupe or annotate into the output of one run",
		UsageText: "pdn merge [--output FILE] SHARD...",
		Description: "Reads the files that the N shards of a command wrote (--shard K/N --output FILE) and prints\n" +
			"what the command run once on one machine prints, byte for byte: the problems and counts of\n" +
			"validate, the statistics of stats, the games of convert, filter and dedupe in input order\n" +
			"(dedupe keeps the first of equal games over all the shards), with the same messages on\n" +
			"stderr and the same exit status. It first checks that the files are the N shards of one\n" +
			"job, each once and complete: the same command and flags, the same inputs (names, sizes and\n" +
			"SHA-256), and that they read the same games; it refuses anything else, saying why, before\n" +
			"it prints anything (a file damaged inside stops it where the damage is; --output then keeps\n" +
			"no file). The inputs themselves are not read.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: cliutil.OutputAliases, Usage: "write the output to `FILE` (which must not exist) instead of stdout"},
		},
		OnUsageError: cliutil.OnUsageError,
		Action:       mergeAction,
	}
}

// mergeKey passes the shards being merged to the command's action through the context.
type mergeKey struct{}

// merging returns the shards the command merges instead of reading its inputs, if any.
func merging(c *cli.Context) *shardSet {
	m, _ := c.Context.Value(mergeKey{}).(*shardSet)
	return m
}

// mergeError is a set of shard files that does not make one job: no output is kept.
type mergeError struct{ error }

// isMergeError reports whether err is a mergeError.
func isMergeError(err error) bool {
	var me mergeError
	return errors.As(err, &me)
}

func mergeAction(c *cli.Context) error {
	names := c.Args().Slice()
	if len(names) == 0 {
		return cliutil.Usagef("merge: give the shard files (pdn COMMAND --shard K/N --output FILE writes them)")
	}
	out := c.String("out")
	if out != "" {
		if _, err := os.Lstat(out); err == nil {
			return cliutil.Usagef("--output %s: the file exists (merge never overwrites)", out)
		}
	}
	if annotate.IsJournal(names[0]) {
		return annotateMerge(c, names, out)
	}
	m, err := openShards(c.Context, names)
	if err != nil {
		return err
	}
	defer m.close()
	args := append([]string{"pdn", m.h.Command}, m.h.Flags...)
	args = append(args, "--")
	for _, in := range m.h.Inputs {
		args = append(args, in.Name)
	}
	ctx := context.WithValue(c.Context, mergeKey{}, m)
	run := func(w io.Writer) error {
		app := newApp(w, c.App.ErrWriter)
		app.ExitErrHandler = func(*cli.Context, error) {}
		return app.RunContext(ctx, args)
	}
	if out == "" {
		return run(c.App.Writer)
	}
	return createFile(out, run)
}

// createFile writes the new file path with write: under a temporary name, linked to path
// when complete (never over an existing file). The file is kept when write returns an
// error about the data (as a command's output is), not when it fails otherwise.
func createFile(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name())
	}()
	bw := bufio.NewWriterSize(tmp, 256<<10)
	werr := write(bw)
	if isMergeError(werr) || errors.Is(werr, context.Canceled) {
		return werr
	}
	err = bw.Flush()
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &cliutil.WriteError{Name: path, Err: err}
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: written meanwhile by another run: not overwritten", path)
		}
		return err
	}
	return werr
}

// shardFile is one shard file being read.
type shardFile struct {
	name string
	f    *os.File
	r    *bufio.Reader
	h    shardHeader
	end  *shardEnd
	head *shardRecord // the next record, nil after the last
	body []byte       // the output of head
}

// maxShardLine bounds a line of a shard file (a record; the end, with the statistics, is
// the longest).
const maxShardLine = 1 << 30

// readLine reads a line of the shard file, without its line break.
func (s *shardFile) readLine() ([]byte, error) {
	var line []byte
	for {
		frag, err := s.r.ReadSlice('\n')
		line = append(line, frag...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case err == bufio.ErrBufferFull && len(line) < maxShardLine:
			continue
		case err == io.EOF:
			return nil, fmt.Errorf("%s: truncated: no end record", s.name)
		case err == bufio.ErrBufferFull:
			return nil, fmt.Errorf("%s: not a pdn shard file: a line longer than %d bytes", s.name, maxShardLine)
		}
		return nil, err
	}
}

// advance reads the next record.
func (s *shardFile) advance() error {
	line, err := s.readLine()
	if err != nil {
		return err
	}
	prev := s.head
	s.head = &shardRecord{}
	if err := json.Unmarshal(line, s.head); err != nil {
		return fmt.Errorf("%s: not a pdn shard file: %v", s.name, err)
	}
	r := s.head
	if r.End != nil {
		s.head = nil
		return nil
	}
	if r.Input < 0 || r.Input >= len(s.h.Inputs) || r.Game < 1 || r.Bytes < 0 ||
		prev != nil && (r.Input < prev.Input || r.Input == prev.Input && r.Game < prev.Game) {
		return fmt.Errorf("%s: not a pdn shard file: record of input %d, game %d out of order", s.name, r.Input, r.Game)
	}
	if r.Bytes > 0 || r.Written {
		s.body = slices.Grow(s.body[:0], r.Bytes+1)[:r.Bytes+1]
		if _, err := io.ReadFull(s.r, s.body); err != nil || s.body[r.Bytes] != '\n' {
			return fmt.Errorf("%s: truncated or damaged in the output of game %d of %s", s.name, r.Game, s.h.Inputs[r.Input].Name)
		}
		s.body = s.body[:r.Bytes]
	}
	return nil
}

// readEnd reads the last line of the file, its end record.
func (s *shardFile) readEnd() error {
	st, err := s.f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	// The last line starts after the last line break before the final one.
	const block = 64 << 10
	var tail []byte
	for off := size; ; {
		if i := bytes.LastIndexByte(bytes.TrimSuffix(tail, []byte("\n")), '\n'); i >= 0 || off == 0 {
			tail = tail[i+1:]
			break
		}
		if int64(len(tail)) > maxShardLine {
			return fmt.Errorf("%s: not a pdn shard file: no end record", s.name)
		}
		n := min(block, off)
		off -= n
		buf := make([]byte, n, int64(len(tail))+n)
		if _, err := s.f.ReadAt(buf, off); err != nil {
			return err
		}
		tail = append(buf, tail...)
	}
	var r shardRecord
	if err := json.Unmarshal(tail, &r); err != nil || r.End == nil || !bytes.HasSuffix(tail, []byte("\n")) {
		return fmt.Errorf("%s: truncated: no end record", s.name)
	}
	s.end = r.End
	return nil
}

// shardSet is the shard files of one job, read in game order.
type shardSet struct {
	h     shardHeader  // the job's, of the first file
	files []*shardFile // by shard index
	queue shardQueue
}

func (m *shardSet) close() {
	for _, s := range m.files {
		if s != nil && s.f != nil {
			s.f.Close()
		}
	}
}

// openShards opens the shard files names and checks that they are the shards of one job,
// each once, complete, and that they read the same games.
func openShards(ctx context.Context, names []string) (_ *shardSet, err error) {
	m := &shardSet{}
	defer func() {
		if err != nil {
			m.close()
			err = mergeError{err}
		}
	}()
	var opened []*shardFile
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !cliutil.Reopenable(name) {
			// (its end record is read first: a stream would be read twice, or waited on)
			return nil, fmt.Errorf("%s: not a regular file: a shard file is read from its end first", name)
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		s := &shardFile{name: name, f: f, r: bufio.NewReaderSize(f, 256<<10)}
		m.files = append(m.files, s) // closed on error
		opened = append(opened, s)
		line, err := s.readLine()
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(line, &s.h); err != nil || s.h.Format != shardFormat {
			return nil, fmt.Errorf("%s: not a pdn shard file (pdn COMMAND --shard K/N --output FILE writes them)", name)
		}
		if s.h.Shards < 1 || s.h.Shard < 0 || s.h.Shard >= s.h.Shards {
			return nil, fmt.Errorf("%s: shard %d/%d: want 0 <= K < N", name, s.h.Shard, s.h.Shards)
		}
		if err := s.readEnd(); err != nil {
			return nil, err
		}
		if err := s.advance(); err != nil {
			return nil, err
		}
	}
	first := opened[0]
	m.h = first.h
	byIndex := make([]*shardFile, m.h.Shards)
	for _, s := range opened {
		if why := otherJob(s.h, first.h); why != "" {
			return nil, fmt.Errorf("%s is a shard of another job than %s: %s", s.name, first.name, why)
		}
		if o := byIndex[s.h.Shard]; o != nil {
			return nil, fmt.Errorf("shard %d/%d twice: %s and %s", s.h.Shard, s.h.Shards, o.name, s.name)
		}
		byIndex[s.h.Shard] = s
	}
	var missing []string
	for k, s := range byIndex {
		if s == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", k, m.h.Shards))
		}
	}
	if len(missing) > 0 {
		const maxListed = 10
		more := ""
		if len(missing) > maxListed {
			more = fmt.Sprintf(" and %d more", len(missing)-maxListed)
			missing = missing[:maxListed]
		}
		return nil, fmt.Errorf("missing shards: %s%s", strings.Join(missing, ", "), more)
	}
	m.files = byIndex
	ierr, _ := json.Marshal(first.end.InputErrors)
	for _, s := range byIndex {
		e := s.end
		if e.Games != first.end.Games {
			return nil, fmt.Errorf("%s read %d games and %s %d: the shards did not read the inputs alike", s.name, e.Games, first.name, first.end.Games)
		}
		if k, n := s.h.Shard, s.h.Shards; e.ShardGames != (e.Games+n-1-k)/n {
			return nil, fmt.Errorf("%s: shard %d/%d holds %d games; of the %d games, it should hold %d", s.name, k, n, e.ShardGames, e.Games, (e.Games+n-1-k)/n)
		}
		if b, _ := json.Marshal(e.InputErrors); !bytes.Equal(b, ierr) {
			return nil, fmt.Errorf("%s and %s could not read the same inputs: %s, not %s", s.name, first.name, b, ierr)
		}
		if e.Prefix != first.end.Prefix {
			return nil, fmt.Errorf("%s and %s start their output differently", s.name, first.name)
		}
		if s.head != nil {
			m.queue = append(m.queue, s)
		}
	}
	heap.Init(&m.queue)
	return m, nil
}

// otherJob says how shard header h differs from the job's, or "" when it does not.
func otherJob(h, job shardHeader) string {
	switch {
	case h.Command != job.Command:
		return fmt.Sprintf("pdn %s, not pdn %s", h.Command, job.Command)
	case h.Shards != job.Shards:
		return fmt.Sprintf("%d shards, not %d", h.Shards, job.Shards)
	case len(h.Inputs) != len(job.Inputs):
		return fmt.Sprintf("%d inputs, not %d", len(h.Inputs), len(job.Inputs))
	}
	for i, in := range h.Inputs {
		if in != job.Inputs[i] {
			return fmt.Sprintf("input %d is %s (%d bytes, SHA-256 %.12s...), not %s (%d bytes, SHA-256 %.12s...)",
				i+1, in.Name, in.Size, in.SHA256, job.Inputs[i].Name, job.Inputs[i].Size, job.Inputs[i].SHA256)
		}
	}
	if slices.Equal(h.Flags, job.Flags) {
		return ""
	}
	// Name the first flag that differs, with the other's value.
	values := func(flags []string, name string) string {
		var vs []string
		for _, f := range flags {
			if n, _, _ := strings.Cut(f, "="); n == name {
				vs = append(vs, f)
			}
		}
		if len(vs) == 0 {
			return "no " + name
		}
		return strings.Join(vs, " ")
	}
	for _, f := range append(slices.Clone(h.Flags), job.Flags...) {
		name, _, _ := strings.Cut(f, "=")
		if a, b := values(h.Flags, name), values(job.Flags, name); a != b {
			return a + ", not " + b
		}
	}
	return fmt.Sprintf("flags %s, not %s", strings.Join(h.Flags, " "), strings.Join(job.Flags, " "))
}

// shardQueue orders the shard files by their next record.
type shardQueue []*shardFile

func (q shardQueue) Len() int { return len(q) }
func (q shardQueue) Less(i, j int) bool {
	a, b := q[i].head, q[j].head
	if a.Input != b.Input {
		return a.Input < b.Input
	}
	if a.Game != b.Game {
		return a.Game < b.Game
	}
	return q[i].h.Shard < q[j].h.Shard
}
func (q shardQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *shardQueue) Push(x any)   { *q = append(*q, x.(*shardFile)) }
func (q *shardQueue) Pop() any {
	old := *q
	s := old[len(old)-1]
	*q = old[:len(old)-1]
	return s
}

// each calls fn with every record of every shard, in game order, and the output that
// follows it (valid during the call).
func (m *shardSet) each(ctx context.Context, fn func(r *shardRecord, body []byte) error) error {
	var last *shardFile
	lastInput, lastGame := -1, 0
	for n := 0; len(m.queue) > 0; n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		s := m.queue[0]
		r := s.head
		if last != nil && last != s && r.Input == lastInput && r.Game == lastGame {
			return mergeError{fmt.Errorf("%s and %s both hold game %d of %s", last.name, s.name, r.Game, m.h.Inputs[r.Input].Name)}
		}
		last, lastInput, lastGame = s, r.Input, r.Game
		if err := fn(r, s.body); err != nil {
			return err
		}
		if err := s.advance(); err != nil {
			return mergeError{err}
		}
		if s.head == nil {
			heap.Pop(&m.queue)
		} else {
			heap.Fix(&m.queue, 0)
		}
	}
	return nil
}

// problems calls fn with every problem of the shards, in game order.
func (m *shardSet) problems(ctx context.Context, fn func(archive.Problem)) error {
	return m.each(ctx, func(r *shardRecord, _ []byte) error {
		if r.Problem != nil {
			fn(*r.Problem)
		}
		return nil
	})
}

// inputErr is the error that the inputs that could not be read make (as archive.Job.Each
// returns it), or nil.
func (m *shardSet) inputErr() error {
	var errs []error
	for _, e := range m.files[0].end.InputErrors {
		ie := &archive.InputError{Name: e.Name, Err: archive.ErrNoGames}
		if !e.NoGames {
			ie.Err = storedError{strings.TrimPrefix(e.Error, "pdn: "), e.Name}
		}
		errs = append(errs, ie)
	}
	return errors.Join(errs...)
}

// storedError is the text of an input's error read from a shard file, which a
// *archive.InputError of the input prints as it was printed in the shard: "pdn: " and the text
// (it passes for an error naming the input, as os.Open's do).
type storedError struct{ text, name string }

func (e storedError) Error() string { return e.text }

// As makes errors.As see a *fs.PathError naming the input (see archive.InputError.Error).
func (e storedError) As(target any) bool {
	if pe, ok := target.(**fs.PathError); ok {
		*pe = &fs.PathError{Path: e.name, Err: errors.New(e.text)}
		return true
	}
	return false
}

// validate merges the problems (to fn, in game order) and the summaries of validate.
func (m *shardSet) validate(ctx context.Context, fn func(archive.Problem)) ([]*archive.Summary, error) {
	if err := m.problems(ctx, fn); err != nil {
		return nil, err
	}
	sums := m.files[0].end.Summaries
	for _, s := range m.files[1:] {
		if len(s.end.Summaries) != len(sums) {
			return nil, mergeError{fmt.Errorf("%s: %d summaries, not %d", s.name, len(s.end.Summaries), len(sums))}
		}
		for i, o := range s.end.Summaries {
			sums[i].Add(o)
		}
	}
	return sums, m.inputErr()
}

// stats merges the errors (to fn, in game order) and the statistics of stats.
func (m *shardSet) stats(ctx context.Context, fn func(archive.Problem)) (*archive.Stats, error) {
	if err := m.problems(ctx, fn); err != nil {
		return nil, err
	}
	st := archive.NewStats()
	for _, s := range m.files {
		if s.end.Stats == nil {
			return nil, mergeError{fmt.Errorf("%s: no statistics", s.name)}
		}
		st.Merge(s.end.Stats)
	}
	return st, m.inputErr()
}

// copy merges the output of convert, filter and dedupe to w, in game order: the games
// written, separated by sep, after the output's prefix; onError gets the errors of the
// games. With dedupe, a game that a shard kept as new is dropped when a game before it, in
// another shard, had the same MoveHash: the first of equal games over all the shards is
// kept, as one run keeps it.
func (m *shardSet) copy(ctx context.Context, w io.Writer, sep string, dedupe bool, onError func(error)) (archive.CopyResult, error) {
	var res archive.CopyResult
	for _, s := range m.files {
		c := s.end.Copy
		if c == nil {
			return res, mergeError{fmt.Errorf("%s: no counts", s.name)}
		}
		res.Read += c.Read
		res.Written += c.Written
		res.Filtered += c.Filtered
		res.Duplicates += c.Duplicates
		res.Errors += c.Errors
		res.ReplayErrors += c.ReplayErrors
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	bw.WriteString(m.files[0].end.Prefix)
	seen := map[uint64]struct{}{}
	wrote := false
	err := m.each(ctx, func(r *shardRecord, body []byte) error {
		if r.ReadError != "" {
			onError(errors.New(r.ReadError))
		}
		if dedupe && r.Hash != "" {
			h, err := strconv.ParseUint(r.Hash, 16, 64)
			if err != nil {
				return mergeError{fmt.Errorf("game %d of %s: bad hash %q", r.Game, m.h.Inputs[r.Input].Name, r.Hash)}
			}
			if _, dup := seen[h]; dup {
				// A game before it, in another shard, has its moves: one run drops
				// it before the replay stage.
				res.Duplicates++
				if r.Written {
					res.Written--
				}
				if r.Dropped {
					res.Filtered--
				}
				if r.ReplayError != "" {
					res.ReplayErrors--
				}
				return nil
			}
			seen[h] = struct{}{}
		}
		if r.ReplayError != "" {
			onError(errors.New(r.ReplayError))
		}
		if r.Written {
			if wrote {
				bw.WriteString(sep)
			}
			wrote = true
			if _, err := bw.Write(body); err != nil {
				return err
			}
		}
		return nil
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return res, err
	}
	return res, m.inputErr()
}
