package pdn

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// logVisitor records every hook call as a line.
type logVisitor struct {
	log                     []string
	skipGame, skipVariation int // game number to skip / depth of variations to skip
	stopAfter               int // stop after this game
}

func (v *logVisitor) add(format string, args ...any) {
	v.log = append(v.log, fmt.Sprintf(format, args...))
}

func (v *logVisitor) BeginGame(n int, p Pos) Action {
	v.add("game %d at %v", n, p)
	if n == v.skipGame {
		return Skip
	}
	return Continue
}
func (v *logVisitor) Tag(name, value string) Action { v.add("tag %s=%s", name, value); return Continue }
func (v *logVisitor) Move(m *Move, p Pos, d int) Action {
	v.add("move %d %s%s %d@%v", m.Number, m.Text, m.Strength, d, p)
	return Continue
}
func (v *logVisitor) Comment(s string, p Pos, d int) Action {
	v.add("comment %s %d", s, d)
	return Continue
}
func (v *logVisitor) NAG(n int, p Pos, d int) Action { v.add("nag %d %d", n, d); return Continue }
func (v *logVisitor) Setup(s string, p Pos, d int) Action {
	v.add("setup %s %d", s, d)
	return Continue
}
func (v *logVisitor) BeginVariation(d int) Action {
	v.add("( %d", d)
	if d == v.skipVariation {
		return Skip
	}
	return Continue
}
func (v *logVisitor) EndVariation(d int) { v.add(") %d", d) }
func (v *logVisitor) EndGame(g *Game, err error) Action {
	v.add("end %s tags=%d warnings=%d err=%v", g.Result, len(g.Tags), len(g.Warnings), err != nil)
	if v.stopAfter > 0 && len(v.log) > 0 && strings.HasPrefix(v.log[0], "game") && v.countGames() == v.stopAfter {
		return Stop
	}
	return Continue
}
func (v *logVisitor) countGames() int {
	n := 0
	for _, l := range v.log {
		if strings.HasPrefix(l, "game ") {
			n++
		}
	}
	return n
}

// gameLog is what logVisitor would record for games built by Next.
func gameLog(gs []*Game, errs map[int]bool) []string {
	v := &logVisitor{}
	var nodes func(ns []Node, d int)
	nodes = func(ns []Node, d int) {
		for _, n := range ns {
			switch n.Kind {
			case MoveNode:
				v.Move(n.Move, n.Pos, d)
			case CommentNode:
				v.Comment(n.Text, n.Pos, d)
			case NAGNode:
				v.NAG(int(n.NAG), n.Pos, d)
			case SetupNode:
				v.Setup(n.Text, n.Pos, d)
			case VariationNode:
				v.BeginVariation(d + 1)
				nodes(n.Variation, d+1)
				v.EndVariation(d + 1)
			}
		}
	}
	for i, g := range gs {
		v.BeginGame(i+1, g.Pos)
		for _, t := range g.Tags {
			v.Tag(t.Name, t.Value)
		}
		nodes(g.Moves, 0)
		v.add("end %s tags=%d warnings=%d err=%v", g.Result, len(g.Tags), len(g.Warnings), errs[i])
	}
	return v.log
}

func TestWalkMatchesNext(t *testing.T) {
	for _, path := range []string{"testdata/quirks.pdn", "testdata/crlf.pdn"} {
		gs, _ := readFile(t, path, false)
		want := gameLog(gs, map[int]bool{})
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		v := &logVisitor{}
		if err := Walk(f, v); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if got := strings.Join(v.log, "\n"); got != strings.Join(want, "\n") {
			t.Errorf("Walk(%s):\n%s\nwant (from Next):\n%s", path, got, strings.Join(want, "\n"))
		}
	}
}

func TestWalkSkipStop(t *testing.T) {
	in := "[Event \"1\"] 1. 32-28 (1. 33-28 (1. 34-29)) 19-23 *\n[Event \"2\"] 1. 31-27 *\n[Event \"3\"] 1. 31-26 *"
	v := &logVisitor{skipGame: 2, skipVariation: 2, stopAfter: 2}
	if err := Walk(strings.NewReader(in), v); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"game 1 at 1:1", "tag Event=1", "move 1 32-28 0@1:16", "( 1", "move 1 33-28 1@1:26", "( 2", ") 1",
		"move 0 19-23 0@1:44", "end * tags=1 warnings=0 err=false",
		"game 2 at 2:1", "end * tags=1 warnings=0 err=false",
	}
	if got := strings.Join(v.log, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("Walk with skips:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// BenchmarkWalk walks the Open Checkers Archive counting moves.
func BenchmarkWalk(b *testing.B) {
	data := loadOCA(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		c := &moveCounter{}
		if err := Walk(bytes.NewReader(data), c); err != nil {
			b.Fatal(err)
		}
		if c.moves != 1158096 {
			b.Fatalf("counted %d moves, want 1158096", c.moves)
		}
	}
}

type moveCounter struct {
	BaseVisitor
	moves int
}

func (c *moveCounter) Move(m *Move, p Pos, d int) Action {
	if d == 0 {
		c.moves++
	}
	return Continue
}
