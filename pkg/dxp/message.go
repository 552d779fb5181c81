package dxp

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

// MaxLen is the longest message: "The messages consist of character strings of 1 to 127
// characters of the ASCII character set (values 1 to and including 127 only)" (layer 2
// description, http://www.mesander.nl/damexchange/edxplg2.htm).
const MaxLen = 127

// Version is the protocol version of GAMEREQ: "version of the DamExchange protocol, always
// '01'" (egamereq.htm).
const Version = 1

// nameLen is the width of the program names of GAMEREQ and GAMEACC: "the name should
// consist of exactly 32 positions" (egamereq.htm, egameacc.htm).
const nameLen = 32

// maxChat is the longest CHAT text: "1 to 126 bytes" (echat.htm).
const maxChat = MaxLen - 1

// Message is one DXP message: GameReq, GameAcc, Move, GameEnd, Chat, BackReq or BackAcc.
type Message interface {
	// Kind returns the header, the message's first character ('R', 'A', 'M', 'E', 'C',
	// 'B' or 'K').
	Kind() byte
	appendTo(b []byte) []byte
}

// kindNames names the message kinds as the spec does.
var kindNames = map[byte]string{
	'R': "GAMEREQ", 'A': "GAMEACC", 'M': "MOVE", 'E': "GAMEEND", 'C': "CHAT", 'B': "BACKREQ", 'K': "BACKACC",
}

// GameReq asks the follower to start a game (egamereq.htm). Only the initiator sends it.
// Layout: 'R', version (2 digits), initiator name (32), follower colour ('W' or 'Z'),
// thinking time (3), number of moves (3), then 'A' for the normal start with White to
// move, or 'B' followed by the colour to move and 50 squares: 43 or 94 characters.
type GameReq struct {
	// Version is the protocol version the initiator speaks (Version for this one).
	Version int
	// Initiator is the initiator's name; Format cuts it to 32 characters.
	Initiator string
	// FollowerColor is the colour the follower plays.
	FollowerColor engine.Color
	// Time is each side's thinking time for the whole game. The spec gives it in whole
	// minutes; Parse also reads the fractions Moby Dam's matchmaker sends ("2.5", ".17":
	// its usage text says "may be a fraction, e.g. 2.5 or .17, if engines support it"), and
	// Format writes a fraction when Time is not a whole number of minutes.
	Time time.Duration
	// Moves is the number of moves of the whole game, after which either side may end it;
	// 0 means no limit.
	Moves int
	// Position is "" for the normal starting position ('A'), or the colour to move and the
	// 50 squares ('B') as FormatPosition writes them.
	Position string
}

// GameAcc answers a GameReq (egameacc.htm): 'A', the follower's name (32), and the
// acceptance code: 34 characters.
type GameAcc struct {
	// Follower is the follower's name; Format cuts it to 32 characters.
	Follower string
	Code     AccCode
}

// Move passes a move (emove.htm): 'M', the time used in seconds (4 digits), the from and to
// fields (2 each), the number of captured pieces (2, at most 20) and the captured fields
// (2 each, in any order).
type Move struct {
	// Seconds is the time the sender used for the move, 0 to 9999 ("for informational
	// purposes only").
	Seconds  int
	From, To engine.Square
	// Captured lists the captured pieces' squares; empty for a quiet move.
	Captured []engine.Square
}

// GameEnd ends a game (egameend.htm): 'E', the reason and the stop code. The side to move
// sends it instead of a move; the other side answers with a GameEnd of its own (reason
// "0").
type GameEnd struct {
	Reason EndReason
	// Stop is the stop code '1': the sender wants no further game on this connection.
	Stop bool
}

// Chat carries free text (echat.htm): 'C' and 1 to 126 characters. Either side may send it
// at any time.
type Chat struct {
	// Text is the text; Format cuts it to 126 characters.
	Text string
}

// BackReq asks to take moves back (ebackreq.htm): 'B', the move number (3 digits, 001-999)
// and the colour to move at that move ('W' or 'Z'): 5 characters.
type BackReq struct {
	Move int
	Side engine.Color
}

