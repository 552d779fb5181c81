package archive

import (
	"bytes"

	"github.com/rafle/rafle/pkg/pdn"
)

// Reading one input in pieces
//
// A large input is read by several goroutines at once (see parallel.go):
// one goroutine cuts the decompressed text into pieces at places where a
// game ends, and each piece is read by a Reader started in the middle of
// the input, at the piece's offset, line and game number. Where a Reader
// stands between two games is a pdn.Boundary: a Reader started there reads the
// rest of the input exactly as the Reader that read the games before it
// would have, because nothing else carries over from one game to the next
// (the game count is renumbered afterwards, and string interning and slab
// memory do not show in the games).
//
// The cutting pass (finder) is cheap and does not build tokens, so it may
// guess wrong on odd input. It never has the last word: the Reader of a
// piece checks that it really ended at the pdn.Boundary where the next piece
// starts (Reader.EndedAt), and a piece that did not is read again, in
// order, by the goroutine that merges the results (see merger.sequential).

// The finder has two modes. It starts in the fast one (jump), which looks
// only at the ends of lines: from the offset where a piece may end, it
// jumps from line break to line break (bytes.IndexByte) to the first one
// right after a terminator, and counts the lines it jumped over
// (bytes.Count). It does not know whether that terminator is in a comment
// or a string, but the readers' check catches such a wrong guess. It costs
// about a tenth of the exact mode, which follows every byte (below): the
// finder switches to it for the rest of the job once a piece was read
// wrong (pipeline.exact), and for the rest of an input when no line in
// jumpGiveUp bytes after a piece's size ends with a terminator (games
// without results, old Mac line breaks).

// jumpGiveUp is how far past a piece's size the fast mode looks for a
// terminator before the exact mode takes over.
const jumpGiveUp = 4 * pieceSize

// finder looks for boundaries in the text of an input, byte by byte,
// following what the Scanner and Reader do closely enough to find them in
// real archives: {comments} over several lines and with '[' or blank
// lines inside, "strings" with escapes, tag names, ';' and '%' comments
// to the end of the line, /setup/ commands, literal \r and \n. It
// proposes two kinds of pdn.Boundary (see pdn.Boundary): right after a
// terminator ('*' not glued to the move before it, or a result) that a
// line break follows, and at a '[' that starts a line after movetext
// without a terminator. A wrong guess costs time, not correctness (see
// the top of this file).
type finder struct {
	maxTok int  // the Scanner's MaxTokenSize
	naive  bool // see Job.naiveCuts
	exact  bool // follow every byte (else jump from line end to line end)
	// The line count where the current piece starts, for the exact mode
	// to scan it again from its start.
	cutLine      int
	cutLineStart int64
	cutCR        bool

	state     findState
	ret       findState // the state a '%' comment returns to
	line      int
	lineStart int64
	cr        bool // the last byte was '\r'

	body     bool  // the game being read has movetext
	inTok    bool  // in a run of token bytes (move, number, unknown text)
	tokStart int64 // offset of the run
	tokGlue  bool  // no blank before the run
	glued    bool  // no blank since the last token
	term     bool  // the last token was a terminator ...
	termEnd  int64 // ... ending here
	n        int   // bytes of the current string, tag name or ';' comment
	semi     bool  // the comment to the end of the line is a ';' comment
	esc      bool  // a '\' in a string escapes the next byte
	from     int64 // offset of the current '/' setup command
}

type findState uint8

const (
	findTop       findState = iota // between tokens or in a run of token bytes
	findComment                    // in {...}
	findString                     // in "..."
	findLine                       // in a ';' or '%' comment, to the end of the line
	findAfterOpen                  // after '[', before the tag name
	findTagName                    // in a tag name
	findSetup                      // in /.../
)

func newFinder(maxTok int, bom int) *finder {
	if maxTok <= 0 {
		maxTok = pdn.DefaultMaxTokenSize
	}
	return &finder{maxTok: maxTok, line: 1, lineStart: int64(bom), cutLine: 1, cutLineStart: int64(bom)}
}

