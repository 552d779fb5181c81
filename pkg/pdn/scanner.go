package pdn

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
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

// moveWindow is how many bytes a move, number or result token may span.
const moveWindow = 256

// window returns the unread bytes, with at least moveWindow of them
// buffered unless the input ends sooner.
func (s *Scanner) window() []byte {
	if s.n-s.i < moveWindow {
		s.fill(moveWindow)
	}
	return s.buf[s.i:s.n]
}

// at returns b[j], or -1 past the end.
func at(b []byte, j int) int {
	if j < len(b) {
		return int(b[j])
	}
	return -1
}

// scanNumber scans a token starting with a digit: a result, a move number
// or a numeric move.
func (s *Scanner) scanNumber() {
	if s.n-s.i >= 8 && !s.slow && s.scanNumberFast(s.buf[s.i:s.i+8]) {
		return
	}
	b := s.window()
	c0, c1 := at(b, 0), at(b, 1)
	// Results. "1-1" is a result only when no digit follows (1-10 is a move).
	if c1 == '-' && c0 <= '2' {
		c2 := at(b, 2)
		if c2 >= '0' && c2 <= '2' && !isDigit(at(b, 3)) {
			switch (c0-'0')*3 + c2 - '0' {
			case 3, 1, 6, 2, 4, 0: // 1-0 0-1 2-0 0-2 1-1 0-0
				s.setRaw(TokResult, 3)
				return
			}
		}
	}
	if c0 == '1' && c1 == '/' && len(b) >= 7 && string(b[2:7]) == "2-1/2" && !isDigit(at(b, 7)) {
		s.setRaw(TokResult, 7)
		return
	}
	j := 0
	n := 0
	// The run is looked at up to moveWindow digits: b may hold the whole
	// rest of the input, and a long run is cut into tokens of that size.
	for j < len(b) && j < moveWindow && isDigit(int(b[j])) {
		if j < 9 {
			n = n*10 + int(b[j]-'0')
		}
		j++
	}
	if at(b, j) == '.' {
		k := 1
		for at(b, j+k) == '.' {
			k++
		}
		if k == 2 || k > 3 {
			s.warn(WarnMoveNumber, s.pos(), string(b[:j+k]))
		}
		s.setRaw(TokMoveNumber, j+k)
		s.tok.num = n
		s.tok.cont = k >= 2
		return
	}
	if !s.scanMove(b) {
		s.scanUnknown()
	}
}

// scanNumberFast scans the commonest tokens that start with a digit, a
// move number "N." and a move of two squares "N-N" ('-', 'x' or ':'),
// each number of one or two digits, from the next 8 bytes. It reports
// false, having consumed nothing, for anything else (a result, longer
// numbers, more dots or squares, anything to repair), which scanNumber
// reads as before.
func (s *Scanner) scanNumberFast(b []byte) bool {
	_ = b[7]
	n, j := int(b[0]-'0'), 1
	if c := b[1]; c >= '0' && c <= '9' {
		n, j = n*10+int(c-'0'), 2
	}
	switch c := b[j]; c {
	case '.':
		if b[j+1] == '.' {
			return false
		}
		s.setRaw(TokMoveNumber, j+1)
		s.tok.num = n
		return true
	case '-', 'x', ':':
		if n == 0 || j == 1 && b[0] <= '2' && b[2] >= '0' && b[2] <= '2' && !isDigit(int(b[3])) {
			return false // (perhaps a result: 1-0, 2-0, 1-1...)
		}
		d := b[j+1]
		if d < '0' || d > '9' {
			return false
		}
		m, e := int(d-'0'), j+2
		if d := b[e]; d >= '0' && d <= '9' {
			m, e = m*10+int(d-'0'), e+1
		}
		if b[e] == c && c != '-' && m > 0 {
			return s.scanCapture(n, m, c, e)
		}
		if d := b[e]; m == 0 || d >= '0' && d <= '9' || d == '-' || d == 'x' || d == ':' || d == 'X' {
			return false
		}
		s.sq = append(s.sq[:0], Square(n), Square(m))
		s.finishMove(Sep(c), e)
		return true
	}
	return false
}