// BackAcc answers a BackReq (ebackacc.htm): 'K' and the acceptance code: 2 characters.
type BackAcc struct {
	Code BackCode
}

// AccCode is GAMEACC's acceptance code (egameacc.htm).
type AccCode uint8

const (
	// AccAccept: "the Follower accepts starting the game" ('0').
	AccAccept AccCode = iota
	// AccVersion: the protocol version "is not as expected" ('1').
	AccVersion
	// AccRefuse: the follower "cannot or does not want to accept the game ... but is
	// willing to play another game" ('2').
	AccRefuse
	// AccNoGames: the follower "does not want to play any game at all" ('3').
	AccNoGames
)

// String gives the code's meaning.
func (c AccCode) String() string {
	switch c {
	case AccAccept:
		return "0 (game accepted)"
	case AccVersion:
		return "1 (protocol version not as expected)"
	case AccRefuse:
		return "2 (this game refused, another one would be accepted)"
	case AccNoGames:
		return "3 (no game at all)"
	}
	return fmt.Sprintf("code %d", uint8(c))
}

// EndReason is GAMEEND's reason, from the sender's point of view (egameend.htm).
type EndReason uint8

const (
	// EndUnknown: no reason given ('0'); always allowed, and the reason of the answer to a
	// GAMEEND.
	EndUnknown EndReason = iota
	// EndLoss: "I give up" ('1').
	EndLoss
	// EndDraw: "draw" ('2').
	EndDraw
	// EndWin: "I win" ('3').
	EndWin
)

// String gives the reason's meaning, from the sender's point of view.
func (r EndReason) String() string {
	switch r {
	case EndUnknown:
		return "0 (no reason)"
	case EndLoss:
		return "1 (I give up)"
	case EndDraw:
		return "2 (draw)"
	case EndWin:
		return "3 (I win)"
	}
	return fmt.Sprintf("reason %d", uint8(r))
}

// Other returns the same result from the other side's point of view: a loss becomes a
// win and a win a loss.
func (r EndReason) Other() EndReason {
	switch r {
	case EndLoss:
		return EndWin
	case EndWin:
		return EndLoss
	}
	return r
}

// BackCode is BACKACC's acceptance code (ebackacc.htm).
type BackCode uint8

const (
	// BackAccept: the take-back is accepted ('0').
	BackAccept BackCode = iota
	// BackUnsupported: the program does not support taking moves back ('1').
	BackUnsupported
	// BackRefuse: the take-back is refused ('2').
	BackRefuse
)

// String gives the code's meaning.
func (c BackCode) String() string {
	switch c {
	case BackAccept:
		return "0 (accepted)"
	case BackUnsupported:
		return "1 (not supported)"
	case BackRefuse:
		return "2 (refused)"
	}
	return fmt.Sprintf("code %d", uint8(c))
}

// Kind returns 'R'.
func (GameReq) Kind() byte { return 'R' }

// Kind returns 'A'.
func (GameAcc) Kind() byte { return 'A' }

// Kind returns 'M'.
func (Move) Kind() byte { return 'M' }

// Kind returns 'E'.
func (GameEnd) Kind() byte { return 'E' }

// Kind returns 'C'.
func (Chat) Kind() byte { return 'C' }

// Kind returns 'B'.
func (BackReq) Kind() byte { return 'B' }

// Kind returns 'K'.
func (BackAcc) Kind() byte { return 'K' }

// Format writes m as DXP text, without the NUL that ends it on the wire. Names and chat
// text are cut to their widths, and characters the protocol does not allow (NUL, non-ASCII)
// become '?', so the result is always a valid message. Format panics when a number is out
// of its field's range (a square outside 1-50, more than 20 captures, a time or count
// beyond its digits): that is a programming error.
func Format(m Message) []byte { return m.appendTo(make([]byte, 0, 96)) }

