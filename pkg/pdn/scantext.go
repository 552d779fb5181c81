package pdn

import (
	"bytes"
	"fmt"
	"strconv"
)

// The tokens that hold text (comments, setup commands, strings, tag
// names, line comments) and may run on: each ends at its delimiter or,
// cut short, where the damage stops (see "Damaged input" in the package
// documentation), and one longer than MaxTokenSize is dropped.

// scanComment scans a {comment}. A comment may span lines, but not a
// line that starts with a tag pair ('[', a name and a '"', after
// blanks): a '{' whose '}' is missing would otherwise swallow the games
// after it. A comment that runs into such a line, or to the end of the
// input, ends at the line break before it (or at the end) and is
// returned with Err set to ErrUnterminatedComment.
func (s *Scanner) scanComment() {
	p := s.pos()
	max := s.maxTok()
	j := 1 // bytes of the comment looked at: the '{' and text without '}'
	skipped := false
	// The text is searched in windows that double, so that a comment
	// cut short costs time in proportion to its length even when the
	// buffer holds the whole rest of the input.
	win := 256
	for {
		avail := s.n - s.i - j
		b := s.buf[s.i+j : s.i+j+min(avail, win)]
		win *= 2
		k := bytes.IndexByte(b, '}')
		text := b
		if k >= 0 {
			text = b[:k]
		}
		atEnd := k >= 0 || len(b) == avail && s.rerr != nil
		cut, more := tagLine(text, atEnd)
		if cut >= 0 {
			s.delimited(TokComment, p, j+cut, j+cut, skipped, ErrUnterminatedComment)
			return
		}
		if k >= 0 {
			j += k + 1
			break
		}
		// more bytes of text are needed to tell whether the line that
		// starts at text[more] is a tag line.
		j += more
		if j > max {
			// Too long: drop what we have, keep looking for the end.
			skipped = true
			s.consumeLines(j)
			j = 0
		}
		if len(b) < avail {
			continue // more is buffered
		}
		if !s.fill(j + len(b) - more + 1) {
			if more < len(b) && s.rerr != nil {
				continue // the input has ended: look at the last line again
			}
			s.delimited(TokComment, p, s.n-s.i, s.n-s.i, skipped, ErrUnterminatedComment)
			return
		}
	}
	s.delimited(TokComment, p, j, j-1, skipped, nil)
}

// delimited makes the next j bytes, which may span lines, a comment or
// setup command (kind), its text from byte 1 to byte end, and moves past
// them. err, if not nil, is why it was cut short, its end missing;
// skipped tells that its start was dropped as too long (scanComment,
// scanSetup). One too long is an error token, and so is one both too long
// and cut short (with err).
func (s *Scanner) delimited(kind TokenKind, p Pos, j, end int, skipped bool, err error) {
	switch {
	case (skipped || j > s.maxTok()) && err != nil:
		s.errorToken(p, err, 0)
	case skipped || j > s.maxTok():
		what := "a comment"
		if kind == TokSetup {
			what = "a setup command"
		}
		s.tooLong(p, what)
	default:
		s.textToken(kind, p, j, 1, end)
		if err != nil {
			s.tok.Err = &SyntaxError{Pos: p, Err: err}
		}
	}
	s.consumeLines(j)
}

// tagLine looks in text for a line that starts with a tag pair: after a
// line break, blanks and line breaks, then '[', a letter, letters,
// digits or '_', blanks and '"'. It returns the index of the line break
// that ends the text before such a line, or -1. When it cannot tell
// without more bytes (and atEnd is false), more is the index of the line
// break to look at again with them; otherwise more is len(text).
func tagLine(text []byte, atEnd bool) (cut, more int) {
	if bytes.IndexByte(text, '\n') < 0 && bytes.IndexByte(text, '\r') < 0 {
		return -1, len(text) // the common case: a comment on one line
	}
	for i := 0; i < len(text); i++ {
		if c := text[i]; c != '\n' && c != '\r' {
			continue
		}
		j := i + 1
		for j < len(text) && isBlankOrBreak(text[j]) {
			j++
		}
		if j < len(text) && text[j] == '[' {
			j++
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			if j < len(text) && isLetter(text[j]) {
				for j < len(text) && isNameByte(text[j]) {
					j++
				}
				for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
					j++
				}
				if j < len(text) && text[j] == '"' {
					return i, len(text)
				}
			}
		}
		if j == len(text) && !atEnd {
			return -1, i
		}
		i = j - 1
	}
	return -1, len(text)
}

