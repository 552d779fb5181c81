package hub

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Level is the search limit sent with "level". The protocol's forms are "level
// depth=<max depth>", "level nodes=<max nodes>", "level move-time=<time per move>", "level
// [moves=<remaining moves>] time=<remaining time> [inc=<increment per move>]" and "level
// infinite"; "Time is measured in seconds (real number).  The various fields are the same
// as in UCI" (protocol.txt, "2) depth/node/time limit"). Scan reads them all from one line,
// so a Level may combine them; zero fields are not sent.
type Level struct {
	Depth    int           // maximum depth in plies
	Nodes    int64         // maximum nodes (Scan 3.1; Scan 3.0 ignores it, Hub-1 has none)
	MoveTime time.Duration // time for this move
	// Moves, Time and Inc are a game clock: the moves left to the next time control (0: the
	// rest of the game), the time left on the clock, and the increment added before every
	// move ("the increment is added before every move", protocol.txt).
	Moves     int
	Time, Inc time.Duration
	// Infinite searches until stopped.
	Infinite bool
}

// clock reports whether l sets a game clock.
func (l Level) clock() bool { return l.Moves > 0 || l.Time > 0 || l.Inc > 0 }

// isZero reports whether l sets no limit at all.
func (l Level) isZero() bool { return l == Level{} }

// message returns the "level" line for l.
func (l Level) message() Message {
	m := Message{Command: "level"}
	add := func(k, v string) { m.Args = append(m.Args, Arg{Key: k, Value: v, HasValue: true}) }
	if l.Depth > 0 {
		add("depth", strconv.Itoa(l.Depth))
	}
	if l.Nodes > 0 {
		add("nodes", strconv.FormatInt(l.Nodes, 10))
	}
	if l.MoveTime > 0 {
		add("move-time", seconds(l.MoveTime))
	}
	if l.clock() {
		if l.Moves > 0 {
			add("moves", strconv.Itoa(l.Moves))
		}
		// always sent with a clock: Scan 3.1 takes 30 s when time= is missing (main.cpp)
		add("time", seconds(l.Time))
		if l.Inc > 0 {
			add("inc", seconds(l.Inc))
		}
	}
	if l.Infinite {
		m = m.flag("infinite")
	}
	return m
}

// seconds writes d in seconds with millisecond precision, as Scan writes times.
func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }

// parseSeconds reads a non-negative number of seconds.
func parseSeconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f*1e9 >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is not a number of seconds", s)
	}
	return time.Duration(f * 1e9), nil
}

// parseCount reads a non-negative integer.
func parseCount(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a non-negative integer", s)
	}
	return n, nil
}

// update sets the fields m's arguments give, leaving the others, as Scan does with
// several "level" lines; unknown arguments are ignored.
func (l *Level) update(m Message) error {
	var errs []string
	for _, a := range m.Args {
		var err error
		var n int64
		switch a.Key {
		case "depth":
			n, err = parseCount(a.Value)
			if err == nil && n > math.MaxInt32 {
				err = fmt.Errorf("depth %s is too large", a.Value)
			}
			l.Depth = int(n)
		case "nodes":
			l.Nodes, err = parseCount(a.Value)
		case "move-time":
			l.MoveTime, err = parseSeconds(a.Value)
		case "moves":
			n, err = parseCount(a.Value)
			if err == nil && n > math.MaxInt32 {
				err = fmt.Errorf("moves %s is too large", a.Value)
			}
			l.Moves = int(n)
		case "time":
			l.Time, err = parseSeconds(a.Value)
		case "inc":
			l.Inc, err = parseSeconds(a.Value)
		case "infinite":
			l.Infinite = true
		}
		if err != nil {
			errs = append(errs, a.Key+": "+err.Error())
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// Info is what the engine last reported in "info": "Scan's "info" contains: depth, average
// leaf depth (real number), score in "men" (real number), number of nodes (64-bit
// integer), time in seconds (real number), speed in MNPS (real number), PV (in double quotes
// because moves are separated by spaces)" (protocol.txt, "4) the engine is searching"), as
// depth=, mean-depth=, score=, nodes=, time=, nps= and pv=. Fields the engine leaves out
// stay zero; HasScore tells a missing score from 0.00.
type Info struct {
	Depth     int
	MeanDepth float64
	Score     float64 // in men, from the side to move's point of view
	HasScore  bool
	Nodes     int64
	PV        string // moves in Hub notation separated by spaces
	Time      time.Duration
}

// parseInfo reads an "info" line leniently: a field that does not parse is left out, as
// information lines are only informative.
func parseInfo(m Message) Info {
	var in Info
	for _, a := range m.Args {
		switch a.Key {
		case "depth":
			if n, err := parseCount(a.Value); err == nil && n <= math.MaxInt32 {
				in.Depth = int(n)
			}
		case "mean-depth":
			if f, err := strconv.ParseFloat(a.Value, 64); err == nil {
				in.MeanDepth = f
			}
		case "score":
			if f, err := strconv.ParseFloat(a.Value, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
				in.Score, in.HasScore = f, true
			}
		case "nodes":
			if n, err := parseCount(a.Value); err == nil {
				in.Nodes = n
			}
		case "time":
			if d, err := parseSeconds(a.Value); err == nil {
				in.Time = d
			}
		case "pv":
			in.PV = a.Value
		}
	}
	return in
}

// message returns the "info" line for in, with the fields that are set.
func (in Info) message() Message {
	m := Message{Command: "info"}
	add := func(k, v string) { m.Args = append(m.Args, Arg{Key: k, Value: v, HasValue: true}) }
	if in.Depth > 0 {
		add("depth", strconv.Itoa(in.Depth))
	}
	if in.MeanDepth > 0 {
		add("mean-depth", strconv.FormatFloat(in.MeanDepth, 'f', 1, 64))
	}
	if in.HasScore {
		add("score", strconv.FormatFloat(in.Score, 'f', 2, 64))
	}
	if in.Nodes > 0 {
		add("nodes", strconv.FormatInt(in.Nodes, 10))
	}
	if in.Time > 0 {
		add("time", seconds(in.Time))
	}
	if in.PV != "" {
		add("pv", in.PV)
	}
	return m
}
