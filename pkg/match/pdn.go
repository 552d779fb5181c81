package match

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
)

// pdnWidth is the column the movetext is wrapped at.
const pdnWidth = 80

// Result returns the PDN result of r for v: the first number is the score of the side that
// moves first in v (Black in English draughts), written "2-0"/"1-1"/"0-2" where v's games
// are (see twoPointResults) and "1-0"/"1/2-1/2"/"0-1" otherwise (PDN 3.0, Result tag).
func (r *Record) Result(v *engine.Variant) string {
	win, draw, loss := "1-0", "1/2-1/2", "0-1"
	if twoPointResults(v) {
		win, draw, loss = "2-0", "1-1", "0-2"
	}
	switch r.Winner {
	case "":
		return draw
	case v.FirstMover.String():
		return win
	}
	return loss
}

// twoPointResults reports whether v's results are customarily written 2-0/1-1/0-2: PDN
// 3.0's "International" result type, which it gives GameType 20 (international) and 27
// (canadian); lidraughts' exports of its variants 96, 97 and 98 (breakthrough, frysk!,
// antidraughts: every game of the 75 in the shared corpus, py-draughts' test games, ends
// 2-0, 0-2 or 1-1); and a 10x10 variant without a GameType (killer: international draughts
// with one capture rule changed, so international's notation).
func twoPointResults(v *engine.Variant) bool {
	switch v.GameType {
	case 20, 27, 96, 97, 98:
		return true
	case 0:
		return v.Width == 10 && v.Height == 10
	}
	return false
}

// WritePDN writes r as one PDN 3.0 game: the tags Event, Site, Date, Round (the game
// number, from 1), White, Black, Result, GameType (when the variant has one), FEN (when
// the game did not start from the variant's start position), Opening and Termination,
// then the moves in the variant's notation and the result again as the game's terminator.
//
// Games with move information (Record.Info) have a comment after each move past the
// opening, in the habits of PGN: {[%emt S] [%clock H:MM:SS.S] [%eval SCORE/DEPTH]}, the
// seconds the move took, the mover's clock after it (under a clock), and the score the
// player reported in men, from the mover's side, with its depth. A forfeited game ends with
// a comment that says who forfeited, why, and the position (Record.Detail).
func WritePDN(w io.Writer, v *engine.Variant, r *Record, event, site string) error {
	var b strings.Builder
	tag := func(name, value string) {
		if value == "" {
			value = "?"
		}
		value = strings.ReplaceAll(strings.ReplaceAll(value, `\`, `\\`), `"`, `\"`)
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, value)
	}
	result := r.Result(v)
	tag("Event", event)
	tag("Site", site)
	tag("Date", r.Date)
	tag("Round", strconv.Itoa(r.Game+1))
	tag("White", r.White)
	tag("Black", r.Black)
	tag("Result", result)
	if v.GameType != 0 { // killer has none: PDN 3.0 has no number for it
		tag("GameType", strconv.Itoa(v.GameType))
	}
	side := v.FirstMover
	if r.FEN != "" {
		tag("FEN", r.FEN)
		p, err := v.ParseFEN(r.FEN)
		if err != nil {
			return fmt.Errorf("match: game %d: %w", r.Game+1, err)
		}
		side = p.Side
	}
	tag("Opening", r.Opening)
	tag("Termination", r.Reason)
	b.WriteByte('\n')
	col := 0
	word := func(s string) {
		if col > 0 && col+1+len(s) > pdnWidth {
			b.WriteByte('\n')
			col = 0
		}
		if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(s)
		col += len(s)
	}
	comment := func(text string) {
		text = strings.ReplaceAll(text, "}", ")") // a comment cannot hold its closing brace
		for i, w := range commentWords("{" + text + "}") {
			if i > 0 && col+1+len(w) <= pdnWidth {
				b.WriteByte(' ')
				b.WriteString(w)
				col += 1 + len(w)
				continue
			}
			word(w)
		}
	}
	number := 1
	for i, m := range r.Moves {
		switch {
		case side == v.FirstMover:
			word(strconv.Itoa(number) + ". " + m)
		case i == 0:
			word(strconv.Itoa(number) + "... " + m)
		default:
			word(m)
		}
		if k := i - r.OpeningPlies; k >= 0 && k < len(r.Info) {
			comment(r.Info[k].comment())
		}
		if side != v.FirstMover {
			number++
		}
		side = side.Other()
	}
	if r.Detail != "" {
		comment(r.Detail)
	}
	word(result)
	b.WriteString("\n\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// comment is the PDN comment of mi, without its braces.
func (mi *MoveInfo) comment() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%%emt %.3f]", float64(mi.Millis)/1000)
	if mi.Clock != nil {
		ms := max(*mi.Clock, 0)
		fmt.Fprintf(&b, " [%%clock %d:%02d:%04.1f]", ms/3_600_000, ms/60_000%60, float64(ms%60_000)/1000)
	}
	if mi.Score != nil {
		fmt.Fprintf(&b, " [%%eval %.2f/%d]", float64(*mi.Score)/100, mi.Depth)
	}
	return b.String()
}

// commentWords splits a comment at its spaces, except inside [brackets], so that a command
// such as [%clock 0:01:00.0] is never broken over two lines.
func commentWords(s string) []string {
	var words []string
	depth, start := 0, -1
	for i, c := range s {
		switch {
		case c == '[':
			depth++
		case c == ']' && depth > 0:
			depth--
		}
		space := c == ' ' || c == '\t' || c == '\n' || c == '\r'
		switch {
		case space && depth == 0 && start >= 0:
			words = append(words, s[start:i])
			start = -1
		case !space && start < 0:
			start = i
		}
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}
