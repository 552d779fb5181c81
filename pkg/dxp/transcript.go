package dxp

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// transcript writes a session's messages, one line each: a time stamp, a prefix naming the
// connection (for a server), "> " for a message sent or "< " for one received, and the
// message; notes (ignored messages, refusals, errors) have "# ". Writing to a writer stops
// at its first error, which error then returns: a transcript is a diagnostic and never
// stops a game. It is safe for concurrent use.
type transcript struct {
	mu     sync.Mutex
	notes  func(string) // receives the notes too, with their prefix (nil: nothing)
	w      io.Writer
	failed bool  // w returned an error
	err    error // the first error of any writer
}

// set changes the writer (nil: none).
func (t *transcript) set(w io.Writer) {
	t.mu.Lock()
	t.w, t.failed = w, false
	t.mu.Unlock()
}

// line writes one line.
func (t *transcript) line(prefix, dir, text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if dir == "#" && t.notes != nil {
		t.notes(prefix + text)
	}
	if t.w == nil || t.failed {
		return
	}
	_, err := fmt.Fprintf(t.w, "%s %s%s %s\n", time.Now().Format("2006-01-02 15:04:05.000"), prefix, dir, text)
	if err != nil {
		t.failed = true
		if t.err == nil {
			t.err = err
		}
	}
}

// error returns the first write error.
func (t *transcript) error() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}