// find returns the first boundary at or after minCut in data (data[0] is
// at the start of the piece), as scan does, in the finder's mode. In the
// fast mode it switches to the exact mode when exact is set or it finds no
// terminator, and then scans data again from the piece's start.
func (f *finder) find(data []byte, base int64, i int, atEOF bool, minCut int64, exact bool) (int, pdn.Boundary, bool) {
	if f.exact || f.naive {
		return f.scan(data, base, i, atEOF, minCut)
	}
	if !exact {
		k, b, found := f.jump(data, base, i, minCut)
		if found || base+int64(len(data)) < minCut+jumpGiveUp && !atEOF {
			return k, b, found
		}
	}
	// A piece was read wrong, or no line ends with a terminator: follow
	// every byte from the piece's start.
	f.exact = true
	f.line, f.lineStart, f.cr = f.cutLine, f.cutLineStart, f.cutCR
	f.state = findTop
	f.cut()
	return f.scan(data, base, 0, atEOF, minCut)
}

// jump is the fast mode of find: the first line break at or after minCut
// right after a terminator, or len(data).
func (f *finder) jump(data []byte, base int64, i int, minCut int64) (int, pdn.Boundary, bool) {
	for j := max(i, int(min(max(minCut-base, 0), int64(len(data))))); j < len(data); j++ {
		k := bytes.IndexByte(data[j:], '\n')
		if k < 0 {
			break
		}
		j += k // a '\n'
		e := j
		if e > 0 && data[e-1] == '\r' {
			e-- // the boundary is at the '\r' of "\r\n"
		}
		if base+int64(e) < minCut || !terminatorBefore(data, e) {
			continue
		}
		f.lines(data, base, i, e)
		return e, f.at(base+int64(e), false), true
	}
	f.lines(data, base, i, len(data))
	return len(data), pdn.Boundary{}, false
}

// terminatorBefore reports whether a terminator token ends at data[e]
// (data[0] is at a boundary).
func terminatorBefore(data []byte, e int) bool {
	s := e
	for s > 0 && (findClass[data[s-1]] == 1 || data[s-1] == '/') {
		s--
	}
	if n := e - s; n != 1 && n != 3 && n != 7 {
		return false
	}
	glued := s > 0 && findClass[data[s-1]] != 2 && data[s-1] != '\n' && data[s-1] != '\r'
	return isTerminator(data[s:e], glued)
}

// lines counts the line breaks of data[i:e] as the Scanner does: "\r\n"
// is one, and so is a '\r' or a '\n' alone.
func (f *finder) lines(data []byte, base int64, i, e int) {
	seg := data[i:e]
	if len(seg) == 0 {
		return
	}
	n := bytes.Count(seg, []byte{'\n'})
	if cr := bytes.Count(seg, []byte{'\r'}); cr > 0 {
		n += cr - bytes.Count(seg, []byte("\r\n"))
	}
	if f.cr && seg[0] == '\n' {
		n-- // the '\n' of a "\r\n" cut between two calls
	}
	f.line += n
	if k := bytes.LastIndexAny(seg, "\r\n"); k >= 0 {
		f.lineStart = base + int64(i+k) + 1
	}
	f.cr = seg[len(seg)-1] == '\r'
}

// at returns the pdn.Boundary at offset off on the current line.
func (f *finder) at(off int64, tagOpen bool) pdn.Boundary {
	return pdn.Boundary{Offset: off, Line: f.line, LineStart: f.lineStart, TagOpen: tagOpen}
}

// isTerminator reports whether a run of token bytes is a game terminator
// for the Reader: a result, or a '*' after a blank.
func isTerminator(b []byte, glued bool) bool {
	switch string(b) {
	case "1-0", "0-1", "2-0", "0-2", "1-1", "0-0", "1/2-1/2":
		return true
	case "*":
		return !glued
	}
	return false
}

// endTok ends the run of token bytes data[...:i] (base is the offset of
// data[0]).
func (f *finder) endTok(data []byte, base int64, i int) {
	if !f.inTok {
		return
	}
	f.inTok = false
	f.glued = true
	f.endRun(data, base, f.tokStart, i, f.tokGlue)
}

// startTok notes the start of a token other than a run.
func (f *finder) startTok(body bool) {
	f.term = false
	if body {
		f.body = true
	}
}

