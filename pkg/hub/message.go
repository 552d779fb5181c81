package hub

import (
	"fmt"
	"strings"
)

// Arg is one argument of a Message: key=value, or a flag (a key without a value).
type Arg struct {
	Key   string
	Value string
	// HasValue is false for a flag such as "think" in "go think".
	HasValue bool
}

// Message is one protocol line: a command and its arguments, in order.
type Message struct {
	Command string
	Args    []Arg
}

// SyntaxError is a line that does not follow the Hub syntax.
type SyntaxError struct {
	Line   string
	Column int // 1-based byte column of the problem
	Msg    string
}

// Error describes the line, the column and the problem.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("hub: malformed line %q: column %d: %s", e.Line, e.Column, e.Msg)
}

// The grammar follows the protocol text ("All lines ... have the form <command> <arg>=<val>
// <arg>=<val> ...  Values can be quoted with double quotes.  It is in fact required if they
// contain a special character (such as a space or '=') or are empty", protocol.txt, Hub
// protocol version 2) and, where the text is silent, Scan 3.1's reader (hub.cpp, Scanner):
// blanks are the C isspace characters; a name is a run of characters that are neither
// blanks, control characters, '=' nor '"'; blanks may surround '='; a quoted value runs to
// the next '"' (there is no escape). A line break inside quotes is rejected as well, so that
// every parsed value can be written on one line again.

// isBlank reports whether c is a C isspace character.
func isBlank(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// isNameChar reports whether c may appear in a name or an unquoted value.
func isNameChar(c byte) bool {
	return c > ' ' && c != 0x7f && c != '=' && c != '"'
}

// Parse reads one line (without its line break). It never panics; a line that breaks the
// syntax (no command, an unterminated quote, a key without a name, "key=" with no value)
// gives a *SyntaxError.
func Parse(line string) (Message, error) {
	p := parser{s: line}
	var m Message
	p.skipBlanks()
	if p.end() {
		return Message{}, p.fail("missing command")
	}
	cmd, err := p.name("command")
	if err != nil {
		return Message{}, err
	}
	m.Command = cmd
	for {
		p.skipBlanks()
		if p.end() {
			return m, nil
		}
		key, err := p.name("argument name")
		if err != nil {
			return Message{}, err
		}
		arg := Arg{Key: key}
		p.skipBlanks()
		if !p.end() && p.s[p.i] == '=' {
			p.i++
			p.skipBlanks()
			if arg.Value, err = p.value(); err != nil {
				return Message{}, err
			}
			arg.HasValue = true
		}
		m.Args = append(m.Args, arg)
	}
}

// parser walks one line.
type parser struct {
	s string
	i int
}

func (p *parser) end() bool { return p.i >= len(p.s) }

func (p *parser) skipBlanks() {
	for !p.end() && isBlank(p.s[p.i]) {
		p.i++
	}
}

func (p *parser) fail(msg string) error {
	return &SyntaxError{Line: p.s, Column: p.i + 1, Msg: msg}
}

// name reads a non-empty run of name characters; what says what was expected.
func (p *parser) name(what string) (string, error) {
	start := p.i
	for !p.end() && isNameChar(p.s[p.i]) {
		p.i++
	}
	if p.i == start {
		if p.end() {
			return "", p.fail("missing " + what)
		}
		return "", p.fail(fmt.Sprintf("missing %s (found %q)", what, p.s[p.i]))
	}
	return p.s[start:p.i], nil
}

// value reads a quoted or a bare value after '='.
func (p *parser) value() (string, error) {
	if p.end() || p.s[p.i] != '"' {
		return p.name("value after '='")
	}
	start := p.i
	p.i++
	for !p.end() && p.s[p.i] != '"' {
		if p.s[p.i] == '\n' || p.s[p.i] == '\r' {
			return "", p.fail("line break inside a quoted value")
		}
		p.i++
	}
	if p.end() {
		p.i = start
		return "", p.fail("unterminated quoted value")
	}
	p.i++
	return p.s[start+1 : p.i-1], nil
}

// String writes m as one line. A value is quoted when it is empty or holds a character
// that is not allowed in a bare value. The protocol has no escape for a double quote inside
// a quoted value: String writes it (and a Go-escaped \") as a single quote, and a line
// break as a space.
func (m Message) String() string {
	var b strings.Builder
	b.WriteString(m.Command)
	for _, a := range m.Args {
		b.WriteByte(' ')
		b.WriteString(a.Key)
		if !a.HasValue {
			continue
		}
		b.WriteByte('=')
		b.WriteString(quote(a.Value))
	}
	return b.String()
}

// quote returns v as a bare or a quoted value.
func quote(v string) string {
	bare := v != ""
	for i := 0; i < len(v); i++ {
		if !isNameChar(v[i]) {
			bare = false
			break
		}
	}
	if bare {
		return v
	}
	v = strings.NewReplacer(`\"`, `'`, `"`, `'`, "\n", " ", "\r", " ").Replace(v)
	return `"` + v + `"`
}

// Get returns the value of the first argument named key, and whether there is one. A flag
// has the empty value.
func (m Message) Get(key string) (string, bool) {
	for _, a := range m.Args {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

// Has reports whether m has an argument (a flag or a key=value) named key.
func (m Message) Has(key string) bool {
	_, ok := m.Get(key)
	return ok
}

// newMessage builds a message from a command and key, value pairs.
func newMessage(cmd string, kv ...string) Message {
	m := Message{Command: cmd}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Args = append(m.Args, Arg{Key: kv[i], Value: kv[i+1], HasValue: true})
	}
	return m
}

// flag appends a flag argument to m.
func (m Message) flag(key string) Message {
	m.Args = append(m.Args, Arg{Key: key})
	return m
}
