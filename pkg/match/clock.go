package match

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeControl is a player's time control, kept by the match (the habits of cutechess and
// fastchess): a clock of Base for every Moves moves (Moves 0: Base for the whole game) with
// Inc added after each move; or MoveTime per move; or a fixed Depth or Nodes per move. A
// player whose move takes longer than its clock plus Margin loses on time.
type TimeControl struct {
	Moves    int           // moves per period; 0: the whole game
	Base     time.Duration // time per period
	Inc      time.Duration // added after each move
	MoveTime time.Duration // time per move (st=); no clock carried over
	Depth    int           // plies per move (depth=)
	Nodes    int64         // nodes per move (nodes=)
	// Margin is the grace past the clock before the flag falls (timemargin=).
	Margin time.Duration
	// Timeout is how long a move without a time limit (Depth or Nodes only) may take
	// before the player is taken to have hung; 0 means DefaultTimeout.
	Timeout time.Duration
}

// DefaultTimeout is TimeControl.Timeout when it is not set.
const DefaultTimeout = time.Minute

// Timed reports whether tc runs a clock (Base or MoveTime).
func (tc *TimeControl) Timed() bool { return tc.Base > 0 || tc.MoveTime > 0 }

// String writes tc as ParseTimeControl reads it, fields joined with commas.
func (tc *TimeControl) String() string {
	var parts []string
	sec := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	if tc.Base > 0 {
		s := sec(tc.Base)
		if tc.Moves > 0 {
			s = strconv.Itoa(tc.Moves) + "/" + s
		}
		if tc.Inc > 0 {
			s += "+" + sec(tc.Inc)
		}
		parts = append(parts, "tc="+s)
	}
	if tc.MoveTime > 0 {
		parts = append(parts, "st="+sec(tc.MoveTime))
	}
	if tc.Depth > 0 {
		parts = append(parts, "depth="+strconv.Itoa(tc.Depth))
	}
	if tc.Nodes > 0 {
		parts = append(parts, "nodes="+strconv.FormatInt(tc.Nodes, 10))
	}
	if tc.Margin > 0 {
		parts = append(parts, "timemargin="+strconv.FormatInt(tc.Margin.Milliseconds(), 10))
	}
	return strings.Join(parts, ",")
}

// SetTimeControl sets the field of tc that key names from its value: tc=[MOVES/]SECONDS[+INC]
// (seconds may have decimals; "inf" for no clock), st=SECONDS, depth=N, nodes=N,
// timemargin=MILLISECONDS, timeout=SECONDS. It reports false for another key.
func (tc *TimeControl) SetTimeControl(key, value string) (bool, error) {
	bad := func(format string) (bool, error) {
		return true, fmt.Errorf("%s=%s: %s", key, value, format)
	}
	seconds := func(s string) (time.Duration, bool) {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || !(x >= 0) || x > 1e6 {
			return 0, false
		}
		return time.Duration(x * float64(time.Second)), true
	}
	switch key {
	case "tc":
		if value == "inf" {
			tc.Moves, tc.Base, tc.Inc = 0, 0, 0
			return true, nil
		}
		rest := value
		if m, r, ok := strings.Cut(rest, "/"); ok {
			n, err := strconv.Atoi(m)
			if err != nil || n < 1 {
				return bad("want MOVES/SECONDS[+INC] with MOVES a positive integer")
			}
			tc.Moves, rest = n, r
		}
		base, inc, hasInc := strings.Cut(rest, "+")
		var ok bool
		if tc.Base, ok = seconds(base); !ok || tc.Base == 0 {
			return bad("want [MOVES/]SECONDS[+INC] with SECONDS positive, such as 40/60, 10+0.1 or 60")
		}
		if hasInc {
			if tc.Inc, ok = seconds(inc); !ok {
				return bad("the increment must be seconds, such as 0.1")
			}
		}
	case "st":
		var ok bool
		if tc.MoveTime, ok = seconds(value); !ok || tc.MoveTime == 0 {
			return bad("want seconds per move, such as 0.5")
		}
	case "depth":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > 1000 {
			return bad("want a depth from 1 to 1000")
		}
		tc.Depth = n
	case "nodes":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < 1 {
			return bad("want a positive number of nodes")
		}
		tc.Nodes = n
	case "timemargin":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 || n > 3_600_000 {
			return bad("want milliseconds from 0 to 3600000")
		}
		tc.Margin = time.Duration(n) * time.Millisecond
	case "timeout":
		d, ok := seconds(value)
		if !ok || d == 0 {
			return bad("want seconds, such as 60")
		}
		tc.Timeout = d
	default:
		return false, nil
	}
	return true, nil
}

// Clock is the state of a player's time control when it is asked to move.
type Clock struct {
	Control *TimeControl
	// Remaining is the time on the player's clock (with a Base), or MoveTime.
	Remaining time.Duration
	// MovesToGo is the number of moves to the next period (Moves > 0), this one included.
	MovesToGo int
	// Opponent is the time on the opponent's clock, when it has one.
	Opponent time.Duration
}

// clock follows one player's time during a game.
type clock struct {
	tc        *TimeControl
	remaining time.Duration
	moves     int // moves played by the player
}

func newClock(tc *TimeControl) *clock {
	if tc == nil {
		return nil
	}
	return &clock{tc: tc, remaining: tc.Base}
}

// limit is how long the next move may take before the flag falls (false: no clock), and
// wait how long the match waits for it before taking the player to have hung.
func (c *clock) limit() (limit time.Duration, timed bool) {
	switch {
	case c.tc.Base > 0:
		return c.remaining + c.tc.Margin, true
	case c.tc.MoveTime > 0:
		return c.tc.MoveTime + c.tc.Margin, true
	}
	return 0, false
}

func (c *clock) wait() time.Duration {
	if l, timed := c.limit(); timed {
		return l
	}
	if c.tc.Timeout > 0 {
		return c.tc.Timeout
	}
	return DefaultTimeout
}

// state is what the player is told.
func (c *clock) state(opponent *clock) *Clock {
	s := &Clock{Control: c.tc, Remaining: c.remaining}
	if c.tc.Base == 0 {
		s.Remaining = c.tc.MoveTime
	}
	if c.tc.Moves > 0 {
		s.MovesToGo = c.tc.Moves - c.moves%c.tc.Moves
	}
	if opponent != nil {
		s.Opponent = opponent.remaining
	}
	return s
}

// spend charges a move that took elapsed, and reports whether the flag fell.
func (c *clock) spend(elapsed time.Duration) (flagged bool) {
	if l, timed := c.limit(); timed && elapsed > l {
		return true
	}
	c.moves++
	if c.tc.Base > 0 {
		c.remaining += c.tc.Inc - elapsed
		if c.tc.Moves > 0 && c.moves%c.tc.Moves == 0 {
			c.remaining += c.tc.Base
		}
	}
	return false
}