// scan scans data[i:] (base is the offset of data[0]) and returns the
// first pdn.Boundary at or after minCut, with the index of its offset in data;
// or, when there is none, the index where it stopped: len(data), or
// earlier when the next byte needs bytes after data to be understood and
// atEOF is false. Scanning goes on from the returned index, with the
// bytes from there on at the start of the next data (data from the
// offset of a pdn.Boundary on for the next piece).
//
// It hands the bytes to the stage of the state the finder is in (top,
// comment, quoted, lineComment, afterOpen, tagName, setup), which skips
// the bytes that change nothing but a count, follows the next byte, and
// says where to go on and whether it found a boundary. One stage call per
// byte that matters is what the loop cost before it was split (see
// docs/benchmarks.md, measured choices).
func (f *finder) scan(data []byte, base int64, i int, atEOF bool, minCut int64) (int, pdn.Boundary, bool) {
	for i < len(data) {
		s := stepOn
		if f.naive {
			if s = f.naiveCut(data, base, i, minCut); s != stepOn {
				return f.stop(base, i, s)
			}
		}
		switch f.state {
		case findTop:
			i, s = f.top(data, base, i, atEOF, minCut)
		case findComment:
			i = f.comment(data, base, i)
		case findString:
			i = f.quoted(data, base, i)
		case findLine:
			i = f.lineComment(data, base, i)
		case findAfterOpen:
			i, s = f.afterOpen(data, base, i, atEOF)
		case findTagName:
			i = f.tagName(data, base, i)
		case findSetup:
			i = f.setup(data, base, i)
		}
		if s != stepOn {
			return f.stop(base, i, s)
		}
	}
	return len(data), pdn.Boundary{}, false
}

// stop returns what scan returns when a stage stopped at data[i] with s.
func (f *finder) stop(base int64, i int, s step) (int, pdn.Boundary, bool) {
	if s == stepMore {
		return i, pdn.Boundary{}, false
	}
	return i, f.at(base+int64(i), s == stepCutTag), true
}

// step is what a stage of scan found at the index it returns.
type step uint8

const (
	stepOn     step = iota // nothing: scanning goes on from the index
	stepCut                // a boundary at the index, after a terminator
	stepCutTag             // a boundary at the '[' at the index
	stepMore               // the byte at the index needs bytes after data
)

// isBreak reports whether c is a line break byte.
func isBreak(c byte) bool { return c == '\n' || c == '\r' }

// newline counts the line break c at offset off as the Scanner does
// (Scanner.consumeLines): "\r\n" is one, and so is a '\r' or a '\n' alone.
func (f *finder) newline(c byte, off int64) {
	if c == '\r' || !f.cr {
		f.line++
	}
	f.lineStart = off + 1
	f.cr = c == '\r'
}

// naiveCut is the test mode of Job.naiveCuts: a boundary at every line
// break at or after minCut, and at a '[' that starts a line there.
func (f *finder) naiveCut(data []byte, base int64, i int, minCut int64) step {
	off := base + int64(i)
	if off < minCut || i == 0 {
		return stepOn
	}
	if isBreak(data[i]) {
		return stepCut
	}
	if data[i] == '[' && f.lineStart == off {
		return stepCutTag
	}
	return stepOn
}

// top is the stage between tokens and in runs of token bytes: it skips
// them (skipTop), then follows the next byte, which starts a token, ends
// the game at a line break after a terminator, or starts a game at a '['
// that starts a line after movetext.
func (f *finder) top(data []byte, base int64, i int, atEOF bool, minCut int64) (int, step) {
	if !f.naive {
		j := f.skipTop(data, base, i)
		if j > i {
			f.cr = false
		}
		if i = j; i == len(data) {
			return i, stepOn
		}
	}
	c := data[i]
	off := base + int64(i)
	if isBreak(c) {
		f.endTok(data, base, i)
		if f.term && f.termEnd == off && off >= minCut {
			return i, stepCut
		}
		f.glued = false
		f.newline(c, off)
		return i + 1, stepOn
	}
	f.cr = false
	switch c {
	case ' ', '\t', '\f', '\v':
		f.endTok(data, base, i)
		f.glued = false
	case '{':
		f.endTok(data, base, i)
		f.startTok(true)
		f.state = findComment
	case '"':
		f.endTok(data, base, i)
		f.startTok(false)
		f.state, f.n, f.esc = findString, 1, false
	case '[':
		f.endTok(data, base, i)
		if f.body && off >= minCut && f.lineStart == off && i > 0 {
			return i, stepCutTag
		}
		f.startTok(false)
		f.state = findAfterOpen
	case ']', '(', ')', '}':
		f.endTok(data, base, i)
		f.startTok(c == '(' || c == ')')
		f.glued = true
	case '%', ';', '/', '\\':
		if f.inTok {
			break // part of the run
		}
		switch c {
		case '%':
			f.state, f.ret, f.semi = findLine, findTop, false
			f.glued = false
		case ';':
			f.startTok(true)
			f.state, f.ret, f.semi, f.n = findLine, findTop, true, 1
		case '/':
			f.startTok(true)
			f.state, f.from = findSetup, off+1
		case '\\':
			if i+1 >= len(data) && !atEOF {
				return i, stepMore
			}
			if i+1 < len(data) && (data[i+1] == 'r' || data[i+1] == 'n') {
				f.glued = false
				return i + 2, stepOn
			}
			f.inTok, f.tokStart, f.tokGlue = true, off, f.glued
		}
	default:
		if !f.inTok {
			f.inTok, f.tokStart, f.tokGlue = true, off, f.glued
		}
	}
	return i + 1, stepOn
}

