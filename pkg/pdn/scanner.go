package pdn

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// DefaultMaxTokenSize is the default limit on the length of one token
// (in practice: one comment or tag value).
const DefaultMaxTokenSize = 1 << 20

const (
	minBufSize  = 64 << 10
	sampleSize  = 64 << 10
	maxEmptyRds = 100
)

// Scanner splits PDN input into tokens. It reads through its own buffer
// and never holds more than the largest token in memory. Set the exported
// fields before the first call to Next.
//
// The scanner is lenient: it accepts what real files contain (see the
// package documentation) and reports each leniency through Warn.
type Scanner struct {
	// Encoding of the input; EncodingAuto detects it.
	Encoding Encoding
	// MaxTokenSize limits the length of one token; longer tokens are
	// skipped and returned as TokError with ErrTokenTooLong. 0 means
	// DefaultMaxTokenSize.
	MaxTokenSize int
	// Warn, if not nil, is called for each leniency the scanner applies.
	Warn func(Warning)

	r         io.Reader
	buf       []byte
	i, n      int   // unread data is buf[i:n]
	base      int64 // stream offset of buf[0]
	line      int
	lineStart int64 // stream offset of the first byte of the current line
	rerr      error // sticky read error
	// last is the last byte read from r (or of the data of ResumeBytes),
	// and read says there was one: whether the input ends with a line
	// break (Reader: a truncated game).
	last      byte
	read      bool
	started   bool
	enc       Encoding
	afterOpen bool // the previous token was '['
	slow      bool // scanNumber without scanNumberFast (tests compare both)
	tok       Token
	sq        []Square
	scratch   []byte
	dec       []byte
}

// NewScanner returns a Scanner reading from r.
func NewScanner(r io.Reader) *Scanner {
	s := &Scanner{r: r, line: 1}
	s.tok.s = s
	return s
}

// DetectedEncoding returns the encoding in use, once Next has been called.
func (s *Scanner) DetectedEncoding() Encoding { return s.enc }

// endsWithBreak reports whether the input read so far ends with a line
// break (or nothing was read).
func (s *Scanner) endsWithBreak() bool { return !s.read || s.last == '\n' || s.last == '\r' }

// fill reads until at least k unread bytes are buffered or input ends.
// It reports whether k bytes are available.
func (s *Scanner) fill(k int) bool {
	for s.i+k > s.n {
		if s.rerr != nil {
			return false
		}
		if s.i > 0 && s.i+k > len(s.buf) {
			copy(s.buf, s.buf[s.i:s.n])
			s.base += int64(s.i)
			s.n -= s.i
			s.i = 0
		}
		if s.n == len(s.buf) || k > len(s.buf) {
			size := 2 * len(s.buf)
			if size < minBufSize {
				size = minBufSize
			}
			for size < k {
				size *= 2
			}
			nb := make([]byte, size)
			copy(nb, s.buf[s.i:s.n])
			s.base += int64(s.i)
			s.n -= s.i
			s.i = 0
			s.buf = nb
		}
		empty := 0
		for {
			m, err := s.r.Read(s.buf[s.n:])
			s.n += m
			if m > 0 {
				s.last, s.read = s.buf[s.n-1], true
			}
			if err != nil {
				s.rerr = err
				break
			}
			if m > 0 {
				break
			}
			if empty++; empty > maxEmptyRds {
				s.rerr = io.ErrNoProgress
				break
			}
		}
	}
	return true
}

// peek returns the byte at s.i+j, or -1 at end of input.
func (s *Scanner) peek(j int) int {
	if k := s.i + j; k < s.n {
		return int(s.buf[k])
	}
	return s.peekSlow(j)
}

//go:noinline
func (s *Scanner) peekSlow(j int) int {
	if !s.fill(j + 1) {
		return -1
	}
	return int(s.buf[s.i+j])
}

func (s *Scanner) pos() Pos {
	off := s.base + int64(s.i)
	return Pos{Offset: off, Line: s.line, Column: int(off-s.lineStart) + 1}
}

func (s *Scanner) warn(k WarningKind, p Pos, text string) {
	if s.Warn != nil {
		s.Warn(Warning{Kind: k, Pos: p, Text: text})
	}
}

