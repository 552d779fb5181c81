package pdn

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/rafle/rafle/pkg/engine"
)

// This file gathers what the games of an input say about the variant of
// those without a GameType tag: their largest squares and first moves;
// evidence.decide (variant.go) infers the variant from it.

// Inference is the variant of the games of one input that have no GameType
// tag, inferred from the whole input by InferVariant (or from one game by
// a Replayer that has no inference for its input).
type Inference struct {
	// Variant is the inferred variant; nil when every game of the input
	// has a GameType tag.
	Variant *engine.Variant
	// Reason says what the variant was inferred from, e.g. "square
	// numbers up to 50".
	Reason string
	// Games is the number of games without a GameType tag.
	Games int
	// tags says the variant is the GameType tags' of the other games: a
	// game whose own first move says otherwise is inferred alone (see
	// Replayer.variant).
	tags bool
}

// String returns "english, inferred from square numbers up to 32",
// "nothing to infer" when no game lacks a GameType tag, or "no variant
// (REASON)" when no variant's board holds their squares.
func (inf *Inference) String() string {
	if inf == nil || inf.Variant == nil && inf.Games == 0 {
		return "nothing to infer"
	}
	if inf.Variant == nil {
		return "no variant (" + inf.Reason + "): each game is inferred alone"
	}
	return inf.Variant.Name + ", inferred from " + inf.Reason
}

// InferVariant reads a whole input, PDN or JSON lines as NewGameReader
// reads them (gzip undone), and infers the variant of its games that have
// no GameType tag. The evidence is the input's, not one game's, so that a
// short game whose squares fit several boards gets the variant of its
// file. The variants are the engine's registered ones that have a PDN
// GameType:
//
//  1. when every game with a GameType tag names the same variant and the
//     squares of the games without one fit its board, that variant;
//  2. else the common variant (the first registered) of the smallest board
//     that the largest square of the games without a GameType tag fits (in
//     the main line, variations, FEN tags); none when no board holds it
//     (Variant nil, Games above 0, Reason says why: the Replayer then
//     infers each game alone, and a game no board holds is an
//     ErrNoVariant error); with
//     algebraic squares, the board's first variant written so, if any.
//     For the built-in variants: numbers above 50 or algebraic squares
//     beyond j10: canadian; above 32 or beyond h8: international; other
//     algebraic squares: russian; numbers up to 32: english;
//  3. for square numbers alone, the next larger board's common variant
//     instead when more of the games that start from the start position
//     open with a move legal there than with one legal in the first
//     (international against english for numbers up to 32).
//
// A game without a GameType tag whose input was inferred from the other
// games' tags (rule 1) is replayed with the variant of its own squares and
// first move when that first move is not one of the tags' board and is one
// of its own (Replayer.Variant).
//
// Replayer.Inferred takes the result. PDN input is scanned byte by byte,
// without building games or tokens: about five times as fast as reading
// it (BenchmarkInferVariant, BenchmarkRead). InferVariant returns
// ctx.Err() when ctx is done, and the errors NewGameReader and Next return
// for input that cannot be read.
func InferVariant(ctx context.Context, r io.Reader, opt ReaderOptions) (*Inference, error) {
	inf, _, err := inferVariant(ctx, r, opt, -1)
	return inf, err
}

// InferVariantPrefix is InferVariant on about the first n bytes of the
// input's text (of the input itself for JSON lines): a guess, for a caller
// that cannot wait for the whole input and can check the guess later
// against an Evidence of all its games. whole reports that the bytes read
// were the whole input, so that inf is InferVariant's.
func InferVariantPrefix(ctx context.Context, r io.Reader, opt ReaderOptions, n int64) (inf *Inference, whole bool, err error) {
	return inferVariant(ctx, r, opt, max(n, 0))
}