// comment is the stage in a {comment}: it ends at '}'.
func (f *finder) comment(data []byte, base int64, i int) int {
	if !f.naive {
		start := i
		for i < len(data) && stops[data[i]]&stopComment == 0 {
			i++
		}
		if i > start {
			f.cr = false
		}
		if i == len(data) {
			return i
		}
	}
	if c := data[i]; isBreak(c) {
		f.newline(c, base+int64(i))
	} else {
		f.cr = false
		if c == '}' {
			f.state = findTop
			f.glued = true
		}
	}
	return i + 1
}

// quoted is the stage in a "string" (Scanner.scanString), which ends at
// its closing '"', at the end of its line, or after the Scanner's
// MaxTokenSize bytes.
func (f *finder) quoted(data []byte, base int64, i int) int {
	if !f.naive && !f.esc {
		if i = f.run(data, i, f.maxTok, stopString); i == len(data) {
			return i
		}
	}
	if c := data[i]; isBreak(c) {
		// A string ends at the end of its line (Scanner.scanString).
		f.state = findTop
		f.glued = false
		f.newline(c, base+int64(i))
	} else {
		f.cr = false
		f.stringByte(c)
	}
	return i + 1
}

// run skips the bytes of data from i on that stops does not mark stop,
// counting them in f.n up to limit, and returns the index of the first
// other byte (or len(data)).
func (f *finder) run(data []byte, i, limit int, stop uint8) int {
	start := i
	end := min(len(data), i+limit-f.n)
	for i < end && stops[data[i]]&stop == 0 {
		i++
	}
	if i > start {
		f.n += i - start
		f.cr = false
	}
	return i
}

// lineComment is the stage in a ';' or '%' comment, which ends with its
// line (or, for a ';' comment, after the Scanner's MaxTokenSize bytes).
func (f *finder) lineComment(data []byte, base int64, i int) int {
	if c := data[i]; isBreak(c) {
		f.state = f.ret
		f.newline(c, base+int64(i))
		return i + 1
	}
	f.cr = false
	if f.n++; f.semi && f.n > f.maxTok {
		// Scanner.scanLineComment gives up after this byte.
		f.state = findTop
		f.glued = true
	}
	return i + 1
}

// setup is the stage in a /setup/ command, which ends at the next '/'
// on its line; at the end of the line, the first '/' alone is a token
// and the bytes after it are read again.
func (f *finder) setup(data []byte, base int64, i int) int {
	c := data[i]
	if isBreak(c) {
		f.state = findTop
		f.glued = true
		if f.from >= base { // (naive cuts may cut a setup command)
			return int(f.from - base)
		}
		f.newline(c, base+int64(i))
		return i + 1
	}
	f.cr = false
	if c == '/' {
		f.state = findTop
		f.glued = true
	}
	return i + 1
}

// tagName is the stage in a tag name (Scanner.scanTagName), which ends
// before a '"', ']' or '[', at the end of its line, or after 256 bytes;
// the byte that ends it is then followed by top.
func (f *finder) tagName(data []byte, base int64, i int) int {
	if !f.naive {
		if i = f.run(data, i, 257, stopTagName); i == len(data) {
			return i
		}
	}
	if c := data[i]; isBreak(c) {
		f.state = findTop
		f.glued = true
		f.newline(c, base+int64(i))
		return i + 1
	} else if c != '"' && c != ']' && c != '[' && f.n < 257 {
		f.cr = false
		f.n++
		return i + 1
	}
	f.state = findTop
	f.glued = true
	return i
}

