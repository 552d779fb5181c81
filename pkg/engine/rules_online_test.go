package engine_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// The variants of Hub engines and lidraughts (killer, breakthrough, antidraughts, frysk):
// one case per rule each adds to the variant it is built on (docs/variants.md).

// TestRulesKiller: a king whose capture ends with a king stops right behind it; nothing
// else changes. The long diagonal is 46-41-37-32-28-23-19-14-10-5.
func TestRulesKiller(t *testing.T) {
	for _, tc := range []struct {
		rule, fen             string
		killer, international []string
	}{
		{"the last piece taken is a king: right behind it", "W:WK46:BK28",
			[]string{"46x23"}, []string{"46x10", "46x14", "46x19", "46x23", "46x5"}},
		{"the last piece taken is a man: anywhere behind it", "W:WK46:BK37,19",
			[]string{"46x10", "46x14", "46x5"}, []string{"46x10", "46x14", "46x5"}},
		{"a king taken before the last: anywhere behind, then right behind the last king", "W:WK46:B37,K19",
			[]string{"46x14"}, []string{"46x10", "46x14", "46x5"}},
		// After the king on 37 the king must land on 28, beyond the square right behind
		// (32), to go on over 22: the rule restricts where the capture ends, and stopping on
		// 32 would take one piece where two can be taken.
		{"landing beyond a king to go on capturing", "W:WK46:BK37,22",
			[]string{"46x11", "46x17", "46x6"}, []string{"46x11", "46x17", "46x6"}},
		{"a man takes a king as before", "W:W33:BK28", []string{"33x22"}, []string{"33x22"}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			if got := legal(t, engine.MustLookup("killer"), tc.fen); !slices.Equal(got, tc.killer) {
				t.Errorf("killer: legal moves of %q = %v, want %v", tc.fen, got, tc.killer)
			}
			if got := legal(t, engine.MustLookup("international"), tc.fen); !slices.Equal(got, tc.international) {
				t.Errorf("international: legal moves of %q = %v, want %v", tc.fen, got, tc.international)
			}
		})
	}
}

// TestRulesBreakthrough: the first king wins; a man that only passes the far row during a
// capture is not crowned, and the game goes on.
func TestRulesBreakthrough(t *testing.T) {
	v := engine.MustLookup("breakthrough")
	_, g := gameFrom(t, "breakthrough", "W:W6:B45")
	if _, err := g.PlayText("6-1"); err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	if o := g.Outcome(); !o.Over || o.Draw || o.Winner != engine.White || o.Reason != "promotion" {
		t.Errorf("after 6-1: %v, want white wins (promotion)", o)
	}
	if n := len(v.Generate(nil, &p)); n != 0 || v.HasMoves(&p) || v.HasCapture(&p) || v.Count(&p, engine.Unique, nil) != 0 {
		t.Errorf("after 6-1: %d moves, HasMoves %v: the game is over", n, v.HasMoves(&p))
	}
	// 13x9 reaches square 4 on the far row and goes on over 10 to 15: still a man
	_, g = gameFrom(t, "breakthrough", "W:W13:B9,10,45")
	if _, err := g.PlayText("13x15"); err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); o.Over {
		t.Errorf("after 13x15 (a man passing the far row): %v, want the game going on", o)
	}
	// no move still loses, and nothing draws
	_, g = gameFrom(t, "breakthrough", "W:W6:B1")
	if o := g.Outcome(); !o.Over || o.Winner != engine.Black || o.Reason != "no-legal-move" {
		t.Errorf("blocked: %v, want black wins (no-legal-move)", o)
	}
	if d := v.Draw; !reflect.DeepEqual(d, engine.DrawRules{}) {
		t.Errorf("breakthrough has draw rules %+v; there are no draws in breakthrough", d)
	}
}

// TestRulesAntidraughts: a side with no legal move wins, by having no piece left or by
// being blocked.
func TestRulesAntidraughts(t *testing.T) {
	_, g := gameFrom(t, "antidraughts", "B:W28:B23")
	if _, err := g.PlayText("23x32"); err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); !o.Over || o.Draw || o.Winner != engine.White || o.Reason != "no-legal-move" {
		t.Errorf("white has lost its last piece: %v, want white wins (no-legal-move)", o)
	}
	_, g = gameFrom(t, "antidraughts", "W:W6:B1,45")
	if o := g.Outcome(); !o.Over || o.Winner != engine.White {
		t.Errorf("white blocked: %v, want white wins", o)
	}
}

// TestRulesFrysk: frisian's rules from five men each on the back row.
func TestRulesFrysk(t *testing.T) {
	v := engine.MustLookup("frysk")
	if got, want := v.FEN(v.Start()), "W:W46,47,48,49,50:B1,2,3,4,5"; got != want {
		t.Errorf("frysk start %s, want %s", got, want)
	}
	if fr, _ := engine.Lookup("frisian"); fr.Name != "frisian" {
		t.Errorf("Lookup(frisian) = %s", fr.Name)
	}
}

// TestRulesDerived: each new variant is the variant it is built on but for the fields that
// make it different, so that a later change to one reaches the other or fails here.
func TestRulesDerived(t *testing.T) {
	for _, tc := range []struct {
		variant, base string
		differ        []string
	}{
		{"killer", "international", []string{"HaltBehindKing"}},
		{"breakthrough", "international", []string{"PromotionWins", "Draw"}},
		{"antidraughts", "international", []string{"NoMoveWins", "Draw"}},
		{"frysk", "frisian", []string{"Rows", "PerftDuplicates"}},
		{"armenian", "turkish", []string{"DiagonalSteps", "Draw"}},
	} {
		a := reflect.ValueOf(engine.MustLookup(tc.variant).Rules)
		b := reflect.ValueOf(engine.MustLookup(tc.base).Rules)
		for i := range a.NumField() {
			name := a.Type().Field(i).Name
			if name == "Name" || name == "Aliases" || name == "GameType" {
				continue
			}
			if same, want := sameValue(a.Field(i), b.Field(i)), !slices.Contains(tc.differ, name); same != want {
				t.Errorf("%s against %s: %s the same = %v, want %v", tc.variant, tc.base, name, same, want)
			}
		}
	}
}

// sameValue compares two values of a Rules field: functions by their code, and the
// conditions of special endings (closures) by their value on every material of up to
// three men and three kings a side.
func sameValue(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Func:
		if fa, ok := a.Interface().(func(engine.Material) (bool, engine.Color)); ok {
			fb := b.Interface().(func(engine.Material) (bool, engine.Color))
			for i := range 4 * 4 * 4 * 4 {
				m := engine.Material{Men: [2]int{i % 4, i / 4 % 4}, Kings: [2]int{i / 16 % 4, i / 64}}
				ha, sa := fa(m)
				hb, sb := fb(m)
				if ha != hb || ha && sa != sb {
					return false
				}
			}
			return true
		}
		return a.Pointer() == b.Pointer()
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return a.Interface() == b.Interface()
}

// TestHubNames: Scan's names for its variants are aliases (pkg/hub maps them both ways).
func TestHubNames(t *testing.T) {
	for alias, name := range map[string]string{"killer": "killer", "bt": "breakthrough", "losing": "antidraughts",
		"frisian": "frisian", "frysk!": "frysk", "96": "breakthrough", "97": "frysk", "98": "antidraughts"} {
		if v, err := engine.Lookup(alias); err != nil || v.Name != name {
			t.Errorf("Lookup(%q) = %v, %v; want %s", alias, v, err, name)
		}
	}
}
