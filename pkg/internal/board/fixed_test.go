package board

import "testing"

// TestFixedRules checks the kernel of steps5, whose rules are constants (fixed): only the
// variants whose rules they are (plainFlying) get it, and what the kernel reads of them
// through fixed is what the Variant says; the other boards' kernels read the Variant.
func TestFixedRules(t *testing.T) {
	if !fixed[steps5]() || fixed[other5]() || fixed[steps4]() || fixed[steps6]() || fixed[anySteps]() {
		t.Fatal("fixed holds for another kernel than steps5's, or not for steps5's")
	}
	var plain []string
	for _, v := range Variants() {
		if !v.plainFlying {
			if v.geom.fixed {
				t.Errorf("%s: steps5's kernel without plainFlying", v.Name)
			}
			continue
		}
		plain = append(plain, v.Name)
		if v.step[upRight] != 5 || !v.geom.fixed || v.geom.step != 5 {
			t.Errorf("%s: plainFlying on a board of up-right step %d, kernel of step %d, not steps5's", v.Name, v.step[upRight], v.geom.step)
		}
		for c := White; c <= Black; c++ {
			if !v.manUp[c] || !v.manDown[c] {
				t.Errorf("%s: the men of %v do not capture both ways", v.Name, c)
			}
		}
		if v.MenCannotCaptureKings || v.ShortKings || v.OrthogonalCaptures || v.kingJumpRanked || v.PromotionWins {
			t.Errorf("%s: a rule fixed off is on", v.Name)
		}
		if !v.kingSearch || !v.plainLeaves || !v.flyingDiagonal() {
			t.Errorf("%s: a rule fixed on is off", v.Name)
		}
		if promotionOf(true, v) != v.Promotion || menCountOf(true, v) != v.menCount {
			t.Errorf("%s: promotion %v, men's count %v, not the fixed ones", v.Name, v.Promotion, v.menCount)
		}
	}
	if len(plain) == 0 || plain[0] != "international" {
		t.Errorf("plainFlying variants %v: international first expected", plain)
	}
	t.Logf("plainFlying: %v", plain)
}

// TestPut builds positions piece by piece and compares them with the FEN reader's, on a
// 64-bit board and on canadian's, whose squares go past index 63; and reads them back
// with Sets.
func TestPut(t *testing.T) {
	for _, tc := range []struct{ variant, fen string }{
		{"english", "B:W18,K32:B1,K14"},
		{"international", "W:W46,K3:BK50,12"},
		{"canadian", "W:W60,K72,15:B1,K71,40"},
	} {
		v := MustLookup(tc.variant)
		want, err := v.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		var got Position
		got.Side = want.Side
		for s := Square(1); int(s) <= v.Squares(); s++ {
			i, _ := v.Index(s)
			if c, king, ok := want.At(i); ok {
				got.Put(i, c, king)
			}
		}
		got.Hash = got.ComputeHash()
		if got != want {
			t.Errorf("%s: Put of %q's pieces gives %s, want %s", tc.variant, tc.fen, v.FEN(got), v.FEN(want))
		}
		// Sets: every piece in its sets, nothing else
		white, black, kings := want.Sets()
		for i := Index(0); i < maxIndex; i++ {
			in := func(s [2]uint64) bool { return s[i/64]>>(i%64)&1 != 0 }
			c, king, ok := want.At(i)
			if in(white) != (ok && c == White) || in(black) != (ok && c == Black) || in(kings) != (ok && king) {
				t.Errorf("%s %q: index %d: Sets says white %v black %v king %v, At says %v %v %v", tc.variant, tc.fen, i, in(white), in(black), in(kings), ok, c, king)
			}
		}
	}
}