// consumeLines advances past k bytes that may contain line breaks.
func (s *Scanner) consumeLines(k int) {
	b := s.buf[s.i : s.i+k]
	for j := 0; j < len(b); j++ {
		switch b[j] {
		case '\n':
			s.line++
			s.lineStart = s.base + int64(s.i+j+1)
		case '\r':
			if j+1 < len(b) && b[j+1] == '\n' {
				continue
			}
			if j+1 == len(b) && s.peek(k) == '\n' {
				continue
			}
			s.line++
			s.lineStart = s.base + int64(s.i+j+1)
		}
	}
	s.i += k
}

// start reads the head of the input (see ReadHead): the encoding, and a
// byte order mark, skipped with a warning.
func (s *Scanner) start() {
	s.started = true
	s.fill(sampleSize)
	var bom int
	bom, s.enc = headEncoding(s.buf[s.i:s.n], s.rerr != nil, s.Encoding)
	if bom > 0 {
		s.warn(WarnBOM, s.pos(), "")
		s.i += bom
		s.lineStart = int64(bom)
	}
}

// Err returns the first read error other than io.EOF.
func (s *Scanner) Err() error {
	if s.rerr == io.EOF {
		return nil
	}
	return s.rerr
}

// Next returns the next token. At the end of input it returns a TokEOF
// token; the error is a read error from the underlying reader, if any.
// Lexical problems do not stop the scanner: they come back as TokError
// tokens, as tokens cut short with Token.Err set, or (when the scanner
// could repair them) as warnings.
//
// Next has two stages: the blanks before the token (skipSpace, after the
// commonest case, one blank), then the token, told by its first byte.
func (s *Scanner) Next() (*Token, error) {
	if !s.started {
		s.start()
	}
	t := &s.tok
	// Reset the token field by field: pointer fields are written only
	// when set, which spares write barriers while the GC marks.
	t.Kind, t.sep, t.num, t.cont = TokEOF, 0, 0, false
	if t.Err != nil {
		t.Err = nil
	}
	if t.ext != nil {
		t.ext = nil
	}
	t.Glued = false
	if k := s.i + 1; k < s.n && s.buf[s.i] == ' ' && s.buf[k] > ' ' && s.buf[k] != '%' && s.buf[k] != '\\' {
		s.i = k
	} else if t.Glued = s.skipSpace(); s.i >= s.n {
		t.Pos = s.pos()
		return t, s.Err()
	}
	t.Pos = s.pos()
	c := s.buf[s.i]
	afterOpen := s.afterOpen
	s.afterOpen = false
	if c >= '0' && c <= '9' && !afterOpen {
		// The commonest tokens first: move numbers and moves.
		s.scanNumber()
		return t, nil
	}
	switch {
	case c == '[':
		s.afterOpen = true
		s.single(TokTagOpen)
	case c == ']':
		s.single(TokTagClose)
	case c == '"':
		s.scanString()
	case afterOpen:
		s.scanTagName()
	case c == '{':
		s.scanComment()
	case c == '/':
		s.scanSetup()
	case c == '(':
		if k := s.strengthLen(1); k > 0 && s.peek(k+1) == ')' {
			s.setRaw(TokStrength, k+2)
		} else {
			s.single(TokLParen)
		}
	case c == ')':
		s.single(TokRParen)
	case c == '!' || c == '?':
		s.setRaw(TokStrength, s.strengthLen(0))
	case c == '*':
		s.single(TokStar)
	case c == '$':
		s.scanNAG()
	case c == ';':
		s.scanLineComment()
	case c == '.':
		k := 1
		for s.peek(k) == '.' {
			k++
		}
		if k == 3 {
			s.setRaw(TokEllipsis, 3)
		} else {
			s.setRaw(TokUnknown, k)
		}
	case isLetter(c) && isDigit(s.peek(1)):
		if !s.scanMove(s.window()) {
			s.scanUnknown()
		}
	default:
		s.scanUnknown()
	}
	return t, nil
}

