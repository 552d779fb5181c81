package annotate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/internal/filelock"
	"github.com/rafle/rafle/pkg/internal/jsonl"
)

// JournalFormat is the first field of a journal, and its version.
const JournalFormat = "rafle pdn annotate journal 1"

// Header is the first line of a journal: what fixes the analysis of every game (the
// analyser and its limits, the thresholds, the database, the inputs), and the shard.
type Header struct {
	Format   string      `json:"format"`
	Settings []string    `json:"settings"`
	Inputs   []InputID   `json:"inputs"`
	Shard    string      `json:"shard,omitempty"` // "K/N" for a shard's file
	End      *JournalEnd `json:"-"`
}

// InputID identifies an input file.
type InputID struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// JournalEnd is the last line of a journal whose run went to the end of its inputs.
type JournalEnd struct {
	Games    int `json:"games"`    // the games the inputs hold
	Analysed int `json:"analysed"` // the records of the journal (the shard's games)
}

// journalLine is one line after the header: a record, or the end.
type journalLine struct {
	*Record
	End *JournalEnd `json:"end,omitempty"`
}

// ErrJournalMismatch is returned, wrapped, when a journal was written by a run with other
// settings or inputs.
var ErrJournalMismatch = errors.New("journal belongs to another analysis")

// ErrJournalExists is returned, wrapped, when a run that does not resume would write over
// a journal that holds games.
var ErrJournalExists = errors.New("journal already holds games (resume it, or remove it)")

// ErrJournalLocked is returned, wrapped, when another run holds the journal.
var ErrJournalLocked = errors.New("journal is in use by another run (a second pdn annotate on the same output?)")

// ReadJournal reads a journal: its header (with its end, if it has one) and its records
// in file order. A torn last line (a crash during a write) is left out; good is the length
// of the intact part.
func ReadJournal(r io.Reader, name string) (h Header, recs []*Record, good int64, err error) {
	br := bufio.NewReader(r)
	var offset int64
	for n := 1; ; n++ {
		line, rerr := br.ReadBytes('\n')
		if len(line) == 0 && rerr == io.EOF {
			break
		}
		if rerr != nil && rerr != io.EOF {
			return h, nil, 0, fmt.Errorf("annotate: journal %s: %w", name, rerr)
		}
		complete := rerr == nil
		var perr error
		var rec *Record
		var end *JournalEnd
		if n == 1 {
			perr = json.Unmarshal(line, &h)
			if perr == nil && h.Format != JournalFormat {
				perr = fmt.Errorf("format %q, want %q", h.Format, JournalFormat)
			}
		} else {
			var l journalLine
			switch perr = json.Unmarshal(line, &l); {
			case perr != nil:
			case h.End != nil:
				perr = errors.New("a line after the end")
			case l.End != nil:
				end = l.End
			case l.Record == nil:
				perr = errors.New("neither a game nor the end")
			case len(recs) > 0 && recs[len(recs)-1].Index >= l.Index:
				perr = fmt.Errorf("game %d after game %d", l.Index, recs[len(recs)-1].Index)
			default:
				rec = l.Record
			}
		}
		if perr != nil || !complete {
			if _, err := br.Peek(1); err == io.EOF && n > 1 {
				break // a torn last line: its game is analysed again
			}
			if perr == nil {
				perr = errors.New("unterminated line")
			}
			return h, nil, 0, fmt.Errorf("annotate: journal %s: line %d: %v", name, n, perr)
		}
		if rec != nil {
			recs = append(recs, rec)
		}
		if end != nil {
			h.End = end
		}
		offset += int64(len(line))
		good = offset
	}
	if good == 0 {
		return h, nil, 0, fmt.Errorf("annotate: journal %s: no header", name)
	}
	return h, recs, good, nil
}

// Journal appends the records of a run to a file, syncing each one, under a lock that
// keeps a second run out.
type Journal struct {
	f    *jsonl.File
	name string
}

