package pdn

import (
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// DefaultMaxDepth is the default limit on nested variations.
const DefaultMaxDepth = 100

// maxTagBuf is the capacity of the tag buffer beyond which a game's tags
// are not copied out of it (see Next).
const maxTagBuf = 256

// Reader reads games from PDN text, one at a time. Set the exported
// fields before the first call to Next.
//
// By default the reader is lenient: it reads what real archives contain
// and records each leniency as a Warning on the game. With Strict set it
// follows the PDN 3.0 reading grammar, and any construct outside it makes
// Next return a *GameError (the game is still returned, read leniently).
//
// The games Next returns belong to the caller. To keep allocation low,
// consecutive games share their backing storage in chunks of a few tens
// of KB (moves, squares, nodes, tags), so keeping one game out of many
// keeps its chunks alive; copy what you keep from a filtered stream if
// that matters. With SetArena, games live instead in an Arena that the
// caller recycles batch after batch.
type Reader struct {
	// Strict selects the PDN 3.0 reading grammar. Localised tag names are
	// then kept as written.
	Strict bool
	// Encoding of the input; EncodingAuto (the default) detects it.
	Encoding Encoding
	// MaxTokenSize limits one token (comment, tag value); 0 means
	// DefaultMaxTokenSize.
	MaxTokenSize int
	// MaxDepth limits nested variations; 0 means DefaultMaxDepth.
	MaxDepth int

	s      *Scanner
	peeked bool
	game   int
	// endedBy is the kind of token that ended the last game: TokResult or
	// TokStar (a terminator), TokTagOpen (the next tag section) or TokEOF.
	endedBy TokenKind

	// state of the game being read (see Next)
	g        *Game
	gerr     error
	phase    phase
	cur      []Node // the line being built: the main line or the innermost open variation
	stack    []line // the lines around cur, the main line first
	pending  moveNumber
	maxDepth int
	strs     *strCache
	lineBufs [][]Node       // scratch per depth: [0] the main line, [d] variations at depth d
	tagBuf   []Tag          // scratch for the tags of the game being read
	batch    plainMoveBatch // moves read by plainMovetext, not yet handed on
	// arena is the memory games are carved out of: own, or the Arena of
	// SetArena. A game shares own's chunks with its neighbours, which
	// keeps the allocation count low; they are small (tens of KB) so that
	// a kept game holds little else.
	arena *arena
	own   arena
	// ml, if set, takes the main lines of the games instead of the
	// Reader building them (see mainLine); mls says whether it takes the
	// game being read.
	ml  mainLine
	mls mainLineState

	vis *walker // set by Walk: hand nodes to a Visitor instead of building them
	// tokensOnly turns plainMovetext and plainTag off (tests compare both ways).
	tokensOnly bool

	tagSet     map[string]bool // tag names of tagSetGame, for long headers
	tagSetGame *Game
	known      uint32 // the knownTags of the game being read (bits by tagKey)

	failed       bool // the current game has a lexical error (fail)
	dropped      int  // warnings of the current game past MaxWarnings
	firstDropped Pos  // where the first of them was

	// Bounds of one game (see MaxTags, MaxStrayText).
	tagBytes   int  // bytes of the current game's tag names and values
	strayBytes int  // bytes of its stray text kept as comments
	resumed    bool // the Reader started in the middle of its input (resume)
}

// mainLine is the layer above the syntax that takes the main line of the
// games a Reader reads, element by element, instead of the Reader
// building it: the replay of SetReplayer (stream.go), the evidence of
// InferVariant. The Reader offers it each game at its first main-line
// move or variation (take); a game it takes comes without its main line
// (Moves is nil), and the Reader hands it the moves (move, and plain for
// those plainMovetext read), the other nodes and the variations closed.
type mainLine interface {
	// reset: a game begins.
	reset()
	// take reports whether it takes the main line of g, all of whose tags
	// are read, cur its nodes so far (comments, setup commands).
	take(g *Game, cur []Node) bool
	plain(b *plainMoveBatch, nb, maxSq int)
	move(m *Move, pos Pos)
	node(n *Node)
	variation(nodes []Node)
	// lastMove returns the move that stands for the last one of the main
	// line, if it was handed on by plain (for its strength), else nil.
	lastMove() *Move
	// plies returns the number of main-line moves handed on.
	plies() int
	// finish ends the game g, read to its end.
	finish(g *Game)
}

// mainLineState says whether the Reader's mainLine takes the game being read.
type mainLineState uint8

const (
	mainLineNotBegun mainLineState = iota // no main-line move or variation yet
	mainLineTaken                         // the mainLine takes the game's main line
	mainLineBuilt                         // the Reader builds it
)

// toMainLine reports whether the main-line element about to be added goes
// to the mainLine: the reader is in the main line, and the mainLine takes
// the game (offered here at the first element).
func (r *Reader) toMainLine() bool {
	if len(r.stack) > 0 || r.mls == mainLineBuilt {
		return false
	}
	if r.mls == mainLineTaken {
		return true
	}
	r.mls = mainLineBuilt
	if r.vis == nil && r.ml.take(r.g, r.cur) {
		r.mls = mainLineTaken
	}
	return r.mls == mainLineTaken
}

// MaxTags and MaxTagBytes bound the tag pairs of one game, in number and in
// bytes of names and values: the tags beyond them are dropped, and the game
// has an error (ErrTooManyTags). A game has about ten; 12 MB of tag pairs
// in one game took 26 to 36 times their size in memory.
const (
	MaxTags     = 1000
	MaxTagBytes = 1 << 20
)

// MaxStrayText bounds the stray text (words outside comments that are not
// PDN) kept as comments in one game: the rest is dropped, with a warning.
// Without the bound, the memory of a line of junk grew ten times its size
// (docs/benchmarks.md, measured choices).
const MaxStrayText = 1 << 20

// NewReader returns a Reader that reads from r. It buffers r itself.
func NewReader(r io.Reader) *Reader { return newReader(NewScanner(r)) }

// newReader returns a Reader that reads the tokens of s.
func newReader(s *Scanner) *Reader {
	r := &Reader{s: s}
	r.arena = &r.own
	r.own.keepNone()
	s.Warn = func(w Warning) { r.warn(w.Kind, w.Pos, w.Text) }
	return r
}

// Games returns the number of games returned so far.
func (r *Reader) Games() int { return r.game }

// Offset returns how many input bytes the reader has consumed, for
// progress reports.
func (r *Reader) Offset() int64 { return r.s.base + int64(r.s.i) }

// DetectedEncoding returns the encoding in use (known after the first
// call to Next).
func (r *Reader) DetectedEncoding() Encoding { return r.s.DetectedEncoding() }

func (r *Reader) next() (*Token, error) {
	if r.peeked {
		r.peeked = false
		return &r.s.tok, nil
	}
	return r.s.Next()
}

func (r *Reader) unread() { r.peeked = true }

// MaxWarnings is the number of warnings a Reader keeps for one game.
// The warnings after it are counted in one last warning of kind
// WarnTooMany instead, so that damaged input (a megabyte of '[', each a
// broken tag) cannot take memory out of proportion to its size.
const MaxWarnings = 1000

// warn records a warning on the current game; in strict mode a kind the
// grammar rejects becomes the game's error.
func (r *Reader) warn(k WarningKind, p Pos, text string) {
	w := Warning{Kind: k, Pos: p, Text: text}
	r.record(w)
	if r.Strict && k.Strict() && r.gerr == nil {
		r.gerr = w.err()
	}
}

// note records a warning that is never an error.
func (r *Reader) note(k WarningKind, p Pos, text string) {
	r.record(Warning{Kind: k, Pos: p, Text: text})
}

// text returns the concatenation of parts as the text of a warning, or
// "" when the game has all the warnings it keeps (see MaxWarnings).
func (r *Reader) text(parts ...string) string {
	if len(r.g.Warnings) >= MaxWarnings {
		return ""
	}
	return strings.Join(parts, "")
}

func (r *Reader) record(w Warning) {
	if len(r.g.Warnings) < MaxWarnings {
		r.g.Warnings = append(r.g.Warnings, w)
		return
	}
	if r.dropped == 0 {
		r.firstDropped = w.Pos
	}
	r.dropped++
}

// damaged reports whether the game being read has an error or a warning
// for input that was dropped or altered (not a note, nor a literal \r
// read as a line break). Such a game is returned even when nothing of it
// is left (garbage at the end of the input), so that what was dropped is
// not hidden.
func (r *Reader) damaged() bool {
	if r.failed || r.dropped > 0 {
		return true
	}
	for _, w := range r.g.Warnings {
		if w.Kind.Strict() && w.Kind != WarnLiteralCR {
			return true
		}
	}
	return false
}

func (r *Reader) fail(err error) {
	r.failed = true
	if r.gerr == nil {
		r.gerr = err
	}
}

// str returns b as a string. Short strings (tag names and values, move
// strengths, results) are looked up in a cache first, so that the
// strings a file repeats are allocated once in a while rather than each
// time.
func (r *Reader) str(b []byte) string {
	if len(b) > 32 {
		return string(b)
	}
	return r.strHashed(b, strHash(b))
}

// strHashed is str of b (32 bytes or less), h = strHash(b).
func (r *Reader) strHashed(b []byte, h uint64) string {
	if len(b) > 32 {
		return string(b)
	}
	if r.strs == nil {
		r.strs = new(strCache)
	}
	slot := &r.strs[h>>(64-strCacheBits)]
	if *slot == string(b) {
		return *slot
	}
	s := string(b)
	*slot = s
	return s
}

// strCache is a direct-mapped cache of short strings: slot h>>(64 -
// strCacheBits) holds the last string of hash h (strHash) there.
type strCache [1 << strCacheBits]string

const strCacheBits = 11

// strHash hashes b for strCache: its 8-byte words (little-endian), the
// last one completed with zeros, mixed in turn (strMix).
func strHash(b []byte) uint64 {
	h := uint64(0)
	for ; len(b) >= 8; b = b[8:] {
		h = strMix(h, binary.LittleEndian.Uint64(b))
	}
	if len(b) > 0 {
		w := uint64(0)
		for i, c := range b {
			w |= uint64(c) << (8 * i)
		}
		h = strMix(h, w)
	}
	return h
}

// strMix mixes word w into hash h: the top bits of the result depend on
// every bit of both.
func strMix(h, w uint64) uint64 {
	h = (h ^ w) * 0x9e3779b97f4a7c15 // 2^64 / golden ratio (Knuth's multiplicative hashing)
	return h ^ h>>29
}

// moveText returns the canonical text of a move token, without
// allocating for the common two-square numeric moves.
func (r *Reader) moveText(t *Token) string {
	if sq := t.Squares(); len(sq) == 2 && sq[0]-1 < 99 && sq[1]-1 < 99 && t.sep != 0 {
		return simpleText(int(sq[0]), int(sq[1]), byte(t.sep))
	}
	return r.str(t.Text())
}

// simpleMoves holds the canonical text of every two-square numeric move
// a<sep>b (sep '-', 'x' or ':' as k = 0, 1, 2; 0 < a, b < 100) in a slot
// of simpleSlot bytes at ((k*100+a)*100+b)*simpleSlot. A move's text is
// then a substring found by arithmetic: no table of string headers to
// load (cache misses) or for the GC to scan.
var (
	simpleOnce  sync.Once
	simpleMoves string
)

const simpleSlot = 5 // len("99-99")

func buildSimple() {
	// The digits of 1 to 99 as Square.appendTo writes them, written byte
	// by byte: the table is made at every run of the pdn command, where a
	// call per square cost much of the validation of a tiny file
	// (docs/benchmarks.md, measured choices).
	var digits [100][2]byte
	for a := 1; a < 100; a++ {
		digits[a] = [2]byte{'0' + byte(a/10), '0' + byte(a%10)}
	}
	all := make([]byte, 3*100*100*simpleSlot)
	for k, sep := range []byte{'-', 'x', ':'} {
		for a := 1; a < 100; a++ {
			da := digits[a][:]
			if a < 10 {
				da = da[1:]
			}
			for b := 1; b < 100; b++ {
				off := ((k*100+a)*100 + b) * simpleSlot
				slot := all[off : off+simpleSlot]
				w := copy(slot, da)
				slot[w] = sep
				if b < 10 {
					slot[w+1] = digits[b][1]
				} else {
					slot[w+1], slot[w+2] = digits[b][0], digits[b][1]
				}
			}
		}
	}
	simpleMoves = string(all)
}

// newMove returns a cleared Move. The slabs grow by their length within
// their capacity: reslicing from the front would store a pointer, and so
// a write barrier, per move.
func (r *Reader) newMove() *Move {
	var m *Move
	if s := &r.arena.moves.cur; len(*s) < cap(*s) {
		k := len(*s)
		*s = (*s)[:k+1]
		m = &(*s)[k]
	} else {
		m = &r.arena.moves.take(1, 1024)[0]
	}
	*m = Move{}
	return m
}

// squares returns a copy of sq.
func (r *Reader) squares(sq []Square) []Square {
	if s := &r.arena.sqs.cur; len(sq) == 2 && len(*s)+2 <= cap(*s) {
		// The commonest move, two squares, with room in the slab: take
		// without its call.
		k := len(*s)
		*s = (*s)[:k+2]
		out := (*s)[k : k+2 : k+2]
		out[0], out[1] = sq[0], sq[1]
		return out
	}
	out := r.arena.sqs.take(len(sq), 4096)
	copy(out, sq)
	return out
}

// newGame returns a cleared Game.
func (r *Reader) newGame() *Game {
	g := &r.arena.games.take(1, 64)[0]
	*g = Game{}
	return g
}

// copyNodes returns a copy of the nodes of a variation (nil when empty).
func (r *Reader) copyNodes(nodes []Node) []Node {
	if len(nodes) == 0 {
		return nil
	}
	out := r.arena.vnodes.take(len(nodes), 1024)
	copy(out, nodes)
	return out
}

// copyTags returns a copy of tags (nil when empty).
func (r *Reader) copyTags(tags []Tag) []Tag {
	if len(tags) == 0 {
		return nil
	}
	out := r.arena.tags.take(len(tags), 512)
	copy(out, tags)
	return out
}

// mainSlab returns the slab the main line is built in.
func (r *Reader) mainSlab() *[]Node { return &r.arena.nodes.cur }

// mainLine returns an empty slice to build the main line in: the free
// tail of the node slab, so that the game's nodes need no copy (a long
// game outgrows it, and append moves it to memory of its own). Walk
// builds no movetext and uses a reusable buffer.
func (r *Reader) mainLine() []Node {
	if r.vis != nil {
		return r.lineBuf(0)
	}
	s := r.mainSlab()
	if cap(*s)-len(*s) < mainRoom {
		r.arena.nodes.next(mainRoom, 1024)
	}
	return (*s)[len(*s):len(*s)]
}

// mainRoom is the least room a slab must have left for a main line to be
// built in it: a game of 40 moves a side with a few comments.
const mainRoom = 128

// keepMain returns the main line built from mainLine as the game's nodes
// (nil when empty), and marks its part of the slab as used.
func (r *Reader) keepMain(cur []Node) []Node {
	if len(cur) == 0 {
		return nil
	}
	s := r.mainSlab()
	if k := len(*s); k < cap(*s) && &(*s)[:k+1][k] == &cur[0] {
		*s = (*s)[:k+len(cur)]
	}
	return cur[:len(cur):len(cur)]
}

// lineBuf returns the (empty) scratch buffer for a line at depth d.
func (r *Reader) lineBuf(d int) []Node {
	for len(r.lineBufs) <= d {
		r.lineBufs = append(r.lineBufs, nil)
	}
	return r.lineBufs[d][:0]
}

// line is one open level of movetext: the main line or a variation.
type line struct {
	nodes []Node
	pos   Pos
}

// phase is where in its game the Reader is.
type phase uint8

const (
	// beforeGame: nothing of the game seen yet (stray tokens may have
	// been dropped).
	beforeGame phase = iota
	// inHeader: the game has started, with a tag or with dropped input,
	// and no movetext yet.
	inHeader
	// inMovetext: a token of movetext was read. A tag section now starts
	// the next game.
	inMovetext
)

// moveNumber is a move number waiting for its move.
type moveNumber struct {
	set  bool
	num  int
	cont bool // written "N..."
	pos  Pos
}

// Next reads the next game. It returns io.EOF when there are no more
// games. A game that breaks the grammar (in strict mode) or was damaged
// (a lexical error: an unterminated string or comment, a token too long,
// variations too deep; see "Damaged input" in the package documentation)
// is returned together with a *GameError, with the game's number and the
// position; the reader has then already moved on to the next game, so
// the caller may keep calling Next, but must not drop the error
// silently: the game is not what the input meant. Other errors come
// from the underlying reader and end the stream (the game is nil).
//
// Next is a state machine over tokens. The state of the game being read
// is its phase (before it, in its tag section, in its movetext), the line
// being built (cur) inside the open variations (stack), and a move number
// waiting for its move (pending). Each kind of token has its method; the
// game ends at a terminator, at a tag section after movetext, or at the
// end of the input, and finish returns it.
func (r *Reader) Next() (*Game, error) {
	r.begin()
	for {
		t, err := r.next()
		if err != nil {
			return nil, err
		}
		switch t.Kind {
		case TokMove, TokEllipsis:
			r.move(t)
			r.plainMovetext()
		case TokMoveNumber:
			r.moveNumber(t)
			r.plainMovetext()
		case TokStar, TokResult:
			end, err := r.terminator(t)
			if err != nil {
				return nil, err
			}
			if end != nil {
				return r.endAtTerminator(end)
			}
		case TokTagOpen:
			if r.phase == inMovetext {
				return r.endAtTagSection(t)
			}
			r.start(t.Pos)
			if r.plainTag(r.g, t.Pos) {
				r.plainTags(r.g)
			} else {
				r.readTag(r.g, t.Pos)
			}
		case TokEOF:
			return r.endAtEOF(t)
		case TokStrength:
			r.strength(t)
		case TokNAG:
			r.bodyToken(t.Pos)
			r.add(Node{Kind: NAGNode, NAG: int32(t.num), Pos: t.Pos})
		case TokComment, TokLineComment:
			r.comment(t)
		case TokSetup:
			r.bodyToken(t.Pos)
			r.add(Node{Kind: SetupNode, Text: string(t.Text()), Pos: t.Pos})
		case TokLParen:
			r.openVariation(t)
		case TokRParen:
			r.closeVariation(t)
		case TokUnknown:
			r.unknown(t)
		case TokTagClose, TokString, TokTagName:
			r.warn(WarnStrayToken, t.Pos, string(t.Raw()))
			if t.Err != nil {
				r.fail(t.Err)
			}
		case TokError:
			r.start(t.Pos)
			r.fail(t.Err)
		}
	}
}

// begin sets the Reader up for a new game.
func (r *Reader) begin() {
	if r.s == nil {
		panic("pdn: Reader not created by NewReader")
	}
	r.s.Encoding, r.s.MaxTokenSize = r.Encoding, r.MaxTokenSize
	r.maxDepth = r.MaxDepth
	if r.maxDepth <= 0 {
		r.maxDepth = DefaultMaxDepth
	}
	g := r.newGame()
	r.g = g
	r.gerr, r.failed = nil, false
	r.dropped = 0
	r.tagBytes, r.strayBytes = 0, 0
	if r.ml != nil {
		r.ml.reset()
		r.mls = mainLineNotBegun
	}
	r.tagSetGame = nil
	r.known = 0
	// The tags are gathered in r.tagBuf and copied out by finish.
	g.Tags = r.tagBuf[:0]
	r.phase = beforeGame
	r.pending = moveNumber{}
	r.stack = r.stack[:0]
	r.cur = r.mainLine()
}

// start starts the game at p, unless it has started.
func (r *Reader) start(p Pos) {
	if r.phase == beforeGame {
		r.phase = inHeader
		r.g.Pos = p
	}
}

// enterMovetext starts the game's movetext at p, unless it has started.
func (r *Reader) enterMovetext(p Pos) {
	r.start(p)
	r.phase = inMovetext
}

// bodyToken enters the movetext for a token at p that is not a move nor
// a comment: a move number before it has no move, and is dropped.
func (r *Reader) bodyToken(p Pos) {
	r.enterMovetext(p)
	if r.pending.set {
		r.warn(WarnMoveNumber, r.pending.pos, "move number not followed by a move")
		r.pending.set = false
	}
}

// hasContent reports whether the game has anything worth returning.
func (r *Reader) hasContent() bool {
	return len(r.g.Tags) > 0 || len(r.cur) > 0 || len(r.stack) > 0 || r.pending.set || (r.vis != nil && r.vis.nodes > 0) ||
		r.mls == mainLineTaken && r.ml.plies() > 0
}

// lastMove returns the move that ends the current line, if it ends with one.
func (r *Reader) lastMove() *Move {
	if r.mls == mainLineTaken && len(r.stack) == 0 {
		if m := r.ml.lastMove(); m != nil {
			return m
		}
	}
	if n := len(r.cur); n > 0 && r.cur[n-1].Kind == MoveNode {
		return r.cur[n-1].Move
	}
	return nil
}

func (r *Reader) moveNumber(t *Token) {
	r.bodyToken(t.Pos)
	r.pending = moveNumber{set: true, num: t.num, cont: t.cont, pos: t.Pos}
}

// move adds a move (or a "..." standing for one) with its pending number.
func (r *Reader) move(t *Token) {
	r.enterMovetext(t.Pos)
	var m *Move
	if r.vis != nil {
		m = r.vis.nextMove()
	} else {
		m = r.newMove()
	}
	if r.pending.set {
		r.numberMove(m)
	}
	if t.Kind == TokMove {
		m.Text = r.moveText(t)
		if r.vis != nil {
			m.Squares = append(m.Squares, t.Squares()...)
		} else {
			m.Squares = r.squares(t.Squares())
		}
		m.Sep = t.sep
	} else {
		m.Text = "..."
	}
	r.addMove(m, t.Pos)
}

// numberMove gives m the pending move number.
func (r *Reader) numberMove(m *Move) {
	cont := r.pending.cont
	num := r.takeNumber()
	m.Number, m.Continuation = num, cont && num > 0
}

// takeNumber returns the pending move number, taken by a move.
func (r *Reader) takeNumber() int {
	// Number 0 means "no number": "0." is dropped.
	num := r.pending.num
	r.pending.set = false
	if num == 0 {
		r.warn(WarnMoveNumber, r.pending.pos, "move number 0 dropped")
	}
	return num
}

// addMove is add for a move node: the commonest node, stored without
// building a Node first.
func (r *Reader) addMove(m *Move, pos Pos) {
	if r.ml != nil && r.toMainLine() {
		r.ml.move(m, pos)
	}
	if k := len(r.cur); k < cap(r.cur) && r.vis == nil {
		r.cur = r.cur[:k+1]
		setMoveNode(&r.cur[k], m, pos)
		return
	}
	r.add(Node{Kind: MoveNode, Move: m, Pos: pos})
}

// setMoveNode stores a move node in *p, a node of the arena that may hold
// what an earlier game left there (setNode for a move node, written only
// where it changes).
func setMoveNode(p *Node, m *Move, pos Pos) {
	p.Kind, p.NAG, p.Pos, p.Move = MoveNode, 0, pos, m
	if p.Text != "" {
		p.Text = ""
	}
	if p.Variation != nil {
		p.Variation = nil
	}
}

// strength sets the strength of the move before it.
func (r *Reader) strength(t *Token) {
	m := r.lastMove()
	if m == nil || m.Strength != "" {
		r.bodyToken(t.Pos)
		r.warn(WarnStrength, t.Pos, "move strength "+string(t.Text())+" not after a move")
		return
	}
	m.Strength = r.str(t.Text())
}

// comment adds a {comment} or a ;comment. A comment between a move
// number and its move keeps the number.
func (r *Reader) comment(t *Token) {
	if t.Kind == TokLineComment {
		r.warn(WarnLineComment, t.Pos, "")
	}
	r.enterMovetext(t.Pos)
	txt := string(t.Text())
	if t.Kind == TokLineComment && strings.IndexByte(txt, '}') >= 0 {
		txt = strings.ReplaceAll(txt, "}", "")
	}
	r.add(Node{Kind: CommentNode, Text: txt, Pos: t.Pos})
	if t.Err != nil {
		r.fail(t.Err) // cut short (see Scanner.scanComment)
	}
	if r.pending.set {
		r.warn(WarnMoveNumber, t.Pos, "comment between move number and move")
	}
}

// openVariation opens a variation: the current line goes on the stack.
func (r *Reader) openVariation(t *Token) {
	r.bodyToken(t.Pos)
	if len(r.stack) >= r.maxDepth {
		r.fail(&SyntaxError{Pos: t.Pos, Err: ErrTooDeep})
		r.skipVariation()
		return
	}
	if r.vis != nil {
		r.vis.flush(r, r.cur)
		r.cur = r.cur[:0]
		r.vis.beginVariation(r, len(r.stack)+1)
	}
	r.stack = append(r.stack, line{nodes: r.cur, pos: t.Pos})
	if r.vis != nil {
		r.cur = nil
	} else {
		r.cur = r.lineBuf(len(r.stack))
	}
}

func (r *Reader) closeVariation(t *Token) {
	r.bodyToken(t.Pos)
	if len(r.stack) == 0 {
		r.warn(WarnUnbalanced, t.Pos, "')' without '('")
		return
	}
	r.pop()
}

// unknown handles a run of characters that is no token: dashes stand for
// a move that is not given, text with letters is kept as a comment, and
// anything else is dropped.
func (r *Reader) unknown(t *Token) {
	txt := string(t.Text())
	switch {
	case strings.Trim(txt, "-") == "":
		r.pending.set = false
		r.bodyToken(t.Pos)
		r.warn(WarnUnknownMove, t.Pos, txt)
	case hasLetter(txt):
		r.bodyToken(t.Pos)
		if r.strayBytes += len(txt); r.strayBytes > MaxStrayText {
			if r.strayBytes-len(txt) <= MaxStrayText {
				// Kept even past MaxWarnings: it says what was lost.
				w := Warning{Kind: WarnStrayText, Pos: t.Pos, Text: "more than " + byteSize(MaxStrayText) + " of stray text in one game: the rest is dropped"}
				r.g.Warnings = append(r.g.Warnings, w)
				if r.Strict && r.gerr == nil {
					r.gerr = w.err()
				}
			}
			return
		}
		r.warn(WarnStrayText, t.Pos, txt)
		r.add(Node{Kind: CommentNode, Text: txt, Pos: t.Pos})
	default:
		r.warn(WarnStrayToken, t.Pos, txt)
	}
}

// terminator returns the token that ends the game at t, a '*' or a
// result, or nil when t is a '*' that is read as a move strength.
func (r *Reader) terminator(t *Token) (*Token, error) {
	if t.Kind != TokStar || !t.Glued {
		return t, nil
	}
	m := r.lastMove()
	if m == nil || m.Strength != "" {
		return t, nil
	}
	// PDN 2.0 "star move": '*' glued to a move and more movetext on the
	// same line.
	p := t.Pos
	nt, err := r.next()
	if err != nil {
		return nil, err
	}
	r.unread()
	if nt.Pos.Line == p.Line && continuesBody(nt.Kind) {
		r.warn(WarnStrength, p, "'*' glued to a move read as a move strength")
		m.Strength = "*"
		return nil, nil
	}
	return &Token{Kind: TokStar, Pos: p, ext: []byte{'*'}}, nil
}

// endAtTerminator ends the game at its terminator t.
func (r *Reader) endAtTerminator(t *Token) (*Game, error) {
	if !r.hasContent() {
		r.start(t.Pos)
		r.warn(WarnEmptyGame, t.Pos, "")
	}
	return r.finish(t.Kind, r.str(t.Text()), t.Pos)
}

// endAtTagSection ends the game without a terminator, before the tag
// section that starts at t (the next game's).
func (r *Reader) endAtTagSection(t *Token) (*Game, error) {
	r.unread()
	if r.pending.set {
		r.warn(WarnMoveNumber, r.pending.pos, "move number at end of game")
		r.pending.set = false
	}
	r.warn(WarnMissingTerminator, t.Pos, "tag section starts before the game ended")
	return r.finish(TokTagOpen, "*", t.Pos)
}

// endAtEOF ends the game at the end of the input, or returns io.EOF when
// there is nothing to return.
func (r *Reader) endAtEOF(t *Token) (*Game, error) {
	if !r.hasContent() {
		if !r.damaged() {
			return nil, io.EOF
		}
		r.warn(WarnEmptyGame, t.Pos, "nothing but dropped input after the last game")
	}
	if r.game == 0 && !r.resumed && len(r.g.Tags) == 0 && !r.hasMove() {
		// The whole input is one "game" of stray text and comments.
		p := r.g.Pos
		r.finish(TokEOF, "*", t.Pos)
		r.game = 0
		return nil, &SyntaxError{Pos: p, Err: ErrNotPDN}
	}
	if r.phase == inMovetext {
		r.note(WarnNoTerminatorAtEnd, t.Pos, "")
	}
	if r.truncated(t.Pos) {
		r.fail(&SyntaxError{Pos: t.Pos, Err: ErrTruncated})
	}
	return r.finish(TokEOF, "*", t.Pos)
}

// hasMove reports whether the game being read has a move (Walk: a node).
// It is for the end of the input only: it looks at every node read. (A
// flag set where moves are read would move the lines of the hot functions,
// which cmd/pdn's profile-guided build finds by line.)
func (r *Reader) hasMove() bool {
	if r.vis != nil && r.vis.nodes > 0 || r.mls == mainLineTaken && r.ml.plies() > 0 {
		return true
	}
	var has func(ns []Node) bool
	has = func(ns []Node) bool {
		for i := range ns {
			if ns[i].Kind == MoveNode || ns[i].Kind == VariationNode && has(ns[i].Variation) {
				return true
			}
		}
		return false
	}
	if has(r.cur) {
		return true
	}
	for _, l := range r.stack {
		if has(l.nodes) {
			return true
		}
	}
	return false
}

// truncated reports whether the game, not terminated, was cut by the end
// of the input at end: the input does not end with a line break, and the
// game ends in its tag section, after a move number, in a variation or
// with a token that is not a move ("23-", "[Eve"). (A last game that ends
// with a move and no line break is read whole: a published conformance
// file, wiegerw/pdn's unicode.pdn, is one.)
func (r *Reader) truncated(end Pos) bool {
	if r.phase == beforeGame || r.s.endsWithBreak() {
		return false
	}
	if r.phase == inHeader || r.pending.set || len(r.stack) > 0 {
		return true
	}
	if n := len(r.g.Warnings); n > 0 {
		w := r.g.Warnings[n-1]
		switch w.Kind {
		case WarnStrayToken, WarnUnknownMove, WarnMoveSyntax, WarnTagSyntax:
			return w.Pos.Offset+int64(len(w.Text)) >= end.Offset
		}
	}
	return false
}

// finish ends the game with result at p, the position of the token of
// kind endedBy that ended it, and returns it with its error.
func (r *Reader) finish(endedBy TokenKind, result string, p Pos) (*Game, error) {
	r.endedBy = endedBy
	g := r.g
	if r.pending.set {
		r.warn(WarnMoveNumber, r.pending.pos, "move number at end of game")
	}
	for len(r.stack) > 0 {
		r.warn(WarnUnbalanced, p, "variation not closed")
		r.pop()
	}
	if m := r.lastMove(); m != nil && m.Strength == "*" {
		// A '*' mark needs movetext after it on its line; at the end
		// of the game it cannot be written back, so it goes.
		m.Strength = ""
	}
	streamed := r.mls == mainLineTaken
	switch {
	case r.vis != nil:
		// Keep the one-node buffer for the next game's main line.
		r.vis.flush(r, r.cur)
		clear(r.cur)
		r.lineBufs[0] = r.cur[:0]
	case !streamed: // (a main line replayed while read is not kept)
		g.Moves = r.keepMain(r.cur)
	}
	r.cur = nil
	tags := g.Tags
	switch {
	case cap(tags) > maxTagBuf && r.arena == &r.own:
		// A huge header keeps the buffer rather than a copy.
		g.Tags, r.tagBuf = tags[:len(tags):len(tags)], nil
	default:
		g.Tags = r.copyTags(tags)
		clear(tags)
		r.tagBuf = tags[:0]
		if cap(tags) > maxTagBuf {
			r.tagBuf = nil
		}
	}
	g.Result = result
	if tr, ok := g.Tag("Result"); ok && result != "*" && IsResult(strings.TrimSpace(tr)) && strings.TrimSpace(tr) != result {
		r.note(WarnResultMismatch, p, "terminator "+result+", Result tag "+tr)
	}
	if r.dropped > 0 {
		g.Warnings = append(g.Warnings, Warning{Kind: WarnTooMany, Pos: r.firstDropped,
			Text: strconv.Itoa(r.dropped) + " more warnings from here on not recorded"})
	}
	if streamed {
		r.ml.finish(g)
	}
	r.game++
	if r.gerr != nil {
		ge := &GameError{Game: r.game, Err: r.gerr}
		if se, ok := r.gerr.(*SyntaxError); ok {
			ge.Pos = se.Pos
		}
		return g, ge
	}
	return g, nil
}

// continuesBody reports whether a token of kind k can continue movetext.
func continuesBody(k TokenKind) bool {
	switch k {
	case TokMoveNumber, TokMove, TokEllipsis, TokComment, TokNAG, TokLParen, TokRParen, TokSetup:
		return true
	}
	return false
}

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if isLetter(s[i]) || s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// skipVariation skips tokens up to the ')' that closes a variation that
// is nested too deep.
func (r *Reader) skipVariation() {
	depth := 1
	for depth > 0 {
		t, err := r.next()
		if err != nil || t.Kind == TokEOF {
			r.unread()
			return
		}
		switch t.Kind {
		case TokLParen:
			depth++
		case TokRParen:
			depth--
		case TokStar, TokResult, TokTagOpen:
			r.unread()
			return
		}
	}
}

// readTag reads a tag pair after its '['.
func (r *Reader) readTag(g *Game, p Pos) {
	t, _ := r.next()
	var value string
	var rawName string
	hasName, hasValue := false, false
	if t.Kind == TokTagName {
		rawName = r.str(t.Text())
		hasName = rawName != ""
		t, _ = r.next()
	}
	if t.Kind == TokString {
		if t.Err != nil {
			r.fail(t.Err) // cut at the end of its line (see Scanner.scanString)
		}
		value = r.str(t.Text())
		hasValue = true
		t, _ = r.next()
	}
	if t.Kind != TokTagClose {
		r.warn(WarnTagSyntax, t.Pos, r.text("missing ']' in tag ", rawName))
		r.unread()
	}
	if !hasName || !hasValue {
		r.warn(WarnTagSyntax, p, r.text("tag ", strings.TrimSpace(rawName+" "+value), " without name or value dropped"))
		return
	}
	r.tag(g, p, rawName, value, 0)
}

// tagKey numbers the commonest tag names (knownTags), 0 for others.
type tagKey uint8

const (
	tagGameType tagKey = 8
	tagFEN      tagKey = 9
)

// knownTags are the commonest tag names, by tagKey: the seven archival
// tags first (reference/PDN-SPEC.md), then those the corpus holds most of.
var knownTags = [...]string{1: "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "FEN",
	"SetUp", "Setup", "PlyCount", "TimeControl", "Annotator", "WhiteTime", "BlackTime"}

// knownTag returns the name and key of tag name b when it is one of
// knownTags, else "" and 0.
func knownTag(b []byte) (string, tagKey) {
	var k tagKey
	switch string(b) {
	case "Event":
		k = 1
	case "Site":
		k = 2
	case "Date":
		k = 3
	case "Round":
		k = 4
	case "White":
		k = 5
	case "Black":
		k = 6
	case "Result":
		k = 7
	case "GameType":
		k = tagGameType
	case "FEN":
		k = tagFEN
	case "SetUp":
		k = 10
	case "Setup":
		k = 11
	case "PlyCount":
		k = 12
	case "TimeControl":
		k = 13
	case "Annotator":
		k = 14
	case "WhiteTime":
		k = 15
	case "BlackTime":
		k = 16
	default:
		return "", 0
	}
	return knownTags[k], k
}

// tag adds the tag pair name (as written, not empty) and value at p to g,
// with the warnings it calls for. key is the name's tagKey when known
// (the name is then an identifier, not localised), else 0.
func (r *Reader) tag(g *Game, p Pos, rawName, value string, key tagKey) {
	name := rawName
	if key == 0 {
		if !isIdent(name) {
			fixed := repairTagName(name)
			r.warn(WarnTagName, p, name+" read as "+fixed)
			name = r.str([]byte(fixed))
		} else if !r.Strict && mayBeLocalized(name) {
			if std, ok := localizedTags[name]; ok {
				r.note(WarnLocalizedTag, p, name+" read as "+std)
				name = std
			}
		}
		_, key = knownTag([]byte(name))
	}
	// A duplicate: known names are marked in r.known, others looked for.
	if key != 0 {
		if r.known&(1<<key) != 0 {
			r.note(WarnDuplicateTag, p, name)
		}
		r.known |= 1 << key
	} else if r.hasTag(g, name) {
		r.note(WarnDuplicateTag, p, name)
	}
	if len(g.Tags) >= MaxTags || len(name)+len(value) > MaxTagBytes-r.tagBytes {
		if r.tagBytes <= MaxTagBytes {
			r.tagBytes = MaxTagBytes + 1 // (one error)
			r.fail(&SyntaxError{Pos: p, Err: fmt.Errorf("%w: more than %d tag pairs, or %s of them, in one game: the rest of its tags are dropped",
				ErrTooManyTags, MaxTags, byteSize(MaxTagBytes))})
		}
		return
	}
	r.tagBytes += len(name) + len(value)
	g.Tags = append(g.Tags, Tag{Name: name, Value: value, Pos: p})
	switch key {
	case tagGameType:
		if msg := checkGameType(value); msg != "" {
			r.warn(WarnTagValue, p, msg)
		}
	case tagFEN:
		if strings.TrimSpace(value) == "" {
			r.warn(WarnTagValue, p, "empty FEN tag")
		}
	}
	if r.vis != nil {
		r.vis.tag(r, name, value)
	}
}

// add appends n to the current line. When walking, the line holds only
// the last node, which can still get a move strength; the one before goes
// to the visitor.
func (r *Reader) add(n Node) {
	cur := r.cur
	if r.mls == mainLineTaken && len(r.stack) == 0 {
		r.ml.node(&n)
	}
	if r.vis == nil {
		if k := len(cur); k < cap(cur) {
			cur = cur[:k+1]
			setNode(&cur[k], &n)
			r.cur = cur
			return
		}
		r.cur = append(cur, n)
		return
	}
	r.vis.flush(r, cur)
	r.cur = append(cur[:0], n)
}

// setNode stores n in *p field by field. A struct copy goes through the
// runtime's bulk write barrier while the GC marks, for every pointer field,
// where most of them are nil in n and in *p (fresh or cleared memory).
func setNode(p, n *Node) {
	p.Kind, p.NAG, p.Pos = n.Kind, n.NAG, n.Pos
	if n.Move != nil || p.Move != nil {
		p.Move = n.Move
	}
	if n.Text != "" || p.Text != "" {
		p.Text = n.Text
	}
	if n.Variation != nil || p.Variation != nil {
		p.Variation = n.Variation
	}
}

// pop closes the innermost variation: cur becomes the line around it,
// with the variation added.
func (r *Reader) pop() {
	k := len(r.stack) - 1
	top := r.stack[k]
	r.stack[k] = line{}
	r.stack = r.stack[:k]
	cur := r.cur
	if r.vis != nil {
		r.vis.flush(r, cur)
		r.vis.endVariation(r, k+1)
		r.cur = cur[:0]
		return
	}
	vn := r.copyNodes(cur)
	clear(cur)
	r.lineBufs[k+1] = cur[:0]
	r.cur = top.nodes
	if k == 0 && r.ml != nil && r.toMainLine() {
		r.ml.variation(vn)
	}
	r.cur = append(r.cur, Node{Kind: VariationNode, Variation: vn, Pos: top.pos})
}

// hasTag reports whether g already has a tag called name; a map takes
// over from the linear search for long headers.
func (r *Reader) hasTag(g *Game, name string) bool {
	if len(g.Tags) < 16 {
		_, ok := g.Tag(name)
		return ok
	}
	if r.tagSet == nil || r.tagSetGame != g {
		r.tagSet = make(map[string]bool, 2*len(g.Tags))
		r.tagSetGame = g
		for _, t := range g.Tags {
			r.tagSet[t.Name] = true
		}
	}
	ok := r.tagSet[name]
	r.tagSet[name] = true
	return ok
}
