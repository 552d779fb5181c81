package archive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/pdn"
)

// SplitOptions configures Split. Exactly one of Every and ByTag is set.
type SplitOptions struct {
	// Every puts this many games in each file: PREFIX0001.pdn, ...
	Every int
	// ByTag puts the games with the same value of this tag in one file:
	// PREFIX<value>.pdn, where characters other than letters, digits, '.',
	// '-' and '_' become '_' and a missing or empty tag gives "none". Two
	// values that would get the same name (compared without regard to
	// case, for file systems that ignore it) get different ones: the later
	// value gets "-2", "-3", ... after its name. SplitFile.Value says which
	// value each file holds.
	ByTag string
	// Prefix is put before every file name; it may include a directory,
	// which is created if needed.
	Prefix string
	// JSON writes JSON lines (.jsonl) instead of PDN.
	JSON bool
	// MaxOpen bounds the number of files open at once with ByTag; 0 means 64.
	MaxOpen int
	// SkipBad leaves out the games read with an error instead of writing
	// what could be read of them.
	SkipBad bool
	// OnError, if not nil, is called for each game read with an error.
	OnError func(error)
	// Force lets a file replace an existing file of the same name (an earlier
	// split's). Without it, a name that exists is an error (*ExistsError),
	// found before the file is written.
	Force bool
	// Check, if not nil, is called with the name of each file before it is
	// created; its error stops Split. (The pdn command refuses a name that is
	// one of its inputs, even with Force.)
	Check func(name string) error
}

// ExistsError is a file Split would write whose name is taken, without
// SplitOptions.Force.
type ExistsError struct{ Name string }

func (e *ExistsError) Error() string { return "pdn: split: " + e.Name + " exists: not overwritten" }

// Unwrap returns fs.ErrExist.
func (e *ExistsError) Unwrap() error { return fs.ErrExist }

// SplitFile is one file Split wrote.
type SplitFile struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"` // ByTag: the tag value of its games
	Games int    `json:"games"`
}

// SplitResult counts what Split did and lists the files it wrote, in the
// order first written.
type SplitResult struct {
	Read   int         `json:"read"`   // games read
	Games  int         `json:"games"`  // games in Files: written and kept
	Errors int         `json:"errors"` // games read with an error (written unless SkipBad)
	Files  []SplitFile `json:"files"`
}

// splitFile is an output file being written: a temporary file in the
// folder of its final name, renamed when it is complete.
type splitFile struct {
	SplitFile
	tmp  string   // its temporary name, once created
	seq  int      // the order it was created in
	f    *os.File // nil while closed (MaxOpen)
	w    pdn.GameWriter
	used int64
}

// Split reads the job's games and writes them into several files. Each
// file is written under a temporary name in its folder and renamed to its
// final name only when complete: with Every, when it has its games (or
// the input ends); with ByTag, when the input ends. So when Split stops
// early (ctx done, a read or write error), the files it lists are complete
// and nothing else it wrote is left behind. When ctx is done it stops
// before the next game and returns ctx.Err().
func Split(ctx context.Context, job Job, opt SplitOptions) (res SplitResult, err error) {
	if (opt.Every > 0) == (opt.ByTag != "") {
		return res, errors.New("pdn: split: set exactly one of Every and ByTag")
	}
	dir := filepath.Dir(opt.Prefix)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return res, fmt.Errorf("pdn: split: %w", err)
	}
	maxOpen := opt.MaxOpen
	if maxOpen <= 0 {
		maxOpen = 64
	}
	ext := ".pdn"
	if opt.JSON {
		ext = ".jsonl"
	}
	s := &splitter{opt: &opt, dir: dir, ext: ext, maxOpen: maxOpen, files: map[string]*splitFile{},
		names: map[string]bool{}, open: map[*splitFile]bool{}}
	defer func() {
		if cerr := s.finishAll(err == nil); err == nil {
			err = cerr
		}
		// What is on disk: the games of a file removed unfinished are not written.
		res.Files, res.Games = s.done, 0
		for _, f := range s.done {
			res.Games += f.Games
		}
	}()
	part := 0
	var cur *splitFile // Every: the part being written
	err = job.Each(ctx, func(in *Input, n int, g *pdn.Game, gerr error) error {
		res.Read++
		if gerr != nil {
			res.Errors++
			if opt.OnError != nil {
				opt.OnError(&InputError{Name: in.Name, Err: gerr})
			}
			if opt.SkipBad {
				return nil
			}
		}
		f := cur
		if opt.Every > 0 && f == nil {
			part++
			f = &splitFile{SplitFile: SplitFile{Name: fmt.Sprintf("%s%04d%s", opt.Prefix, part, ext)}}
			cur = f
		} else if opt.ByTag != "" {
			f = s.byTag(g.Get(opt.ByTag))
		}
		if err := s.write(f, g); err != nil {
			var ee *ExistsError
			if errors.As(err, &ee) || f.tmp == "" {
				return err // about the file, not the game
			}
			return fmt.Errorf("%s: game %d: %w", in.Name, n, err)
		}
		if opt.Every > 0 && f.Games == opt.Every {
			cur = nil
			return s.finish(f)
		}
		return nil
	})
	return res, err
}