// inferVariant is InferVariant reading at most about limit bytes (all of
// them when limit < 0); whole reports that it read the whole input.
func inferVariant(ctx context.Context, r io.Reader, opt ReaderOptions, limit int64) (*Inference, bool, error) {
	cr := &countReader{r: r}
	br, isJSON, err := OpenInput(cr)
	if err != nil {
		return nil, false, err
	}
	var e evidence
	if isJSON {
		jr := NewJSONReader(br)
		for n := 0; ; n++ {
			if limit >= 0 && cr.n >= limit {
				return e.decide(), false, nil
			}
			if n%64 == 0 { // look at ctx every 64 games
				if err := ctx.Err(); err != nil {
					return nil, false, err
				}
			}
			g, err := jr.Next()
			if err == io.EOF {
				break
			}
			if err != nil && !isGameError(err) {
				return nil, false, err
			}
			e.game(g)
		}
		return e.decide(), true, nil
	}
	s := &inferScan{e: &e, strict: opt.Strict}
	buf := make([]byte, 64<<10)
	if limit >= 0 && limit < int64(len(buf)) {
		buf = buf[:max(limit, 1)]
	}
	first := true
	for read := int64(0); ; {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		if limit >= 0 && read >= limit {
			s.end()
			return e.decide(), false, nil
		}
		n, err := io.ReadFull(br, buf)
		read += int64(n)
		data := buf[:n]
		if first && bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) {
			data = data[3:]
		}
		first = false
		s.scan(data)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	s.end()
	return e.decide(), true, nil
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Evidence gathers, game by game, what the games of one input say about
// the variant of those without a GameType tag: Infer then comes to the
// inference InferVariant makes of an input of these games (InferVariant
// scans the text instead of reading games; the tests check that both
// agree on the corpus). The zero value holds no game.
type Evidence struct{ e evidence }

// Add adds the evidence of g, a game as the Reader returns it (with or
// without an error).
func (e *Evidence) Add(g *Game) { e.e.game(g) }

// Merge adds the evidence of o's games (none if o is nil) to e's.
func (e *Evidence) Merge(o *Evidence) {
	if o == nil {
		return
	}
	a, b := &e.e, &o.e
	if b.tagged != nil {
		if a.tagged == nil {
			a.tagged = b.tagged
		} else if a.tagged != b.tagged {
			a.disagree = true
		}
	}
	a.disagree = a.disagree || b.disagree
	a.untagged += b.untagged
	a.maxNum, a.maxFile, a.maxRank = max(a.maxNum, b.maxNum), max(a.maxFile, b.maxFile), max(a.maxRank, b.maxRank)
	if b.openings != nil {
		if a.openings == nil {
			a.openings = make([]int, len(b.openings))
		}
		for i, n := range b.openings {
			a.openings[i] += n
		}
	}
}

// Infer returns the inference from the games added.
func (e *Evidence) Infer() *Inference { return e.e.decide() }

// Same reports whether a Replayer replays games alike with inference a
// as with b, as Replayer.Inferred: both have no variant (nil counts as
// none), or the same variant, inferred for the same reason.
func (a *Inference) Same(b *Inference) bool {
	if a == nil || a.Variant == nil || b == nil || b.Variant == nil {
		return (a == nil || a.Variant == nil) == (b == nil || b.Variant == nil) &&
			(a == nil || a.Variant != nil || b == nil || b.Variant != nil || a.Reason == b.Reason)
	}
	return a.Variant == b.Variant && a.Reason == b.Reason
}

// evidence is what an input says about the variant of its games without a
// GameType tag.
type evidence struct {
	untagged int
	// tagged is the variant of the GameType tags while they agree;
	// disagree is set when two name different variants.
	tagged   *engine.Variant
	disagree bool
	// The largest square of the games without a GameType tag: number,
	// and algebraic file (1 for a) and rank.
	maxNum, maxFile, maxRank int
	// openings counts, for each of boards(), the games without a GameType
	// tag that start from the start position and whose first move is legal
	// in the board's variant.
	openings []int
}

// gameEvidence is the evidence of one game.
type gameEvidence struct {
	gameType                 string
	custom                   bool // FEN tag or setup command: not the start position
	maxNum, maxFile, maxRank int
	from, to                 int  // the first main-line move, numeric squares (0: none)
	moved                    bool // the first main-line move was seen
}

// square notes a square of the game.
func (g *gameEvidence) square(s Square) {
	if s.IsAlgebraic() {
		g.maxFile = max(g.maxFile, int(s.File()-'a'+1))
		g.maxRank = max(g.maxRank, s.Rank())
		return
	}
	g.maxNum = max(g.maxNum, s.Num())
}

// fen notes the squares of a FEN tag or setup command.
func (g *gameEvidence) fen(fen string) {
	if strings.TrimSpace(fen) == "" {
		return
	}
	g.custom = true
	fields := strings.Split(fen, ":")
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" || (f[0]|0x20 != 'w' && f[0]|0x20 != 'b') {
			continue // H0, F1: clocks
		}
		for _, item := range strings.Split(f[1:], ",") {
			item = strings.TrimLeft(strings.TrimSpace(item), "Kk")
			if item == "" {
				continue
			}
			if c := item[0] | 0x20; c >= 'a' && c <= 'z' {
				if r, err := strconv.Atoi(strings.TrimRight(item[1:], ".")); err == nil && r > 0 && r < 100 && c != 'x' {
					g.square(AlgSquare(c, r))
				}
				continue
			}
			for _, part := range strings.Split(strings.TrimRight(item, "."), "-") {
				if n, err := strconv.Atoi(strings.TrimLeft(part, "Kk")); err == nil && n > 0 && n <= MaxSquareNumber {
					g.square(NumSquare(n))
				}
			}
		}
	}
}