// scanCapture scans the rest of a move of more than two numeric squares
// (16 at most), each of one or two digits, all apart by sep, 'x' or ':',
// such as "26x17x10x1": the squares n and m that scanNumberFast read, and
// the next separator at the token's byte e. It reads as scanMove does, and
// reports false, having consumed nothing, for anything else (a square cut
// or of three digits, blanks, another separator).
func (s *Scanner) scanCapture(n, m int, sep byte, e int) bool {
	b := s.buf[s.i:s.n]
	s.sq = append(s.sq[:0], Square(n), Square(m))
	for b[e] == sep && len(s.sq) < 16 {
		if e+3 >= len(b) {
			return false
		}
		d := b[e+1] - '0'
		if d > 9 {
			return false
		}
		q, k := int(d), e+2
		if d := b[k] - '0'; d <= 9 {
			q, k = q*10+int(d), k+1
		}
		if q == 0 {
			return false
		}
		s.sq = append(s.sq, Square(q))
		e = k
	}
	if d := b[e]; d >= '0' && d <= '9' || d == '-' || d == 'x' || d == ':' || d == 'X' {
		return false
	}
	s.finishMove(Sep(sep), e)
	return true
}

// squareAt parses a square at b[j]. It returns the square, its length
// and whether it was written in upper case; length 0 means no square.
func squareAt(b []byte, j int, alg bool) (Square, int, bool) {
	c := at(b, j)
	if isDigit(c) {
		if alg {
			return 0, 0, false
		}
		n := c - '0'
		k := 1
		if d := at(b, j+1); isDigit(d) {
			n = n*10 + d - '0'
			k = 2
			if isDigit(at(b, j+2)) {
				return 0, 0, false
			}
		}
		if n == 0 {
			return 0, 0, false
		}
		return Square(n), k, false
	}
	if c < 0 || !isLetter(byte(c)) || !alg {
		return 0, 0, false
	}
	lc := byte(c) | 0x20
	d := at(b, j+1)
	if lc == 'x' || !isDigit(d) || d == '0' {
		return 0, 0, false
	}
	r := d - '0'
	k := 2
	if d2 := at(b, j+2); isDigit(d2) {
		r = r*10 + d2 - '0'
		k = 3
	}
	return AlgSquare(lc, r), k, c < 'a'
}

// scanMove scans a move at the start of b. It reports false (consuming
// nothing) when the text is not a move.
func (s *Scanner) scanMove(b []byte) bool {
	alg := isLetter(b[0])
	s.sq = s.sq[:0]
	var sep Sep
	repair := ""
	first, k, upper := squareAt(b, 0, alg)
	if k == 0 {
		// Four digits with no separator: 3228 = 32-28.
		if !alg && len(b) >= 4 && isDigit(int(b[0])) && isDigit(int(b[1])) && isDigit(int(b[2])) && isDigit(int(b[3])) &&
			!isDigit(at(b, 4)) && at(b, 4) != '.' && b[0] != '0' && b[2] != '0' {
			s.sq = append(s.sq, Square((b[0]-'0')*10+b[1]-'0'), Square((b[2]-'0')*10+b[3]-'0'))
			s.warn(WarnMoveSyntax, s.pos(), "no separator in "+string(b[:4]))
			s.finishMove('-', 4)
			return true
		}
		return false
	}
	if upper {
		repair = "upper case"
	}
	s.sq = append(s.sq, first)
	j := k
	for len(s.sq) < 64 {
		c := at(b, j)
		var cs Sep
		switch c {
		case '-', 'x', ':':
			cs = Sep(c)
		case 'X':
			cs = 'x'
		}
		if cs != 0 {
			m := j + 1
			for d := at(b, m); d == ' ' || d == '\t'; d = at(b, m) {
				m++
			}
			sq, k, up := squareAt(b, m, alg)
			if k == 0 {
				break
			}
			switch {
			case c == 'X':
				repair = "separator X"
			case up:
				repair = "upper case"
			}
			if sep == 0 {
				sep = cs
			} else if sep != cs {
				repair = "mixed separators"
				if cs != '-' {
					sep = cs
				}
			}
			s.sq = append(s.sq, sq)
			j = m + k
			continue
		}
		if alg && sep == 0 && len(s.sq) == 1 {
			if sq, k, up := squareAt(b, j, true); k > 0 {
				if up {
					repair = "upper case"
				}
				s.sq = append(s.sq, sq)
				j += k
			}
		}
		break
	}
	if len(s.sq) < 2 {
		return false
	}
	if sep == '-' && len(s.sq) > 2 {
		repair = "'-' between more than two squares"
	}
	if repair != "" {
		s.warn(WarnMoveSyntax, s.pos(), string(b[:j])+": "+repair)
	}
	s.finishMove(sep, j)
	return true
}

// finishMove makes the scanned squares (s.sq) a TokMove of length k. Its
// text is built on demand by Token.Text.
func (s *Scanner) finishMove(sep Sep, k int) {
	t := &s.tok
	t.Kind = TokMove
	t.start, t.end = s.i, s.i+k
	t.sep = sep
	s.i += k
}