// OpenJournal creates the journal at path for a run with header h, or with resume reads
// back the one there (a missing or empty file starts a new one), which must have the same
// header, and returns its records (without its end, which the run writes again).
func OpenJournal(path string, h Header, resume bool) (j *Journal, recs []*Record, err error) {
	f, err := jsonl.Open(path)
	if err != nil {
		if errors.Is(err, filelock.ErrLocked) {
			return nil, nil, fmt.Errorf("annotate: %s: %w", path, ErrJournalLocked)
		}
		return nil, nil, fmt.Errorf("annotate: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	size, err := f.Size()
	if err != nil {
		return nil, nil, fmt.Errorf("annotate: %w", err)
	}
	j = &Journal{f: f, name: path}
	var good int64
	if size > 0 {
		var old Header
		if old, recs, good, err = ReadJournal(f, path); err != nil {
			return nil, nil, err
		}
		switch {
		case !resume && len(recs) > 0:
			return nil, nil, fmt.Errorf("annotate: %s: %w", path, ErrJournalExists)
		case !resume:
			good = 0
		default:
			if err := SameHeader(old, h); err != nil {
				return nil, nil, fmt.Errorf("annotate: %s: %w", path, err)
			}
			if old.End != nil { // written again at the end of this run
				if good, err = endOffset(f, good); err != nil {
					return nil, nil, err
				}
			}
		}
	}
	if err := f.Restart(good); err != nil {
		return nil, nil, fmt.Errorf("annotate: %w", err)
	}
	if good == 0 {
		if err := j.append(h); err != nil {
			return nil, nil, err
		}
	}
	return j, recs, nil
}

// endOffset returns where the last line of f's first good bytes starts.
func endOffset(f *jsonl.File, good int64) (int64, error) {
	b := make([]byte, good)
	if _, err := f.ReadAt(b, 0); err != nil {
		return 0, fmt.Errorf("annotate: %w", err)
	}
	return int64(bytes.LastIndexByte(b[:len(b)-1], '\n') + 1), nil
}

// SameHeader returns an error wrapping ErrJournalMismatch that names the first thing in
// which old and h differ.
func SameHeader(old, h Header) error {
	switch {
	case !slices.Equal(old.Settings, h.Settings):
		return fmt.Errorf("%w: it has the settings %s, this run %s", ErrJournalMismatch, strings.Join(old.Settings, " "), strings.Join(h.Settings, " "))
	case !slices.Equal(old.Inputs, h.Inputs):
		return fmt.Errorf("%w: it has other inputs (names, sizes or SHA-256): %v, this run %v", ErrJournalMismatch, old.Inputs, h.Inputs)
	case old.Shard != h.Shard:
		return fmt.Errorf("%w: it has shard %q, this run %q", ErrJournalMismatch, old.Shard, h.Shard)
	}
	return nil
}

// Add appends a record and syncs the file.
func (j *Journal) Add(r *Record) error { return j.append(journalLine{Record: r}) }

// End appends the end line and syncs the file.
func (j *Journal) End(e JournalEnd) error { return j.append(journalLine{End: &e}) }

// append writes v as one JSON line and syncs the file.
func (j *Journal) append(v any) error {
	if err := j.f.Append(v); err != nil {
		return fmt.Errorf("annotate: journal %s: %w", j.name, err)
	}
	return nil
}

// Close closes the journal's file, releasing its lock.
func (j *Journal) Close() error { return j.f.Close() }

// RunJournal is Run with the journal j, which OpenJournal opened and whose records it
// returned as recs: the games of recs are handed to Emit as recorded (fresh false) instead
// of being analysed again, and each record made afresh goes to j before Emit sees it.
// With end set (a shard's file, which ReadShards reads), j is ended with the number of
// games of the inputs and of records when the run was complete or failed only for inputs
// that could not be read (archive.InputErrors).
func RunJournal(ctx context.Context, job archive.Job, opt RunOptions, j *Journal, recs []*Record, end bool) (games int, err error) {
	opt.Recorded = make(map[int]*Record, len(recs))
	for _, r := range recs {
		opt.Recorded[r.Index] = r
	}
	emit, analysed := opt.Emit, 0
	opt.Emit = func(r *Record, fresh bool) error {
		if fresh {
			if err := j.Add(r); err != nil {
				return err
			}
		}
		analysed++
		return emit(r, fresh)
	}
	games, err = Run(ctx, job, opt)
	if _, inputs := archive.InputErrors(err); end && (err == nil || inputs) {
		if jerr := j.End(JournalEnd{Games: games, Analysed: analysed}); jerr != nil {
			return games, jerr
		}
	}
	return games, err
}