// move notes a move of the game; main says it is in the main line.
func (g *gameEvidence) move(sq []Square, main bool) {
	for _, s := range sq {
		g.square(s)
	}
	if main && !g.moved {
		g.moved = true
		if len(sq) >= 2 && !sq[0].IsAlgebraic() && !sq[len(sq)-1].IsAlgebraic() {
			g.from, g.to = sq[0].Num(), sq[len(sq)-1].Num()
		}
	}
}

// add adds the evidence of one game.
func (e *evidence) add(g *gameEvidence) {
	if gt := strings.TrimSpace(g.gameType); gt != "" {
		if v, err := gameTypeVariant(gt); err == nil {
			if e.tagged == nil {
				e.tagged = v
			} else if e.tagged != v {
				e.disagree = true
			}
		}
		return
	}
	e.untagged++
	e.maxNum = max(e.maxNum, g.maxNum)
	e.maxFile = max(e.maxFile, g.maxFile)
	e.maxRank = max(e.maxRank, g.maxRank)
	if !g.custom && g.from > 0 {
		bs := boards()
		if e.openings == nil {
			e.openings = make([]int, len(bs))
		}
		for i := range bs {
			if bs[i].opening[[2]int{g.from, g.to}] {
				e.openings[i]++
			}
		}
	}
}

// game adds the evidence of a Game (JSON input, or one game alone).
func (e *evidence) game(g *Game) {
	var ge gameEvidence
	if g.read != nil {
		ge = g.read.ev // (the squares of its moves, gathered as it was read)
	}
	ge.gameType = g.Get("GameType")
	if strings.TrimSpace(ge.gameType) == "" { // (add uses the squares of untagged games alone)
		ge.fen(g.Get("FEN"))
		ge.nodes(g.Moves, true)
	}
	e.add(&ge)
}

func (g *gameEvidence) nodes(ns []Node, main bool) {
	// The largest square so far, in a register for the commonest move
	// (g.maxNum is brought up to date around the calls).
	maxNum := g.maxNum
	for i := range ns {
		switch n := &ns[i]; n.Kind {
		case MoveNode:
			// The commonest move, two numeric squares after the first
			// move of the main line, without a call.
			if sq := n.Move.Squares; len(sq) == 2 && (sq[0]|sq[1])&algebraicBit == 0 && (g.moved || !main) {
				maxNum = max(maxNum, int(sq[0]), int(sq[1]))
			} else if !n.Move.IsPlaceholder() {
				g.maxNum = maxNum
				g.move(n.Move.Squares, main)
				maxNum = g.maxNum
			}
		case SetupNode:
			if !g.moved && main {
				g.custom = true
			}
		case VariationNode:
			g.maxNum = maxNum
			g.nodes(n.Variation, false)
			maxNum = g.maxNum
		}
	}
	g.maxNum = maxNum
}

// inferScan gathers the evidence of PDN text without building tokens: it
// follows tag pairs, comments, strings, setup commands and variations as
// the Scanner does, and looks at the runs of other bytes (moves, move
// numbers, results) for squares. It may differ from the Reader on
// malformed input; it only has to weigh evidence.
type inferScan struct {
	e      *evidence
	g      gameEvidence
	state  scanState
	inGame bool // something of the current game was seen
	body   bool // movetext was seen: a '[' starts the next game
	depth  int  // variations
	esc    bool // in a string, after a backslash
	// tok holds a run of bytes cut by the end of a block (tokens are
	// short; longer runs are not moves).
	tok []byte
	// The tag being read: its name as written and as the Reader reads
	// it, and its value when that is kept (GameType and FEN).
	name   []byte
	tag    string
	value  []byte
	keep   bool
	strict bool // the Reader's Strict: localised names are not mapped
}