func (m GameReq) appendTo(b []byte) []byte {
	b = append(b, 'R')
	b = appendNum(b, m.Version, 2, "GAMEREQ version")
	b = appendName(b, m.Initiator)
	b = append(b, colorByte(m.FollowerColor))
	b = append(b, formatMinutes(m.Time)...)
	b = appendNum(b, m.Moves, 3, "GAMEREQ number of moves")
	if m.Position == "" {
		return append(b, 'A')
	}
	if !validPosition(m.Position) {
		panic(fmt.Sprintf("dxp: GAMEREQ position %q is not a colour and 50 squares", m.Position))
	}
	b = append(b, 'B')
	return append(b, m.Position...)
}

func (m GameAcc) appendTo(b []byte) []byte {
	b = append(b, 'A')
	b = appendName(b, m.Follower)
	return appendNum(b, int(m.Code), 1, "GAMEACC acceptance code")
}

func (m Move) appendTo(b []byte) []byte {
	b = append(b, 'M')
	b = appendNum(b, m.Seconds, 4, "MOVE time")
	b = appendSquare(b, m.From)
	b = appendSquare(b, m.To)
	if len(m.Captured) > maxCaptured {
		panic(fmt.Sprintf("dxp: MOVE with %d captured pieces (at most %d)", len(m.Captured), maxCaptured))
	}
	b = appendNum(b, len(m.Captured), 2, "MOVE number captured")
	for _, s := range m.Captured {
		b = appendSquare(b, s)
	}
	return b
}

func (m GameEnd) appendTo(b []byte) []byte {
	b = append(b, 'E')
	b = appendNum(b, int(m.Reason), 1, "GAMEEND reason")
	if m.Stop {
		return append(b, '1')
	}
	return append(b, '0')
}

func (m Chat) appendTo(b []byte) []byte {
	b = append(b, 'C')
	return appendText(b, m.Text, maxChat)
}

func (m BackReq) appendTo(b []byte) []byte {
	b = append(b, 'B')
	b = appendNum(b, m.Move, 3, "BACKREQ move number")
	return append(b, colorByte(m.Side))
}

func (m BackAcc) appendTo(b []byte) []byte {
	b = append(b, 'K')
	return appendNum(b, int(m.Code), 1, "BACKACC acceptance code")
}

// maxCaptured is the most pieces one MOVE may capture: "possible values therefore are `00'
// to `20'" (emove.htm).
const maxCaptured = 20

// appendNum appends n in exactly width digits with leading zeroes; it panics when n does
// not fit (field names the field for the message).
func appendNum(b []byte, n, width int, field string) []byte {
	s := strconv.Itoa(n)
	if n < 0 || len(s) > width {
		panic(fmt.Sprintf("dxp: %s %d does not fit %d digits", field, n, width))
	}
	for range width - len(s) {
		b = append(b, '0')
	}
	return append(b, s...)
}

// appendSquare appends a square number in 2 digits; it panics outside 1-50.
func appendSquare(b []byte, s engine.Square) []byte {
	if s < 1 || s > squares {
		panic(fmt.Sprintf("dxp: square %d is not 1-%d", s, squares))
	}
	return appendNum(b, int(s), 2, "square")
}

// appendName appends a program name in exactly 32 characters: without leading blanks ("the
// name should not start with a blank character"), cut, and padded with blanks.
func appendName(b []byte, name string) []byte {
	n := len(b)
	b = appendText(b, strings.TrimLeft(name, " "), nameLen)
	for len(b)-n < nameLen {
		b = append(b, ' ')
	}
	return b
}

// appendText appends at most max bytes of s, with the bytes DXP does not allow (NUL and
// those above 127) replaced by '?'.
func appendText(b []byte, s string, max int) []byte {
	if len(s) > max {
		s = s[:max]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 0 || c > 127 {
			c = '?'
		}
		b = append(b, c)
	}
	return b
}

// colorByte is DXP's colour letter: 'W' for white, 'Z' (zwart) for black.
func colorByte(c engine.Color) byte {
	if c == engine.White {
		return 'W'
	}
	return 'Z'
}

