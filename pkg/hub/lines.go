package hub

import (
	"bytes"
	"time"
)

// maxLine bounds the length of a protocol line read from the other side: a "pos" line
// with a long game is a few tens of kilobytes; a longer line is cut and reported.
const maxLine = 1 << 20

// line is one line read from the other side, without its line break. TooLong is set when
// the line was longer than maxLine bytes: Text then holds its first maxLine bytes.
type line struct {
	Text    string
	TooLong bool
	At      time.Time // when it was read: the answer's arrival, for the move's time
}

// lineSplitter is an io.Writer that cuts what is written into lines ended by "\n" (a "\r"
// before it is dropped) and hands each to deliver, in order. Its memory is bounded by
// maxLine whatever is written.
type lineSplitter struct {
	buf     []byte
	tooLong bool
	deliver func(line)
}

// Write splits p into lines; it never fails.
func (s *lineSplitter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if room := maxLine - len(s.buf); len(chunk) > room {
			chunk = chunk[:room]
			s.tooLong = true
		}
		s.buf = append(s.buf, chunk...)
		if i < 0 {
			break
		}
		s.emit()
		p = p[i+1:]
	}
	return n, nil
}

// flush hands on a last line that had no line break, if any.
func (s *lineSplitter) flush() {
	if len(s.buf) > 0 || s.tooLong {
		s.emit()
	}
}

func (s *lineSplitter) emit() {
	text := string(bytes.TrimSuffix(s.buf, []byte("\r")))
	l := line{Text: text, TooLong: s.tooLong, At: time.Now()}
	s.buf, s.tooLong = s.buf[:0], false
	if cap(s.buf) > 64<<10 {
		s.buf = nil // do not keep a large buffer for one long line
	}
	s.deliver(l)
}