type scanState uint8

const (
	stTop      scanState = iota // between tokens
	stRun                       // in a run of token bytes (in tok)
	stComment                   // in {...}
	stLine                      // in a ';' or '%' comment
	stString                    // in a stray "string"
	stTagName                   // after '['
	stTagAfter                  // after a tag name, before its value
	stTagValue                  // in a tag value
	stSetup                     // in /setup/
)

// scanStop marks the bytes that end a run of token bytes (as the Scanner's
// isStop does).
var scanStop = func() (t [256]bool) {
	for _, c := range []byte(" \t\n\r\f\v[]{}()\"") {
		t[c] = true
	}
	return t
}()

func (s *inferScan) scan(b []byte) {
	for i := 0; i < len(b); {
		switch s.state {
		case stComment:
			k := bytes.IndexByte(b[i:], '}')
			if k < 0 {
				return
			}
			i += k + 1
			s.state = stTop
		case stLine:
			k := bytes.IndexAny(b[i:], "\r\n")
			if k < 0 {
				return
			}
			i += k
			s.state = stTop
		case stSetup:
			k := bytes.IndexAny(b[i:], "/\r\n")
			if k < 0 {
				return
			}
			i += k
			if b[i] == '/' {
				i++
			}
			s.state = stTop
		case stString, stTagValue:
			if s.esc { // the byte after a backslash
				s.esc = false
				s.keepValue(b[i : i+1])
				i++
				continue
			}
			k := bytes.IndexByte(b[i:], '"')
			if k < 0 {
				k = len(b) - i
			}
			if bs := bytes.IndexByte(b[i:i+k], '\\'); bs >= 0 {
				s.keepValue(b[i : i+bs])
				s.esc = true
				i += bs + 1
				continue
			}
			s.keepValue(b[i : i+k])
			if i += k; i == len(b) {
				return
			}
			i++ // the closing '"'
			if s.state == stTagValue {
				s.inGame = true
				s.tagValue()
			}
			s.state = stTop
		case stTagName:
			for ; i < len(b); i++ {
				c := b[i]
				if len(s.name) == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
					continue // blanks, even line breaks, before the name
				}
				if c == '"' || c == ']' || c == '[' || c == '\n' || c == '\r' {
					s.state = stTagAfter
					break
				}
				if len(s.name) < 64 {
					s.name = append(s.name, c)
				}
			}
		case stTagAfter:
			name := s.name
			for len(name) > 0 && (name[len(name)-1] == ' ' || name[len(name)-1] == '\t') {
				name = name[:len(name)-1]
			}
			s.keep = s.keepTag(name)
			s.value = s.value[:0]
			if b[i] == '"' {
				s.state, s.esc = stTagValue, false
				i++
			} else {
				s.state = stTop
			}
		case stRun:
			j := i
			for j < len(b) && !scanStop[b[j]] {
				j++
			}
			if len(s.tok) < 64 {
				s.tok = append(s.tok, b[i:min(j, i+64)]...)
			}
			if j == len(b) {
				return
			}
			s.token(s.tok)
			s.tok = s.tok[:0]
			i = j
			s.state = stTop
		default:
			i = s.top(b, i)
		}
	}
}

