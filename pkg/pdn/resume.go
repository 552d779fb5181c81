package pdn

import (
	"io"
)

// Reading an input from the middle
//
// A large input can be read by several goroutines at once (package
// archive does): the text is cut where a game ends, and each piece is read
// by a Reader started in the middle of the input, at the piece's offset
// and line. Where a Reader stands between two games is a Boundary: a
// Reader resumed there reads the rest of the input exactly as the Reader
// that read the games before it would have, because nothing else carries
// over from one game to the next (except the game count, which the caller
// renumbers).

// Boundary is a place between two games of an input: a Reader resumed
// there (ResumeReader, ResumeBytes) reads the following games as the
// Reader that read the input from its start would. The zero Boundary is
// the start of the input.
type Boundary struct {
	Offset    int64 // offset of the first byte the next game's Reader reads
	Line      int   // line of Offset
	LineStart int64 // offset of the first byte of that line
	// TagOpen is set when the game before ended at the '[' at Offset that
	// opens the next game's tag section (it had no terminator). Otherwise
	// Offset is just after a terminator.
	TagOpen bool
}

// Boundary returns where r stands after the game Next last returned; ok
// is false when a fresh Reader cannot take over there (r has read a
// token ahead that is not a '[', or stands right after a '[').
func (r *Reader) Boundary() (b Boundary, ok bool) {
	s := r.s
	if r.peeked {
		t := &s.tok
		if t.Kind != TokTagOpen {
			return b, false
		}
		return Boundary{Offset: t.Pos.Offset, Line: t.Pos.Line, LineStart: t.Pos.Offset - int64(t.Pos.Column-1), TagOpen: true}, true
	}
	if s.afterOpen {
		return b, false
	}
	return Boundary{Offset: s.base + int64(s.i), Line: s.line, LineStart: s.lineStart}, true
}

// EndedAt reports whether r, having read a piece of an input whose text
// ends at end, stopped exactly at that boundary in the way the Reader of
// the whole input would have: at the '[' that ends the piece, or right
// after a terminator that the piece's last byte ends (the next byte, in
// the next piece, being a line break, the terminator reads the same with
// or without it).
func (r *Reader) EndedAt(end Boundary) bool {
	b, ok := r.Boundary()
	if !ok || b != end {
		return false
	}
	return end.TagOpen || r.endedBy == TokResult || r.endedBy == TokStar
}

// ResumeReader returns a Reader for the part of an input that starts at
// boundary at, read from src, in encoding enc (decided for the whole
// input, see ReadHead).
func ResumeReader(src io.Reader, at Boundary, enc Encoding) *Reader {
	return resume(src, nil, nil, at, enc)
}

// ResumeBytes is ResumeReader for a piece of an input held in memory: the
// Reader reads data, then gets err (io.EOF, or the read error that ended
// the input).
func ResumeBytes(data []byte, err error, at Boundary, enc Encoding) *Reader {
	return resume(nil, data, err, at, enc)
}

func resume(src io.Reader, data []byte, rerr error, at Boundary, enc Encoding) *Reader {
	if at.Offset == 0 {
		at.Line = 1
	}
	s := NewScanner(src)
	s.base, s.line, s.lineStart = at.Offset, at.Line, at.LineStart
	if src == nil {
		s.buf, s.n, s.rerr = data, len(data), rerr
		if len(data) > 0 {
			s.last, s.read = data[len(data)-1], true
		}
	}
	if at.Offset > 0 {
		// The head of the input, which Scanner.start reads, is behind.
		s.started, s.enc = true, enc
	}
	r := newReader(s)
	r.Encoding, r.resumed = enc, at.Offset > 0
	return r
}

// Head is the start of an input as a Reader reads it before its first
// token (see ReadHead).
type Head struct {
	Data []byte // the first bytes, up to 64 KiB
	// Err is the error that ended the input within Data (io.EOF at its
	// end); nil when more may follow.
	Err error
	// Encoding is the encoding a Reader uses for the whole input: the one
	// asked for, unless EncodingAuto, detected from Data.
	Encoding Encoding
	BOM      int // length of a UTF-8 byte order mark at the start of Data
}

// ReadHead reads the first bytes of an input from r (up to 64 KiB, as a
// Reader does to decide its encoding) and decides the encoding as the
// Reader would, given enc. The rest of the input follows Head.Data in r.
func ReadHead(r io.Reader, enc Encoding) Head {
	// Read as Scanner.start does, into room for as much again, for a
	// caller that reads on into Data.
	s := &Scanner{r: r, buf: make([]byte, sampleSize, 2*sampleSize)}
	s.fill(sampleSize)
	h := Head{Data: s.buf[:s.n], Err: s.rerr}
	h.BOM, h.Encoding = headEncoding(h.Data, h.Err != nil, enc)
	return h
}

// headEncoding returns the length of a UTF-8 byte order mark at the start
// of head, the first bytes of an input (all of it if ended), and the
// encoding to read it in, given enc (detected if EncodingAuto).
func headEncoding(head []byte, ended bool, enc Encoding) (bom int, _ Encoding) {
	if len(head) >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF {
		bom = 3
	}
	if enc == EncodingAuto {
		enc = detectEncoding(head[bom:], ended)
	}
	return bom, enc
}