// formatMinutes writes a thinking time in the 3 characters of GAMEREQ: whole minutes with
// leading zeroes, or for a time that is not a whole number of minutes, Moby Dam's fractions
// (".17", "2.5"), rounded to what fits. It panics beyond 999 minutes.
func formatMinutes(d time.Duration) string {
	if d < 0 || d > 999*time.Minute {
		panic(fmt.Sprintf("dxp: GAMEREQ thinking time %v is not 0-999 minutes", d))
	}
	const hundredth = time.Minute / 100
	h := int((d + hundredth/2) / hundredth) // hundredths of a minute
	switch {
	case h%100 == 0 || h >= 1000:
		return fmt.Sprintf("%03d", min((h+50)/100, 999))
	case h < 100:
		return fmt.Sprintf(".%02d", h)
	case h%10 == 0:
		return fmt.Sprintf("%d.%d", h/100, h/10%10)
	}
	t := (h + 5) / 10 // tenths
	if t%10 == 0 {
		return fmt.Sprintf("%03d", t/10)
	}
	return fmt.Sprintf("%d.%d", t/10, t%10)
}

// Parse reads one message, without its NUL. Unknown kinds, fields of the wrong width or
// value, and characters DXP does not allow are errors (*Error wrapping ErrProtocol) that
// name the message kind and the field.
func Parse(msg []byte) (Message, error) {
	p := parser{msg: msg}
	if len(msg) == 0 {
		return nil, p.fail("empty message")
	}
	if len(msg) > MaxLen {
		return nil, p.fail("%d characters (at most %d)", len(msg), MaxLen)
	}
	for i, c := range msg {
		if c == 0 || c > 127 {
			return nil, p.fail("byte %#02x at column %d is not ASCII 1-127", c, i+1)
		}
	}
	p.kind = kindNames[msg[0]]
	if p.kind == "" {
		return nil, p.fail("unknown message type %q", msg[0])
	}
	p.pos = 1
	var m Message
	switch msg[0] {
	case 'R':
		m = p.gameReq()
	case 'A':
		var a GameAcc
		p.length(1 + nameLen + 1)
		a.Follower = p.name()
		a.Code = AccCode(p.digit("acceptance code", 3))
		m = a
	case 'M':
		m = p.move()
	case 'E':
		var e GameEnd
		p.length(3)
		e.Reason = EndReason(p.digit("reason", 3))
		e.Stop = p.digit("stop code", 1) == 1
		m = e
	case 'C':
		m = Chat{Text: string(msg[1:])} // an empty text, against the spec's 1 to 126, is harmless
	case 'B':
		var r BackReq
		p.length(5)
		r.Move = p.num(3, "move number", 1, 999)
		r.Side = p.color("colour to move")
		m = r
	case 'K':
		p.length(2)
		m = BackAcc{Code: BackCode(p.digit("acceptance code", 2))}
	}
	if p.err != nil {
		return nil, p.err
	}
	return m, nil
}

// parser reads the fields of one message left to right; the first problem is kept in err
// and later reads do nothing.
type parser struct {
	msg  []byte
	kind string // "GAMEREQ", ...
	pos  int
	err  error
}

// fail records a problem with the message and returns it.
func (p *parser) fail(format string, args ...any) error {
	if p.err == nil {
		detail := fmt.Sprintf(format, args...)
		if p.kind != "" {
			detail = p.kind + ": " + detail
		}
		p.err = &Error{Kind: ErrProtocol, Text: string(p.msg), Err: errorString(detail)}
	}
	return p.err
}

// length checks that the message has exactly n characters.
func (p *parser) length(n int) {
	if len(p.msg) != n {
		p.fail("%d characters, want %d", len(p.msg), n)
	}
}

// take returns the next n characters, or nil (and a problem) when there are fewer.
func (p *parser) take(n int, field string) []byte {
	if p.err != nil {
		return nil
	}
	if p.pos+n > len(p.msg) {
		p.fail("message ends in the %s (column %d)", field, p.pos+1)
		return nil
	}
	f := p.msg[p.pos : p.pos+n]
	p.pos += n
	return f
}