func isBlankOrBreak(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isNameByte(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '_'
}

// scanSetup scans a /setup/ command. A line break before the closing '/'
// makes the '/' an unknown token instead (a lone slash in garbage must
// not swallow games).
func (s *Scanner) scanSetup() {
	p := s.pos()
	max := s.maxTok()
	j := 1
	skipped := false
	for {
		k := bytes.IndexAny(s.buf[s.i+j:s.n], "/\r\n")
		if k >= 0 && s.buf[s.i+j+k] != '/' {
			s.scanUnknownLen(1)
			return
		}
		if k >= 0 {
			j += k + 1
			break
		}
		j = s.n - s.i
		if j > max {
			// Too long: drop what we have, keep looking for the end.
			skipped = true
			s.consumeLines(j)
			j = 0
		}
		if !s.fill(j + 1) {
			s.errorToken(p, ErrUnterminatedSetup, 0)
			s.consumeLines(s.n - s.i)
			return
		}
	}
	s.delimited(TokSetup, p, j, j-1, skipped, nil)
}

// scanString scans a "quoted" value; a backslash escapes any character.
// A string ends at the end of its line: one without its closing quote
// there (or at the end of input) is returned as a TokString with Err set
// to ErrUnterminatedString, holding the rest of the line less blanks and
// a ']' at its end, which is left to close the tag. A missing quote then
// damages one tag, not every string after it.
func (s *Scanner) scanString() {
	p := s.pos()
	max := s.maxTok()
	j := 1
	esc := false
	closed := false
	for {
		c := s.peek(j)
		if c < 0 || c == '\n' || c == '\r' {
			break
		}
		j++
		if esc {
			esc = false
		} else if c == '\\' {
			esc = true
		} else if c == '"' {
			closed = true
			break
		}
		if j > max {
			s.tooLong(p, "a string")
			s.consumeLines(j)
			return
		}
	}
	t := &s.tok
	t.Kind = TokString
	in := s.buf[s.i+1 : s.i+j]
	if closed {
		in = in[:len(in)-1]
	} else {
		in = bytes.TrimRight(in, " \t\f\v")
		in = bytes.TrimSuffix(in, []byte{']'})
		j = 1 + len(in)
		t.Err = &SyntaxError{Pos: p, Err: ErrUnterminatedString}
	}
	if bytes.IndexByte(in, '\\') < 0 {
		s.textToken(TokString, p, j, 1, 1+len(in))
	} else {
		t.start, t.end = s.i, s.i+j
		s.scratch = s.scratch[:0]
		for k := 0; k < len(in); k++ {
			if in[k] == '\\' && k+1 < len(in) {
				k++
			}
			s.scratch = append(s.scratch, in[k])
		}
		t.ext = s.scratch
		if d := s.decode(s.scratch, p); d != nil {
			t.ext = d
		}
	}
	s.i += j
}

// scanTagName scans a tag name: everything up to '"', ']', '[' or the end
// of the line, without trailing blanks.
func (s *Scanner) scanTagName() {
	p := s.pos()
	j := 0
	for {
		c := s.peek(j)
		if c < 0 || c == '"' || c == ']' || c == '[' || c == '\n' || c == '\r' || j > 256 {
			break
		}
		j++
	}
	e := j
	for e > 0 && (s.buf[s.i+e-1] == ' ' || s.buf[s.i+e-1] == '\t') {
		e--
	}
	s.textToken(TokTagName, p, e, 0, e)
	s.i += j
}

func (s *Scanner) scanLineComment() {
	p := s.pos()
	j := 1
	for {
		c := s.peek(j)
		if c < 0 || c == '\n' || c == '\r' {
			break
		}
		j++
		if j > s.maxTok() {
			s.tooLong(p, "a line comment")
			s.i += j
			return
		}
	}
	s.textToken(TokLineComment, p, j, 1, j)
	s.i += j
}

// tooLong makes the token at p an error: a what longer than the limit.
func (s *Scanner) tooLong(p Pos, what string) {
	s.errorToken(p, fmt.Errorf("%w: %s longer than %s, the limit of one token: dropped, the rest of the game kept",
		ErrTokenTooLong, what, byteSize(s.maxTok())), 0)
}

// byteSize writes n bytes as "1 MiB", "64 KiB" or "100 bytes".
func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}

func (s *Scanner) maxTok() int {
	if s.MaxTokenSize > 0 {
		return s.MaxTokenSize
	}
	return DefaultMaxTokenSize
}