// afterOpen is the stage after a '[', before the tag name: blanks, '%'
// comments, escaped line breaks and more '[' are skipped, a ']' or a
// '"' ends the tag, and any other byte starts the name.
func (f *finder) afterOpen(data []byte, base int64, i int, atEOF bool) (int, step) {
	c := data[i]
	if isBreak(c) {
		f.newline(c, base+int64(i))
		return i + 1, stepOn
	}
	f.cr = false
	switch c {
	case ' ', '\t', '\f', '\v', '[':
		return i + 1, stepOn
	case '%':
		f.state, f.ret, f.semi = findLine, findAfterOpen, false
		return i + 1, stepOn
	case '\\':
		if i+1 >= len(data) && !atEOF {
			return i, stepMore
		}
		if i+1 < len(data) && (data[i+1] == 'r' || data[i+1] == 'n') {
			return i + 2, stepOn
		}
	case ']':
		f.state = findTop
		f.glued = true
		return i + 1, stepOn
	case '"':
		f.state, f.n, f.esc = findString, 1, false
		return i + 1, stepOn
	}
	f.state, f.n = findTagName, 1
	return i + 1, stepOn
}

// findClass classifies bytes for finder.skipTop and terminatorBefore: 1
// for the bytes of a run that cannot end it or start anything else, 2 for
// blanks.
var findClass = func() (t [256]uint8) {
	for c := range 256 {
		t[c] = 1
	}
	for _, c := range []byte("\n\r{}[]()\"%;/\\") {
		t[c] = 0
	}
	for _, c := range []byte(" \t\f\v") {
		t[c] = 2
	}
	return t
}()

// stops marks the bytes that end a run of bytes skipped in a string
// (stopString), a tag name (stopTagName) or a {comment} (stopComment).
var stops = func() (t [256]uint8) {
	for _, c := range []byte("\"\\\n\r") {
		t[c] |= stopString
	}
	for _, c := range []byte("\"[]\n\r") {
		t[c] |= stopTagName
	}
	for _, c := range []byte("}\n\r") {
		t[c] |= stopComment
	}
	return t
}()

const (
	stopString = 1 << iota
	stopTagName
	stopComment
)

// skipTop skips the bytes between tokens and in runs of token bytes
// (the bulk of movetext) and returns the index of the first other byte. Only the
// last run before the next other byte matters: it alone decides whether
// the game has movetext after its last terminator (body), and only a
// terminator right before a line break ends an item.
func (f *finder) skipTop(data []byte, base int64, i int) int {
	start := i
	for i < len(data) && findClass[data[i]] != 0 {
		i++
	}
	if i == start {
		return i
	}
	e := i // end of the last run
	for e > start && findClass[data[e-1]] == 2 {
		e--
	}
	if e == start {
		// Blanks only: a run before them has ended.
		if f.inTok {
			f.inTok = false
			f.endRun(data, base, f.tokStart, start, f.tokGlue)
		}
		f.glued = false
		return i
	}
	b := e // start of the last run
	for b > start && findClass[data[b-1]] == 1 {
		b--
	}
	runStart, glue := base+int64(b), false
	if b == start {
		if f.inTok {
			runStart, glue = f.tokStart, f.tokGlue
		} else {
			glue = f.glued
		}
	}
	if e < i {
		f.inTok, f.glued = false, false
		f.endRun(data, base, runStart, e, glue)
	} else {
		f.inTok, f.tokStart, f.tokGlue = true, runStart, glue
	}
	return i
}

// endRun notes the end of the run data[tokStart-base:i].
func (f *finder) endRun(data []byte, base, tokStart int64, i int, glued bool) {
	if k := int(tokStart - base); k >= 0 {
		if n := i - k; (n == 3 || n == 1 || n == 7) && isTerminator(data[k:i], glued) {
			f.term, f.termEnd, f.body = true, base+int64(i), false
			return
		}
	}
	f.term, f.body = false, true
}

// stringByte follows one byte c of a "string" (Scanner.scanString).
func (f *finder) stringByte(c byte) {
	f.n++
	switch {
	case f.esc:
		f.esc = false
	case c == '\\':
		f.esc = true
	case c == '"':
		f.state = findTop
		f.glued = true
	case f.n > f.maxTok:
		// Scanner.scanString gives up after this byte.
		f.state = findTop
		f.glued = true
	}
}

// cut makes the finder start afresh at a pdn.Boundary it returned, for the
// next piece.
func (f *finder) cut() {
	f.inTok, f.term, f.body, f.glued = false, false, false, false
	f.cutLine, f.cutLineStart, f.cutCR = f.line, f.lineStart, f.cr
}
