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
func (f *finder) scan(data []byte, base int64, i int, atEOF bool, minCut int64) (int, pdn.Boundary, bool) {
	for ; i < len(data); i++ {
		if !f.naive {
			if i = f.skip(data, base, i); i == len(data) {
				break
			}
		}
		c := data[i]
		off := base + int64(i)
		if f.naive && off >= minCut && i > 0 {
			if c == '\n' || c == '\r' {
				return i, f.at(off, false), true
			}
			if c == '[' && f.lineStart == off {
				return i, f.at(off, true), true
			}
		}
		if c == '\n' || c == '\r' {
			switch f.state {
			case findSetup:
				// A setup command ends on its line: the '/' alone is a
				// token and what follows it is read again.
				f.state = findTop
				f.glued = true
				if f.from >= base { // (naive cuts may cut a setup command)
					i = int(f.from-base) - 1
					continue
				}
			case findTagName:
				f.state = findTop
				f.glued = true
			case findLine:
				f.state = f.ret
			case findString:
				// A string ends at the end of its line (Scanner.scanString).
				f.state = findTop
				f.glued = false
			case findTop:
				f.endTok(data, base, i)
				if f.term && f.termEnd == off && off >= minCut {
					return i, f.at(off, false), true
				}
				f.glued = false
			}
			// Line breaks count the same everywhere (Scanner.consumeLines).
			if c == '\n' && f.cr {
				f.lineStart = off + 1
			} else {
				f.line++
				f.lineStart = off + 1
			}
			f.cr = c == '\r'
			continue
		}
		f.cr = false
		switch f.state {
		case findComment:
			if c == '}' {
				f.state = findTop
				f.glued = true
			}
			continue
		case findString:
			f.stringByte(c)
			continue
		case findLine:
			if f.n++; f.semi && f.n > f.maxTok {
				// Scanner.scanLineComment gives up after this byte.
				f.state = findTop
				f.glued = true
			}
			continue
		case findSetup:
			if c == '/' {
				f.state = findTop
				f.glued = true
			}
			continue
		case findTagName:
			if c != '"' && c != ']' && c != '[' && f.n < 257 {
				f.n++
				continue
			}
			// The name ends (Scanner.scanTagName); c starts the next token.
			f.state = findTop
			f.glued = true
		case findAfterOpen:
			switch c {
			case ' ', '\t', '\f', '\v':
				continue
			case '%':
				f.state, f.ret, f.semi = findLine, findAfterOpen, false
				continue
			case '\\':
				if i+1 >= len(data) && !atEOF {
					return i, pdn.Boundary{}, false
				}
				if i+1 < len(data) && (data[i+1] == 'r' || data[i+1] == 'n') {
					i++
					continue
				}
			case '[':
				continue
			case ']':
				f.state = findTop
				f.glued = true
				continue
			case '"':
				f.state, f.n, f.esc = findString, 1, false
				continue
			}
			f.state, f.n = findTagName, 1
			continue
		}
		// findTop
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
				return i, f.at(off, true), true
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
					return i, pdn.Boundary{}, false
				}
				if i+1 < len(data) && (data[i+1] == 'r' || data[i+1] == 'n') {
					i++
					f.glued = false
					break
				}
				f.inTok, f.tokStart, f.tokGlue = true, off, f.glued
			}
		default:
			if !f.inTok {
				f.inTok, f.tokStart, f.tokGlue = true, off, f.glued
			}
		}
	}
	return len(data), pdn.Boundary{}, false
}

// findClass classifies bytes for finder.skip: 1 for the bytes of a run
// that cannot end it or start anything else, 2 for blanks.
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

// skip is scan's fast path over the bytes that change nothing but a
// count: in comments, strings and tag names, and between tokens and in
// runs of token bytes, the bulk of movetext. It returns the index of the
// first other byte (or len(data)).
func (f *finder) skip(data []byte, base int64, i int) int {
	start := i
	switch f.state {
	case findTop:
		i = f.skipTop(data, base, i)
	case findComment:
		for i < len(data) && data[i] != '}' && data[i] != '\n' && data[i] != '\r' {
			i++
		}
	case findString:
		n := f.n
		for ; i < len(data) && n < f.maxTok && !f.esc; i++ {
			if c := data[i]; c == '"' || c == '\\' || c == '\n' || c == '\r' {
				break
			}
			n++
		}
		f.n = n
	case findTagName:
		n := f.n
		for ; i < len(data) && n < 257; i++ {
			if c := data[i]; c == '"' || c == ']' || c == '[' || c == '\n' || c == '\r' {
				break
			}
			n++
		}
		f.n = n
	}
	if i > start {
		f.cr = false
	}
	return i
}

// skipTop is skip between tokens and in runs of token bytes. Only the
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
