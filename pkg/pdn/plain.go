package pdn

import (
	"encoding/binary"
	"math/bits"

	"github.com/rafle/rafle/pkg/engine"
)

// The Reader's fast paths: the commonest movetext and tag pairs read
// straight from the Scanner's buffer, as the Reader would read their
// tokens (FuzzPlain, TestPlainMovetext and TestScanNumberFast check that
// both ways give the same games), without making a token of each.

// plainMovetext reads the commonest movetext, move numbers "N." and
// moves of two squares "N-N" (or 'x', ':'), each number of one or two
// digits, apart by blanks and line breaks, straight from the scanner's
// buffer: what Scanner.Next and Next would make of them, without a token
// each (validate of the Open Checkers Archive spent about a third of its
// reading in them). It stops at anything else, such as a result, a
// comment, a lone CR, a move number that such a move does not follow, or
// near the end of the buffered input, having consumed nothing of it (nor
// of the move number before it), for Next to read as usual.
func (r *Reader) plainMovetext() {
	if r.vis != nil || r.tokensOnly {
		return
	}
	// The move number of the first move: the pending one, else 0 (none).
	num, cont := 0, false
	if r.pending.set {
		if r.pending.num == 0 {
			return // (move warns that it is dropped)
		}
		num, cont = r.pending.num, r.pending.cont
	}
	s := r.s
	// The moves are read in runs of up to plainBatch, each handed on
	// (plainMoves) as it ends.
	for s.n-s.i >= plainWindow || s.fill(plainWindow) {
		b := (*[plainWindow]byte)(s.buf[s.i : s.i+plainWindow])
		run := plainRun{line: s.line, col: 1 - int(s.lineStart-s.base-int64(s.i)), num: num}
		run.read(b, s.base+int64(s.i), &r.batch)
		nb := run.nb
		if nb == 0 {
			return
		}
		s.line, s.lineStart = run.line, s.base+int64(s.i)+1-int64(run.col)
		s.i += int(run.p)
		r.phase = inMovetext // (from plainTags, the movetext starts)
		if num != 0 {
			r.batch.rec[0].cont = cont
			r.pending.set, num = false, 0
		}
		r.plainMoves(&r.batch, nb, run.maxSq)
		if nb < plainBatch {
			return
		}
	}
}

// plainWindow is how many bytes of input plainMovetext hands
// plainRun.read at a time.
const plainWindow = 256

// plainRun is the state of plainMovetext's reading of a window of input.
type plainRun struct {
	p         uint // bytes read
	line      int  // the line of b[p]
	col       int  // the column of b[p], less p
	num       int  // the move number of the first move, 0 if none
	nb, maxSq int  // moves read, their largest square
}

