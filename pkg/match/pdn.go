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
// moves first in v (Black in English draughts), "2-0"/"1-1"/"0-2" for GameType 20 and
// "1-0"/"1/2-1/2"/"0-1" otherwise (PDN 3.0, Result tag).
func (r *Record) Result(v *engine.Variant) string {
	intl := v.GameType == 20
	first := v.FirstMover.String()
	switch {
	case r.Winner == "":
		if intl {
			return "1-1"
		}
		return "1/2-1/2"
	case r.Winner == first:
		if intl {
			return "2-0"
		}
		return "1-0"
	}
	if intl {
		return "0-2"
	}
	return "0-1"
}

// WritePDN writes r as one PDN 3.0 game: the tags Event, Site, Date, Round (the game
// number, from 1), White, Black, Result, GameType, FEN (when the game did not start from
// the variant's start position), Opening and Termination, then the moves in the variant's
// notation and the terminator '*' (the writing grammar's only terminator; the result is
// in the Result tag).
func WritePDN(w io.Writer, v *engine.Variant, r *Record, event, site string) error {
	var b strings.Builder
	tag := func(name, value string) {
		if value == "" {
			value = "?"
		}
		value = strings.ReplaceAll(strings.ReplaceAll(value, `\`, `\\`), `"`, `\"`)
		fmt.Fprintf(&b, "[%s \"%s\"]\n", name, value)
	}
	tag("Event", event)
	tag("Site", site)
	tag("Date", r.Date)
	tag("Round", strconv.Itoa(r.Game+1))
	tag("White", r.White)
	tag("Black", r.Black)
	tag("Result", r.Result(v))
	tag("GameType", strconv.Itoa(v.GameType))
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
		if side != v.FirstMover {
			number++
		}
		side = side.Other()
	}
	word("*")
	b.WriteString("\n\n")
	_, err := io.WriteString(w, b.String())
	return err
}
