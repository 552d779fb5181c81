package archive

import "testing"

func TestTransformFilterDedupe(t *testing.T) {
	in := "[Event \"Club\"]\n[White \"Ann\"]\n1. 32-28! {c} $1 (1. 33-28 {v}) 19-23 2-0\n" +
		"[Event \"Open\"]\n{x} 1. 32-28 19-23 (1... 18-23) 0-2\n"
	gs, _ := readAll(t, in)
	if moveHash(gs[0]) != moveHash(gs[1]) {
		t.Errorf("moveHash differs for games with the same moves")
	}
	var d Deduper
	if d.Duplicate(gs[0]) || !d.Duplicate(gs[1]) {
		t.Errorf("Deduper: want the second game to be a duplicate of the first")
	}
	Transform{DropComments: true, DropVariations: true, DropNAGs: true}.Apply(gs[0])
	if got := canon(t, gs[:1]); got != "[Event \"Club\"]\n[White \"Ann\"]\n\n1. 32-28 19-23 2-0" {
		t.Errorf("Transform: got %q", got)
	}
	Transform{DropComments: true}.Apply(gs[1])
	if got := canon(t, gs[1:]); got != "[Event \"Open\"]\n\n1. 32-28 19-23 (1... 18-23) 0-2" {
		t.Errorf("Transform DropComments: got %q", got)
	}
	tests := []struct {
		f    Filter
		want []bool
	}{
		{Filter{}, []bool{true, true}},
		{Filter{Tags: []TagMatch{mustMatch(t, "Event~^Cl")}}, []bool{true, false}},
		{Filter{Tags: []TagMatch{mustMatch(t, "White=Ann")}}, []bool{true, false}},
		{Filter{Results: []string{"0-2", "1-1"}}, []bool{false, true}},
		{Filter{MinPlies: 3}, []bool{false, false}},
		{Filter{MaxPlies: 2}, []bool{true, true}},
	}
	for i, tc := range tests {
		for j, g := range gs {
			if got := tc.f.Match(g); got != tc.want[j] {
				t.Errorf("filter %d %+v on game %d: %v, want %v", i, tc.f, j+1, got, tc.want[j])
			}
		}
	}
	if _, err := ParseTagMatch("Event~("); err == nil {
		t.Errorf("ParseTagMatch with a bad regexp: no error")
	}
}

func mustMatch(t *testing.T, s string) TagMatch {
	m, err := ParseTagMatch(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestStatsReport(t *testing.T) {
	s := NewStats()
	for i, in := range []string{"32-28 *", "32-28 19-23 *", "33-28 19-23 28x19 *", "[GameType \"21\"] 9-13 22-18 18x9 5x14 1-0"} {
		gs, _ := readAll(t, in)
		s.addTagged(gs[0], false)
		_ = i
	}
	r := s.Report(1)
	if r.Games != 4 || r.MinPlies != 1 || r.MedianPlies != 2 || r.MaxPlies != 4 {
		t.Errorf("plies min/median/max = %d/%d/%d over %d games, want 1/2/4 over 4", r.MinPlies, r.MedianPlies, r.MaxPlies, r.Games)
	}
	if len(r.FirstMoves) != 1 || r.FirstMoves[0] != (Count{"32-28", 2}) {
		t.Errorf("first moves = %v, want [{32-28 2}]", r.FirstMoves)
	}
	want := []Count{{"no GameType tag", 3}, {"21 (english)", 1}}
	if len(r.Variants) != 2 || r.Variants[0] != want[0] || r.Variants[1] != want[1] {
		t.Errorf("variants = %v, want %v", r.Variants, want)
	}
}