// top scans between tokens from b[i] and returns where it stopped.
func (s *inferScan) top(b []byte, i int) int {
	for i < len(b) {
		c := b[i]
		if c == ' ' || c == '\n' {
			i++
			continue
		}
		if c-'0' <= 9 && s.g.moved {
			if j, ok := s.numeric(b, i); ok {
				i = j
				continue
			}
		}
		switch c {
		case ' ', '\t', '\n', '\r', '\f', '\v', ']', '}':
			i++
			continue
		case '{':
			s.inGame, s.body, s.state = true, true, stComment
			return i + 1
		case '[':
			if s.body {
				s.endGame()
			}
			s.inGame = true // even a tag that is dropped makes a game (with a warning)
			s.state, s.name = stTagName, s.name[:0]
			return i + 1
		case '"':
			s.state, s.esc = stString, false
			return i + 1
		case '(':
			s.depth++
			s.inGame, s.body = true, true
			i++
			continue
		case ')':
			s.depth = max(s.depth-1, 0)
			i++
			continue
		case ';':
			s.inGame, s.body, s.state = true, true, stLine
			return i + 1
		case '%':
			s.state = stLine
			return i + 1
		case '/':
			if !s.g.moved && s.depth == 0 {
				s.g.custom = true
			}
			s.inGame, s.body, s.state = true, true, stSetup
			return i + 1
		}
		// A run of token bytes: handled in place when it ends in b.
		j := i
		for j < len(b) && !scanStop[b[j]] {
			j++
		}
		if j == len(b) {
			s.tok = append(s.tok[:0], b[i:min(j, i+64)]...)
			s.state = stRun
			return j
		}
		s.token(b[i:j])
		i = j
	}
	return i
}

// tagValue handles the value of a GameType or FEN tag.
func (s *inferScan) tagValue() {
	if !s.keep {
		return
	}
	if s.tag == "GameType" {
		s.g.gameType = string(s.value)
	} else {
		s.g.fen(string(s.value))
	}
}

// numeric handles the commonest runs of movetext, once the game's first
// move is known, in one pass over their bytes: a move number ("12.",
// "12...") and a move of numeric squares of one or two digits ("32-28",
// "28x19x10"). It returns the end of the run and true, or false for
// anything else (results included, and a run that b cuts), which token
// handles.
func (s *inferScan) numeric(b []byte, i int) (int, bool) {
	// The commonest shapes first: "d-d", "dd-d", "d-dd", "dd-dd" (or 'x')
	// and a move number "d." or "dd.", followed by a blank.
	if i+5 < len(b) {
		j := i + 1
		a := int(b[i] - '0')
		if d := b[j] - '0'; d <= 9 {
			a = a*10 + int(d)
			j++
		}
		switch b[j] {
		case '.':
			if c := b[j+1]; c == ' ' || c == '\n' {
				s.inGame, s.body = true, true
				return j + 1, true
			}
		case '-', 'x':
			if d := b[j+1] - '0'; d <= 9 && a > 0 {
				m, k := int(d), j+2
				if d := b[k] - '0'; d <= 9 {
					m, k = m*10+int(d), k+1
				}
				if c := b[k]; m > 0 && (c == ' ' || c == '\n') && (k-i != 3 || a > 2 || m > 2) {
					s.g.maxNum = max(s.g.maxNum, a, m)
					s.inGame, s.body = true, true
					return k, true
				}
			}
		}
	}
	n, digits, top, seps := 0, 0, 0, 0
	j := i
	for ; j < len(b); j++ {
		c := b[j]
		switch {
		case c >= '0' && c <= '9':
			n = n*10 + int(c-'0')
			digits++
			continue
		case c == '-' || c == 'x' || c == ':':
			if digits == 0 || digits > 2 || n == 0 {
				return i, false
			}
			top = max(top, n)
			n, digits = 0, 0
			seps++
			continue
		case c == '.' && seps == 0:
			// A move number: the run must end after its dots.
			for j < len(b) && b[j] == '.' {
				j++
			}
			if j == len(b) || !scanStop[b[j]] {
				return i, false
			}
			s.inGame, s.body = true, true
			return j, true
		case !scanStop[c]:
			return i, false
		}
		break
	}
	if j == len(b) || seps == 0 || digits == 0 || digits > 2 || n == 0 || seps == 1 && j-i == 3 && b[i] <= '2' && b[i+2] <= '2' {
		return i, false // not a move, cut, or perhaps a result (1-0, 0-2, 1-1 ...)
	}
	s.g.maxNum = max(s.g.maxNum, top, n)
	s.inGame, s.body = true, true
	return j, true
}

// token handles a run of token bytes: moves, move numbers, results, and
// the two characters \r or \n, which the Scanner reads as a line break.
func (s *inferScan) token(t []byte) {
	for len(t) > 0 {
		k := bytes.IndexByte(t, '\\')
		for k >= 0 && (k+1 == len(t) || t[k+1] != 'r' && t[k+1] != 'n') {
			if j := bytes.IndexByte(t[k+1:], '\\'); j >= 0 {
				k += 1 + j
			} else {
				k = -1
			}
		}
		if k < 0 {
			s.word(t)
			return
		}
		s.word(t[:k])
		t = t[k+2:]
	}
}