// read reads moves into batch, up to plainBatch of them, from b[run.p:]
// on, b at offset off in the input. A move a turn, read in the stages of
// Scanner.Next and scanNumberFast: the blanks before a token
// (plainBlanks), a number of one or two digits and what follows it: a
// '.' (a move number: blanks and a number again), then a separator and a
// second number. It makes no call that is not inlined, so that its state
// stays in registers (inlined in Next, plainMovetext kept most of it on
// the stack; its stages as functions that return the number read cost
// 7% more: docs/benchmarks.md, measured choices).
func (run *plainRun) read(b *[plainWindow]byte, off int64, batch *plainMoveBatch) {
	p, line, col, num := run.p, run.line, run.col, run.num
	nb, maxSq := 0, 0
	// A move a turn, with the blanks and the move number before it, in
	// t: up to 15 blanks, 3 bytes, 15 blanks, 6 bytes, to t[39]. The line
	// and column are those of the token; the last move tells those of p.
	for nb < plainBatch && p < plainWindow-plainItem {
		t := (*[plainItem]byte)(b[p : p+plainItem])
		j := uint(1) // the commonest: one blank
		if t[0] != ' ' || t[1] <= ' ' {
			k, breaks, last := plainBlanks((*[17]byte)(t[:17]))
			if k >= 16 {
				break
			}
			if breaks > 0 {
				line, col = line+int(breaks), -int(p+last)
			}
			j = k
		}
		// The token, as Scanner.scanNumberFast reads it.
		o := j & 15 // tok is t[o:]
		tok := (*[8]byte)(t[o:])
		n := uint(tok[0]) - '0'
		if n > 9 {
			break
		}
		sep := tok[1]
		if d := uint(sep) - '0'; d <= 9 {
			n, sep, o = n*10+d, tok[2], o+1
			tok = (*[8]byte)(t[o:])
		}
		// tok[1] is sep.
		if sep == '.' {
			// A move number: its move must follow. (A second number, "0."
			// and "N.." are Next's.)
			if num != 0 || n == 0 || tok[2] == '.' {
				break
			}
			num = int(n)
			j = (o + 2) & 31 // after the '.'
			if t[j] == ' ' && t[j+1] > ' ' {
				j++
			} else {
				k, breaks, last := plainBlanks((*[17]byte)(t[j : j+17]))
				if k >= 16 {
					break
				}
				if breaks > 0 {
					line, col = line+int(breaks), -int(p+j+last)
				}
				j += k
			}
			o = j & 63
			tok = (*[8]byte)(t[o:])
			n = uint(tok[0]) - '0'
			if n > 9 {
				break
			}
			sep = tok[1]
			if d := uint(sep) - '0'; d <= 9 {
				n, sep, o = n*10+d, tok[2], o+1
				tok = (*[8]byte)(t[o:])
			}
		}
		if sep != '-' && sep != 'x' && sep != ':' {
			break
		}
		// tok[1] is sep: the square after it.
		to := uint(tok[2]) - '0'
		if to > 9 {
			break
		}
		c, end := tok[3], uint(3)
		if d := uint(c) - '0'; d <= 9 {
			to, c, end = to*10+d, tok[4], 4
		}
		// Square 0, a result (1-0, 0-2, 1-1...; and the moves between
		// squares 1 and 2, left to Next), a longer number or a third
		// square end the run.
		if n == 0 || to == 0 || n <= 2 && to <= 2 || c > ' ' && (c-'0' <= 9 || c == '-' || c == 'x' || c == ':' || c == 'X') {
			break
		}
		at := int(p + j)
		batch.sq[nb&(plainBatch-1)] = engine.SquarePair{From: uint8(n), To: uint8(to), Capture: sep != '-'}
		m := &batch.rec[nb&(plainBatch-1)]
		m.sep, m.number, m.cont = Sep(sep), num, false
		m.pos = Pos{Offset: off + int64(at), Line: line, Column: at + col}
		p += o + end
		num = 0
		maxSq = max(maxSq, int(n), int(to))
		nb++
	}
	run.p, run.nb, run.maxSq = p, nb, maxSq
	if nb > 0 {
		// The line and column of b[p], from the last move, on its line.
		m := &batch.rec[(nb-1)&(plainBatch-1)]
		run.line, run.col = m.pos.Line, m.pos.Column-int(m.pos.Offset-off)
	}
}

// plainBlanks returns the length of the blanks and line breaks at the
// start of t as Scanner.Next skips them (16 or more: too many for read),
// how many line breaks they hold and where the last one is.
func plainBlanks(t *[17]byte) (k, breaks, last uint) {
	for ; k < 16; k++ {
		c := t[k]
		if c == '\r' && t[k+1] == '\n' {
			k++
			c = '\n'
		}
		if c == '\n' {
			breaks, last = breaks+1, k
		} else if c != ' ' && c != '\t' {
			break
		}
	}
	return k, breaks, last
}

// plainItem is how many bytes plainRun.read looks at for a move (see
// there), with room for the index masks that spare bounds checks.
const plainItem = 72

// plainBatch is the number of moves plainMovetext gathers before it hands
// them on.
const plainBatch = 16

// plainMoveBatch is the moves of two numeric squares plainMovetext gathers:
// their squares in sq, as Variant.PlaySquarePairs plays them (a run of
// them at once), the rest in rec.
type plainMoveBatch struct {
	sq  [plainBatch]engine.SquarePair
	rec [plainBatch]plainRec
}

// plainRec is what plainMoveBatch keeps of a move but its squares.
type plainRec struct {
	sep    Sep
	number int  // 0: none
	cont   bool // the number was written "N..." (Move.Continuation)
	pos    Pos
}