// num reads an n-digit number between lo and hi.
func (p *parser) num(n int, field string, lo, hi int) int {
	f := p.take(n, field)
	if f == nil {
		return 0
	}
	v := 0
	for _, c := range f {
		if c < '0' || c > '9' {
			p.fail("%s %q is not %d digits", field, f, n)
			return 0
		}
		v = v*10 + int(c-'0')
	}
	if v < lo || v > hi {
		p.fail("%s %q is not %0*d-%0*d", field, f, n, lo, n, hi)
		return 0
	}
	return v
}

// digit reads a one-digit code between 0 and hi.
func (p *parser) digit(field string, hi int) int { return p.num(1, field, 0, hi) }

// name reads a 32-character program name without its padding.
func (p *parser) name() string {
	return strings.Trim(string(p.take(nameLen, "name")), " ")
}

// color reads 'W' or 'Z'.
func (p *parser) color(field string) engine.Color {
	f := p.take(1, field)
	switch {
	case f == nil:
	case f[0] == 'W':
		return engine.White
	case f[0] == 'Z':
		return engine.Black
	default:
		p.fail("%s %q is not W or Z", field, f)
	}
	return engine.White
}

func (p *parser) gameReq() GameReq {
	var r GameReq
	if n := len(p.msg); n != 43 && n != 94 {
		p.fail("%d characters, want 43 (start 'A') or 94 (start 'B' with a position)", n)
	}
	r.Version = p.num(2, "version", 0, 99)
	r.Initiator = p.name()
	r.FollowerColor = p.color("follower colour")
	r.Time = p.minutes()
	r.Moves = p.num(3, "number of moves", 0, 999)
	switch start := p.take(1, "starting position"); {
	case start == nil:
	case start[0] == 'A':
		if len(p.msg) != 43 {
			p.fail("starting position 'A' with %d characters after it", len(p.msg)-43)
		}
	case start[0] == 'B':
		pos := p.take(1+squares, "position")
		if pos != nil && !validPosition(string(pos)) {
			p.fail("position %q is not W or Z and 50 of e, w, z, W, Z", pos)
		}
		r.Position = string(pos)
	default:
		p.fail("starting position %q is not A or B", start)
	}
	return r
}

// minutes reads GAMEREQ's thinking time: 3 digits, or a fraction such as "2.5" or ".17"
// (Moby Dam's matchmaker).
func (p *parser) minutes() time.Duration {
	f := p.take(3, "thinking time")
	if f == nil {
		return 0
	}
	whole, frac, dot := strings.Cut(string(f), ".")
	if !dot {
		return time.Duration(p.digitsValue(f, whole)) * time.Minute
	}
	if whole+frac == "" || strings.Contains(frac, ".") {
		p.fail("thinking time %q is not 3 digits or a fraction", f)
		return 0
	}
	d := time.Duration(p.digitsValue(f, whole)) * time.Minute
	scale := time.Minute
	for _, c := range []byte(frac) {
		scale /= 10
		d += time.Duration(p.digitsValue(f, string(c))) * scale
	}
	return d
}

// digitsValue returns the value of s, which must be digits ("" is 0), or records a problem
// with the thinking time f.
func (p *parser) digitsValue(f []byte, s string) int {
	v := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			p.fail("thinking time %q is not 3 digits or a fraction", f)
			return 0
		}
		v = v*10 + int(c-'0')
	}
	return v
}

func (p *parser) move() Move {
	var m Move
	if len(p.msg) < 11 {
		p.fail("%d characters, want at least 11", len(p.msg))
		return m
	}
	m.Seconds = p.num(4, "time", 0, 9999)
	m.From = engine.Square(p.num(2, "from field", 1, squares))
	m.To = engine.Square(p.num(2, "to field", 1, squares))
	n := p.num(2, "number captured", 0, maxCaptured)
	if p.err == nil && len(p.msg) != 11+2*n {
		p.fail("%d characters for %d captured pieces, want %d", len(p.msg), n, 11+2*n)
	}
	for i := 0; i < n && p.err == nil; i++ {
		m.Captured = append(m.Captured, engine.Square(p.num(2, "captured field", 1, squares)))
	}
	return m
}

// errorString is an error with a fixed text, for the details of an Error.
type errorString string

func (e errorString) Error() string { return string(e) }
