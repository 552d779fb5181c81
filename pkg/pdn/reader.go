package pdn

import (
	"io"
	"strings"
)

// DefaultMaxDepth is the default limit on nested variations.
const DefaultMaxDepth = 100

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

	// The input: its tokens, one of them read ahead (peeked).
	s       *Scanner
	peeked  bool
	resumed bool // the Reader started in the middle of its input (resume)
	game    int  // games returned
	// endedBy is the kind of token that ended the last game: TokResult or
	// TokStar (a terminator), TokTagOpen (the next tag section) or TokEOF.
	endedBy TokenKind

	// The game being read (see Next).
	g            *Game
	gerr         error
	failed       bool // it has a lexical error (fail)
	dropped      int  // its warnings past MaxWarnings
	firstDropped Pos  // where the first of them was
	phase        phase
	cur          []Node // the line being built: the main line or the innermost open variation
	stack        []line // the lines around cur, the main line first
	pending      moveNumber
	maxDepth     int
	known        uint32          // its knownTags (bits by tagKey)
	tagSet       map[string]bool // tag names of tagSetGame, for long headers
	tagSetGame   *Game
	tagBytes     int // bytes of its tag names and values (MaxTagBytes)
	strayBytes   int // bytes of its stray text kept as comments (MaxStrayText)

	// The memory games are built in. arena is own, or the Arena of
	// SetArena. A game shares own's chunks with its neighbours, which
	// keeps the allocation count low; they are small (tens of KB) so that
	// a kept game holds little else.
	arena    *arena
	own      arena
	strs     *strCache
	lineBufs [][]Node       // scratch per depth: [0] the main line, [d] variations at depth d
	tagBuf   []Tag          // scratch for the tags of the game being read
	batch    plainMoveBatch // moves read by plainMovetext, not yet handed on

	// The layers above. ml, if set, takes the main lines of the games
	// instead of the Reader building them (see mainLine); mls says
	// whether it takes the game being read. vis is set by Walk: the
	// Reader hands nodes to a Visitor instead of building them.
	ml  mainLine
	mls mainLineState
	vis *walker

	// tokensOnly turns plainMovetext and plainTag off (tests compare both ways).
	tokensOnly bool
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

// len("99-99")

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
	r.cur = r.mainBuf()
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