// plainMoves adds the nb moves read by plainMovetext into b, their largest
// square maxSq: to the replay, if the reader replays the main line as it reads
// it (see SetReplayer), else to the line being built.
func (r *Reader) plainMoves(b *plainMoveBatch, nb int, maxSq int) {
	if r.ml != nil && len(r.stack) == 0 && r.toMainLine() {
		r.ml.plain(b, nb, maxSq)
		return
	}
	// As move would add them, with the arena's slabs written in place
	// when they have room.
	simpleOnce.Do(buildSimple)
	a := r.arena
	for i := range nb {
		pm, ps := &b.rec[i&(plainBatch-1)], b.sq[i&(plainBatch-1)] // (masks: no bounds checks)
		text, from, to := simpleMove(int(ps.From), int(ps.To), byte(pm.sep)), Square(ps.From), Square(ps.To)
		if len(a.moves.cur) == cap(a.moves.cur) || len(a.sqs.cur)+2 > cap(a.sqs.cur) || len(r.cur) == cap(r.cur) {
			m := r.newMove()
			m.Number, m.Continuation, m.Text, m.Squares, m.Sep = pm.number, pm.cont, text, r.squares([]Square{from, to}), pm.sep
			r.addMove(m, pm.pos)
			continue
		}
		k := len(a.sqs.cur)
		a.sqs.cur = a.sqs.cur[:k+2]
		sq := a.sqs.cur[k : k+2 : k+2]
		sq[0], sq[1] = from, to
		k = len(a.moves.cur)
		a.moves.cur = a.moves.cur[:k+1]
		m := &a.moves.cur[k]
		*m = Move{Number: pm.number, Continuation: pm.cont, Text: text, Squares: sq, Sep: pm.sep}
		k = len(r.cur)
		r.cur = r.cur[:k+1]
		setMoveNode(&r.cur[k], m, pm.pos)
	}
}

// plainTag reads a tag pair of the commonest form after its '[': a name
// of letters, digits and '_', blanks, a quoted value of printable ASCII
// without a backslash, and ']' right after the closing quote; straight
// from the scanner's buffer, as readTag would read it, without its
// tokens. It reports false, having consumed nothing, for anything else.
func (r *Reader) plainTag(g *Game, p Pos) bool {
	if r.tokensOnly {
		return false
	}
	s := r.s
	b := s.buf[s.i:s.n]
	if len(b) > 320 {
		b = b[:320]
	}
	j := 0
	for j < len(b) && isNameByte(b[j]) {
		j++
	}
	e := j
	for j < len(b) && b[j] == ' ' {
		j++
	}
	if e == 0 || e > 64 || j == e || j >= len(b) || b[j] != '"' {
		return false
	}
	v := j + 1
	k, h, hashed := plainValue(b, v)
	if k+1 >= len(b) || b[k] != '"' || b[k+1] != ']' {
		return false
	}
	name, key := knownTag(b[:e])
	if key == 0 {
		name = r.str(b[:e])
	}
	if !hashed {
		h = strHash(b[v:k])
	}
	value := r.strHashed(b[v:k], h)
	s.i += k + 2
	s.afterOpen = false // (as after the ']' token)
	r.tag(g, p, name, value, key)
	return true
}

// plainTags reads the tag pairs that follow a plain one (plainTag) on the
// next lines, each line a '[' and its tag pair, as Next would read them,
// and the plain movetext (plainMovetext) of a next line that starts with
// a digit: it stops before anything else, or after a tag pair that
// plainTag does not read (readTag reads it).
func (r *Reader) plainTags(g *Game) {
	s := r.s
	for {
		b := s.buf[s.i:s.n]
		k := 2
		if len(b) < 3 || b[0] != '\n' && (b[0] != '\r' || b[1] != '\n') {
			return
		}
		if b[0] == '\n' {
			k = 1
		}
		if c := b[k]; c != '[' && (c < '0' || c > '9') {
			return
		}
		// The line break, as Scanner.Next skips it. (Whether the token
		// after it is glued to the one before matters only for a '*'.)
		s.i += k
		s.newLine()
		if b[k] != '[' {
			r.plainMovetext()
			return
		}
		p := s.pos()
		s.i++
		s.afterOpen = true
		if !r.plainTag(g, p) {
			r.readTag(g, p)
			return
		}
	}
}

// plainValue scans the value of a plain tag pair (see plainTag) in b from
// b[v]: it returns the index k of the first byte from there that is not
// printable ASCII or is a '"' or a backslash, and, if hashed, strHash of
// b[v:k]. It looks at 8 bytes at a time.
func plainValue(b []byte, v int) (k int, h uint64, hashed bool) {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	k = v
	for ; k+8 <= len(b); k += 8 {
		w := binary.LittleEndian.Uint64(b[k:])
		// The high bits of the bytes below ' ', from 0x7f, '"' and '\\'
		// (the lowest set one is exact: false ones only come after it).
		q, bs := w^('"'*ones), w^('\\'*ones)
		stop := ((w-' '*ones)&^w | (w&^highs + ones) | w | (q-ones)&^q | (bs-ones)&^bs) & highs
		if stop != 0 {
			n := bits.TrailingZeros64(stop) / 8
			if n > 0 {
				h = strMix(h, w&(1<<(8*n)-1))
			}
			return k + n, h, true
		}
		h = strMix(h, w)
	}
	for k < len(b) && b[k] >= ' ' && b[k] < 0x7f && b[k] != '"' && b[k] != '\\' {
		k++
	}
	return k, 0, false
}
