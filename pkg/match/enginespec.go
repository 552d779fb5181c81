package match

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/rafle/rafle/internal/shellwords"
)

// EngineSpec describes an external engine as selfplay's --engine flag gives it.
type EngineSpec struct {
	Name  string
	Proto string // "hub" (the default) or "dxp"
	// Cmd, Args and Dir start the engine: a Hub engine is started for each worker that
	// needs it, and again after it failed; a DXP engine with a Cmd is started once by the
	// command before the match.
	Cmd  string
	Args []string
	Dir  string
	// Options are set on a Hub engine after its handshake (set-param), in order.
	Options [][2]string
	// Addr is the host:port a DXP engine listens on.
	Addr string
	// Conns is how many games a DXP engine plays at once (1 unless it says otherwise).
	Conns int
	// Control is the engine's time control, kept by the match.
	Control TimeControl
}

// ParseEngineSpec reads an engine as the habits of cutechess and fastchess write it: comma-
// separated key=value pairs, a value in double quotes when it holds a comma (with \" and
// \\ inside):
//
//	name=NAME            required: the name in --players, the PDN and the tables
//	cmd=PATH             the program (required for Hub; for DXP, started before the match)
//	args="A B"           its arguments, split as a shell would
//	dir=DIR              its working directory
//	proto=hub|dxp        the protocol (default hub)
//	option.KEY=VALUE     a Hub parameter set after the handshake (repeatable)
//	host=H, port=N       where a DXP engine listens (default 127.0.0.1:27531)
//	conns=N              games a DXP engine plays at once (default 1)
//	tc=[MOVES/]SECONDS[+INC], st=SECONDS, depth=N, nodes=N, timemargin=MS, timeout=SECONDS
//	                     the time control (TimeControl.SetTimeControl)
//
// A Hub engine needs a limit: tc, st, depth or nodes. A DXP engine takes only a clock for
// the whole game in whole minutes (tc=60, tc=300: GAMEREQ's unit), or none. Errors are one line naming the pair.
func ParseEngineSpec(s string) (EngineSpec, error) {
	spec := EngineSpec{Proto: "hub", Conns: 1}
	pairs, err := splitPairs(s)
	if err != nil {
		return spec, fmt.Errorf("engine %q: %v", s, err)
	}
	bad := func(pair, format string, args ...any) (EngineSpec, error) {
		return spec, fmt.Errorf("engine %q: %q: %s", s, pair, fmt.Sprintf(format, args...))
	}
	seen := map[string]bool{}
	host, port := "127.0.0.1", "27531" // DXP's port (DamExchange protocol 1.0)
	for _, p := range pairs {
		key, val, ok := strings.Cut(p, "=")
		if !ok {
			return bad(p, "want key=value")
		}
		if seen[key] && !strings.HasPrefix(key, "option.") {
			return bad(p, "%s given twice", key)
		}
		seen[key] = true
		if ok, err := spec.Control.SetTimeControl(key, val); ok {
			if err != nil {
				return bad(p, "%v", err)
			}
			continue
		}
		switch key {
		case "name":
			if val == "" || strings.ContainsAny(val, ",\"") {
				return bad(p, "a name must be non-empty, without commas or quotes")
			}
			spec.Name = val
		case "cmd":
			spec.Cmd = val
		case "args":
			if spec.Args, err = shellwords.Split(val); err != nil {
				return bad(p, "%v", err)
			}
		case "dir":
			spec.Dir = val
		case "proto":
			if val != "hub" && val != "dxp" {
				return bad(p, "want proto=hub or proto=dxp")
			}
			spec.Proto = val
		case "host":
			host = val
		case "port":
			if n, err := strconv.Atoi(val); err != nil || n < 1 || n > 65535 {
				return bad(p, "want a port from 1 to 65535")
			}
			port = val
		case "conns":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > 1024 {
				return bad(p, "want a number of games from 1 to 1024")
			}
			spec.Conns = n
		default:
			name, ok := strings.CutPrefix(key, "option.")
			if !ok || name == "" {
				return bad(p, "unknown key %q (want name, cmd, args, dir, proto, option.NAME, host, port, conns, tc, st, depth, nodes, timemargin, timeout)", key)
			}
			spec.Options = append(spec.Options, [2]string{name, val})
		}
	}
	tc := &spec.Control
	switch {
	case spec.Name == "":
		return spec, fmt.Errorf("engine %q: needs name=", s)
	case spec.Proto == "hub" && spec.Cmd == "":
		return spec, fmt.Errorf("engine %q: needs cmd= (the engine's program)", s)
	case spec.Proto == "hub" && !tc.Timed() && tc.Depth == 0 && tc.Nodes == 0:
		return spec, fmt.Errorf("engine %q: needs a limit: tc=, st=, depth= or nodes=", s)
	case tc.Base > 0 && tc.MoveTime > 0:
		return spec, fmt.Errorf("engine %q: tc= and st= exclude each other", s)
	case spec.Proto == "hub" && (seen["host"] || seen["port"] || seen["conns"]):
		return spec, fmt.Errorf("engine %q: host=, port= and conns= are for proto=dxp", s)
	case spec.Proto == "dxp" && (len(spec.Options) > 0 || tc.Depth > 0 || tc.Nodes > 0):
		return spec, fmt.Errorf("engine %q: DXP has no engine options, depth or nodes (it sends a clock: use tc= or st=)", s)
	case spec.Proto == "dxp" && (tc.Moves > 0 || tc.Inc > 0):
		return spec, fmt.Errorf("engine %q: DXP has one clock for the whole game, without increment: tc=SECONDS", s)
	case spec.Proto == "dxp" && tc.MoveTime > 0:
		return spec, fmt.Errorf("engine %q: DXP has no time per move, only a clock for the whole game in whole minutes: use tc=SECONDS (60, 120, ...)", s)
	case spec.Proto == "dxp" && tc.Base > 0 && (tc.Base%time.Minute != 0 || tc.Base > maxDXPMinutes*time.Minute):
		// GAMEREQ's thinking time is a number of minutes, 1 to 999 (DamExchange protocol
		// 1.0, GAMEREQ): the engine would plan for another clock than the one rafle keeps
		return spec, fmt.Errorf("engine %q: tc=%s: DXP sends the game's time in whole minutes, 1 to %d: use a multiple of 60 seconds such as tc=%d",
			s, strconv.FormatFloat(tc.Base.Seconds(), 'f', -1, 64), maxDXPMinutes, min(max((tc.Base+time.Minute-1)/time.Minute, 1), maxDXPMinutes)*60)
	}
	if spec.Proto == "dxp" {
		spec.Addr = net.JoinHostPort(host, port)
	}
	return spec, nil
}

// splitPairs splits s at commas outside double quotes, removing the quotes.
func splitPairs(s string) ([]string, error) {
	var pairs []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && quoted && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
			i++
			cur.WriteByte(s[i])
		case c == ',' && !quoted:
			pairs = append(pairs, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	if quoted {
		return nil, fmt.Errorf("unterminated double quote")
	}
	pairs = append(pairs, strings.TrimSpace(cur.String()))
	for _, p := range pairs {
		if p == "" {
			return nil, fmt.Errorf("empty pair (two commas in a row, or a comma at the end)")
		}
	}
	return pairs, nil
}
