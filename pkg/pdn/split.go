package pdn

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// SplitOptions configures Split. Exactly one of Every and ByTag is set.
type SplitOptions struct {
	// Every puts this many games in each file: PREFIX0001.pdn, ...
	Every int
	// ByTag puts the games with the same value of this tag in one file:
	// PREFIX<value>.pdn (characters other than letters, digits, '.', '-'
	// and '_' become '_'; a missing tag gives "none").
	ByTag string
	// Prefix is put before every file name; it may include a directory.
	Prefix string
	// JSON writes JSON lines (.jsonl) instead of PDN.
	JSON bool
	// Open opens an output file, truncating it or (when appending, after
	// it was closed to respect MaxOpen) appending. nil uses the os package.
	Open func(name string, appending bool) (io.WriteCloser, error)
	// MaxOpen bounds the number of files open at once with ByTag; 0 means 64.
	MaxOpen int
}

// SplitResult lists the files Split wrote, in the order first written.
type SplitResult struct {
	Games int      `json:"games"`
	Files []string `json:"files"`
}

type splitFile struct {
	wc   io.WriteCloser
	w    GameWriter
	used int64
}

// Split reads the job's games and writes them into several files.
func Split(job Job, opt SplitOptions) (res SplitResult, err error) {
	if (opt.Every > 0) == (opt.ByTag != "") {
		return res, errors.New("pdn: split: set exactly one of Every and ByTag")
	}
	open := opt.Open
	if open == nil {
		open = func(name string, appending bool) (io.WriteCloser, error) {
			if appending {
				return os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
			}
			return os.Create(name)
		}
	}
	maxOpen := opt.MaxOpen
	if maxOpen <= 0 {
		maxOpen = 64
	}
	ext := ".pdn"
	if opt.JSON {
		ext = ".jsonl"
	}
	files := map[string]*splitFile{}
	created := map[string]bool{}
	var clock int64
	closeFile := func(name string) error {
		f := files[name]
		delete(files, name)
		if err := f.w.Flush(); err != nil {
			f.wc.Close()
			return err
		}
		return f.wc.Close()
	}
	defer func() {
		for name := range files {
			if cerr := closeFile(name); err == nil {
				err = cerr
			}
		}
	}()
	get := func(name string) (*splitFile, error) {
		clock++
		if f, ok := files[name]; ok {
			f.used = clock
			return f, nil
		}
		if len(files) >= maxOpen {
			oldest := ""
			for n, f := range files {
				if oldest == "" || f.used < files[oldest].used {
					oldest = n
				}
			}
			if err := closeFile(oldest); err != nil {
				return nil, err
			}
		}
		appending := created[name]
		wc, err := open(name, appending)
		if err != nil {
			return nil, err
		}
		if !created[name] {
			created[name] = true
			res.Files = append(res.Files, name)
		}
		f := &splitFile{wc: wc, used: clock}
		if opt.JSON {
			f.w = NewJSONWriter(wc)
		} else {
			if appending {
				io.WriteString(wc, "\n")
			}
			f.w = NewWriter(wc)
		}
		files[name] = f
		return f, nil
	}
	err = job.Each(func(in *Input, n int, g *Game, gerr error) error {
		var name string
		if opt.Every > 0 {
			name = fmt.Sprintf("%s%04d%s", opt.Prefix, res.Games/opt.Every+1, ext)
			if res.Games%opt.Every == 0 && res.Games > 0 {
				prev := fmt.Sprintf("%s%04d%s", opt.Prefix, res.Games/opt.Every, ext)
				if _, ok := files[prev]; ok {
					if err := closeFile(prev); err != nil {
						return err
					}
				}
			}
		} else {
			name = opt.Prefix + fileSafe(g.Get(opt.ByTag)) + ext
		}
		f, err := get(name)
		if err != nil {
			return err
		}
		if err := f.w.Write(g); err != nil {
			return fmt.Errorf("%s: game %d: %w", in.Name, n, err)
		}
		res.Games++
		return nil
	})
	return res, err
}

// fileSafe turns a tag value into a file-name part.
func fileSafe(v string) string {
	v = strings.TrimSpace(v)
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