// skipSpace skips blanks, line breaks (a lone CR and the two characters
// `\r` or `\n` with a warning) and % comments, up to the next token or
// the end of the input (s.i == s.n). It reports whether there was none
// (the token is glued to the one before).
func (s *Scanner) skipSpace() (glued bool) {
	glued = true
	for ; s.i < s.n || s.fill(1); glued = false {
		switch s.buf[s.i] {
		case ' ', '\t', '\f', '\v':
			s.i++
		case '\n':
			s.i++
			s.newLine()
		case '\r':
			s.i++
			if s.peek(0) == '\n' {
				s.i++
			} else {
				s.warn(WarnLoneCR, s.pos(), "")
			}
			s.newLine()
		case '%':
			for {
				if k := bytes.IndexAny(s.buf[s.i:s.n], "\r\n"); k >= 0 {
					s.i += k
					break
				}
				s.i = s.n
				if !s.fill(1) {
					break
				}
			}
		case '\\':
			d := s.peek(1)
			if d != 'r' && d != 'n' {
				return glued
			}
			s.warn(WarnLiteralCR, s.pos(), `\`+string(rune(d)))
			s.i += 2
		default:
			return glued
		}
	}
	return glued
}

// newLine starts a line at s.i.
func (s *Scanner) newLine() {
	s.line++
	s.lineStart = s.base + int64(s.i)
}

func isDigit(c int) bool   { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// setRaw makes the next k bytes (no line breaks) a token of kind k.
func (s *Scanner) setRaw(kind TokenKind, k int) {
	t := &s.tok
	t.Kind = kind
	t.start, t.end = s.i, s.i+k
	t.ts, t.te = t.start, t.end
	s.i += k
}

func (s *Scanner) single(kind TokenKind) { s.setRaw(kind, 1) }

// strengthLen returns the length of the run of '!' and '?' at s.i+j.
func (s *Scanner) strengthLen(j int) int {
	k := j
	for {
		c := s.peek(k)
		if c != '!' && c != '?' {
			break
		}
		k++
	}
	return k - j
}

func (s *Scanner) errorToken(p Pos, err error, k int) {
	t := &s.tok
	t.Kind = TokError
	t.Err = &SyntaxError{Pos: p, Err: err}
	t.start, t.end = s.i, s.i+k
	t.ts, t.te = t.start, t.end
}

// textToken makes the next k bytes a token of kind at p, its text bytes
// from to to of them, converted to UTF-8. It does not move past them.
func (s *Scanner) textToken(kind TokenKind, p Pos, k, from, to int) {
	t := &s.tok
	t.Kind = kind
	t.start, t.end = s.i, s.i+k
	t.ts, t.te = s.i+from, s.i+to
	if d := s.decode(s.buf[t.ts:t.te], p); d != nil {
		t.ext = d
	}
}

// decode converts raw token text to UTF-8 according to the encoding. It
// returns nil when b is UTF-8 already.
func (s *Scanner) decode(b []byte, p Pos) []byte {
	ascii := true
	for _, c := range b {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return nil
	}
	switch s.enc {
	case Latin1, CP1251:
		s.dec = decode8bit(s.dec[:0], b, s.enc)
		s.warn(WarnEncoding, p, s.enc.String())
		return s.dec
	}
	if utf8.Valid(b) {
		return nil
	}
	fb := guess8bit(b)
	s.dec = decode8bit(s.dec[:0], b, fb)
	s.warn(WarnInvalidUTF8, p, "read as "+fb.String())
	return s.dec
}

func (s *Scanner) scanNAG() {
	j := 1
	n := 0
	for isDigit(s.peek(j)) && j < 10 {
		n = n*10 + s.peek(j) - '0'
		j++
	}
	if j == 1 {
		s.scanUnknown()
		return
	}
	s.setRaw(TokNAG, j)
	s.tok.num = n
}

// isStop reports whether c ends an unknown run.
func isStop(c int) bool {
	switch c {
	case -1, ' ', '\t', '\n', '\r', '\f', '\v', '[', ']', '{', '}', '(', ')', '"':
		return true
	}
	return false
}

func (s *Scanner) scanUnknown() {
	j := 1
	for !isStop(s.peek(0)) && !isStop(s.peek(j)) && j < 256 {
		j++
	}
	s.scanUnknownLen(j)
}

func (s *Scanner) scanUnknownLen(j int) {
	s.textToken(TokUnknown, s.pos(), j, 0, j)
	s.i += j
}