// splitter holds the files of one Split.
type splitter struct {
	opt     *SplitOptions
	dir     string
	ext     string
	maxOpen int
	files   map[string]*splitFile // ByTag: by tag value
	names   map[string]bool       // ByTag: the names given, in lower case
	open    map[*splitFile]bool   // the files open, or created and closed, not yet finished
	clock   int64
	created int
	done    []SplitFile
}

// byTag returns the file of a tag value, giving it a name of its own.
func (s *splitter) byTag(value string) *splitFile {
	value = strings.TrimSpace(value)
	if f, ok := s.files[value]; ok {
		return f
	}
	base := s.opt.Prefix + fileSafe(value)
	name := base + s.ext
	for k := 2; s.names[strings.ToLower(name)]; k++ {
		name = base + "-" + strconv.Itoa(k) + s.ext
	}
	s.names[strings.ToLower(name)] = true
	f := &splitFile{SplitFile: SplitFile{Name: name, Value: value}}
	s.files[value] = f
	return f
}

// write writes g to f, creating or reopening its temporary file, and
// closing the least recently used one when too many are open.
func (s *splitter) write(f *splitFile, g *pdn.Game) error {
	s.clock++
	f.used = s.clock
	if f.f == nil {
		if err := s.reopen(f); err != nil {
			return err
		}
	}
	if err := f.w.Write(g); err != nil {
		return err
	}
	f.Games++
	return nil
}

func (s *splitter) reopen(f *splitFile) error {
	n := 0
	var oldest *splitFile
	for o := range s.open {
		if o.f != nil {
			n++
			if oldest == nil || o.used < oldest.used {
				oldest = o
			}
		}
	}
	if n >= s.maxOpen {
		if err := oldest.close(); err != nil {
			return err
		}
	}
	var err error
	appending := f.tmp != ""
	if appending {
		f.f, err = os.OpenFile(f.tmp, os.O_WRONLY|os.O_APPEND, 0)
	} else {
		if err := s.check(f.Name); err != nil {
			return err
		}
		f.f, err = os.CreateTemp(s.dir, "."+filepath.Base(f.Name)+".*.tmp")
		if err == nil {
			f.tmp = f.f.Name()
			s.created++
			f.seq = s.created
			err = f.f.Chmod(0o644) // as every output file (CreateTemp makes 0600)
		}
	}
	if err != nil {
		return err
	}
	s.open[f] = true
	if s.opt.JSON {
		f.w = pdn.NewJSONWriter(f.f)
		return nil
	}
	if appending {
		if _, err := io.WriteString(f.f, "\n"); err != nil {
			return err
		}
	}
	f.w = pdn.NewWriter(f.f)
	return nil
}

// check refuses to create the file name: Check's error, or an existing file
// without Force.
func (s *splitter) check(name string) error {
	if s.opt.Check != nil {
		if err := s.opt.Check(name); err != nil {
			return err
		}
	}
	if _, err := os.Lstat(name); err == nil && !s.opt.Force {
		return &ExistsError{Name: name}
	}
	return nil
}

// close flushes and closes f's temporary file.
func (f *splitFile) close() error {
	if f.f == nil {
		return nil
	}
	err := f.w.Flush()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	f.f, f.w = nil, nil
	return err
}

// finish closes f and gives it its final name.
func (s *splitter) finish(f *splitFile) error {
	delete(s.open, f)
	err := f.close()
	switch {
	case err != nil:
	case s.opt.Force:
		err = os.Rename(f.tmp, f.Name)
	default:
		// A link never replaces a file, even one made since f was created.
		if err = os.Link(f.tmp, f.Name); errors.Is(err, fs.ErrExist) {
			err = &ExistsError{Name: f.Name}
		}
		if err == nil {
			err = os.Remove(f.tmp)
		}
	}
	if err != nil {
		os.Remove(f.tmp)
		return err
	}
	s.done = append(s.done, f.SplitFile)
	return nil
}

// finishAll finishes the files not finished yet, in the order they were
// first written, when ok; otherwise it removes them.
func (s *splitter) finishAll(ok bool) error {
	pending := make([]*splitFile, 0, len(s.open))
	for f := range s.open {
		pending = append(pending, f)
	}
	sort.Slice(pending, func(i, j int) bool { return pending[i].seq < pending[j].seq })
	var first error
	for _, f := range pending {
		if ok && first == nil {
			first = s.finish(f)
			continue
		}
		delete(s.open, f)
		f.close()
		os.Remove(f.tmp)
	}
	return first
}

// fileSafe turns a tag value into a file-name part.
func fileSafe(v string) string {
	if v == "" {
		return "none"
	}
	b := []byte(v)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	if b[0] == '.' {
		b[0] = '_'
	}
	if len(b) > 80 {
		b = b[:80]
	}
	return string(b)
}
