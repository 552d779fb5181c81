package dxp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// Reader splits a byte stream into DXP messages. In the SOCKET protocol "a message of 1 to
// 127 characters is sent as data through stream sockets after adding a '\0' character at
// the end of the message" (esocket.htm); TCP may deliver a message in several pieces, or
// several messages in one, and Reader returns whole messages either way.
type Reader struct {
	r          io.Reader
	buf        []byte
	start, end int   // buf[start:end] holds the bytes read but not returned
	err        error // the error that ended the stream, returned once buf is used up
}

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: r, buf: make([]byte, 4*(MaxLen+1))}
}

// Read returns the next message, without its NUL. An empty message (two NULs in a row)
// is skipped. A message longer than MaxLen is an *Error wrapping ErrProtocol, after which
// the stream is out of step and every Read fails. The end of the stream is io.EOF between
// messages and io.ErrUnexpectedEOF inside one. A read that times out (a deadline on a
// net.Conn) returns its error and may be retried; any other error of the underlying reader
// ends the stream and is returned from then on.
func (r *Reader) Read() ([]byte, error) {
	for {
		if i := bytes.IndexByte(r.buf[r.start:r.end], 0); i >= 0 {
			msg := r.buf[r.start : r.start+i]
			r.start += i + 1
			if len(msg) == 0 {
				continue
			}
			if len(msg) > MaxLen {
				return nil, r.tooLong(msg)
			}
			return bytes.Clone(msg), nil
		}
		if r.end-r.start > MaxLen {
			return nil, r.tooLong(r.buf[r.start:r.end])
		}
		if r.err != nil {
			if r.err == io.EOF && r.end > r.start {
				return nil, fmt.Errorf("dxp: stream ends inside a message %q: %w", r.buf[r.start:r.end], io.ErrUnexpectedEOF)
			}
			return nil, r.err
		}
		if r.start > 0 {
			r.end = copy(r.buf, r.buf[r.start:r.end])
			r.start = 0
		}
		n, err := r.r.Read(r.buf[r.end:])
		r.end += n
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) && n == 0 {
				return nil, err
			}
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				r.err = err
			}
		}
	}
}

// tooLong records and returns the error for a message longer than MaxLen.
func (r *Reader) tooLong(msg []byte) error {
	text := msg
	if len(text) > MaxLen+8 {
		text = text[:MaxLen+8]
	}
	r.err = &Error{Kind: ErrProtocol, Text: string(text),
		Err: fmt.Errorf("message longer than %d characters", MaxLen)}
	r.start, r.end = 0, 0
	return r.err
}

// writeMessage writes m and its NUL in one write.
func writeMessage(w io.Writer, m Message) error {
	_, err := w.Write(append(Format(m), 0))
	return err
}