// word handles one token of a run, as the Reader would: a move number
// (with the move glued to it), a result, a move, a NAG, stray text.
func (s *inferScan) word(t []byte) {
	if len(t) == 0 {
		return
	}
	if isDigit(int(t[0])) {
		k := 0
		for k < len(t) && isDigit(int(t[k])) {
			k++
		}
		if k < len(t) && t[k] == '.' {
			for k < len(t) && t[k] == '.' {
				k++
			}
			s.inGame, s.body = true, true
			if t = t[k:]; len(t) == 0 {
				return
			}
		}
	}
	switch string(t) {
	case "*", "1-0", "0-1", "2-0", "0-2", "1-1", "0-0", "1/2-1/2":
		if s.depth == 0 {
			s.endGame()
		}
		return
	}
	var sq [64]Square
	if n := parseSquares(t, sq[:]); n >= 2 {
		s.inGame, s.body = true, true
		s.g.move(sq[:n], s.depth == 0)
		return
	}
	// What the Reader counts as movetext: "...", a NAG, '-' for an unknown
	// move, text with letters (kept as a comment). Other stray tokens are
	// skipped.
	if t[0] == '.' || t[0] == '$' || t[0] == '-' || hasLetter(string(t)) {
		s.inGame, s.body = true, true
	}
}

// parseSquares reads the squares of a move written as numbers or
// algebraic squares joined by '-', 'x', 'X' or ':' (algebraic ones also by
// nothing; four digits 3228 as 32-28) into sq, and returns how many; fewer
// than two means t is not a move.
func parseSquares(t []byte, sq []Square) int {
	alg := isLetter(t[0])
	if !alg && len(t) == 4 && isDigit(int(t[1])) && isDigit(int(t[2])) && isDigit(int(t[3])) && t[0] != '0' && t[2] != '0' {
		sq[0], sq[1] = Square((t[0]-'0')*10+t[1]-'0'), Square((t[2]-'0')*10+t[3]-'0')
		return 2
	}
	n, j := 0, 0
	for n < len(sq) {
		s, k, _ := squareAt(t, j, alg)
		if k == 0 {
			break
		}
		sq[n] = s
		n++
		j += k
		if j < len(t) {
			switch t[j] {
			case '-', 'x', 'X', ':':
				j++
				continue
			}
		}
		if !alg {
			break
		}
	}
	return n
}

// keepTag reports whether the tag called name (as written) is GameType or
// FEN for the Reader, and notes which in s.tag.
func (s *inferScan) keepTag(name []byte) bool {
	switch string(name) {
	case "GameType", "FEN":
		s.tag = string(name)
		return true
	}
	if isIdent(string(name)) && !localIdentKept()[string(name)] {
		return false
	}
	// Written otherwise (rare): as the Reader reads it.
	s.tag = tagName(string(name), s.strict)
	return s.tag == "GameType" || s.tag == "FEN"
}

// localIdentKept is the set of localised tag names that are identifiers
// and that the Reader reads as GameType or FEN (none so far): the names
// keepTag need not look up otherwise.
var localIdentKept = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for k, v := range localizedTags {
		if isIdent(k) && (v == "GameType" || v == "FEN") {
			m[k] = true
		}
	}
	return m
})

// keepValue keeps b as part of the value of the tag being read, if that
// is kept.
func (s *inferScan) keepValue(b []byte) {
	if s.keep && s.state == stTagValue && len(s.value) < 4096 {
		s.value = append(s.value, b...)
	}
}

// tagName returns the name the Reader gives a tag written name (readTag).
func tagName(name string, strict bool) string {
	if !isIdent(name) {
		return repairTagName(name)
	}
	if std, ok := localizedTags[name]; ok && !strict {
		return std
	}
	return name
}

// endGame adds the evidence of the game that ends.
func (s *inferScan) endGame() {
	if s.inGame {
		s.e.add(&s.g)
	}
	s.g = gameEvidence{}
	s.inGame, s.body, s.depth = false, false, 0
}

// end ends the input.
func (s *inferScan) end() {
	if s.state == stRun {
		s.token(s.tok)
		s.tok = s.tok[:0]
	}
	s.endGame()
}
