package stats

import (
	"math"
	"testing"
)

// TestLOSMatrix: two players give the normal approximation of their one difference,
// Φ(d / se(d)), with se(d) Rate's standard error; the matrix is complementary
// (los[i][j] + los[j][i] = 1) and does not depend on the anchor; players who never met (a
// gauntlet's references) are compared through the first player.
func TestLOSMatrix(t *testing.T) {
	two := [][]WDL{{{}, {Wins: 30, Draws: 40, Losses: 20}}, {{}, {}}}
	r, err := Rate(two, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	los, err := LOSMatrix(two, r)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.5 * math.Erfc(-(r[0].Elo-r[1].Elo)/r[1].StdErr/math.Sqrt2)
	if math.Abs(los[0][1]-want) > 1e-12 || math.Abs(los[0][1]+los[1][0]-1) > 1e-12 || los[0][1] <= 0.5 {
		t.Errorf("los %v, want [0][1] = %v", los, want)
	}

	// a gauntlet: 0 against 1, 2, 3, who never meet
	g := [][]WDL{
		{{}, {Wins: 20, Draws: 50, Losses: 30}, {Wins: 40, Draws: 40, Losses: 20}, {Wins: 30, Draws: 40, Losses: 30}},
		{{}, {}, {}, {}}, {{}, {}, {}, {}}, {{}, {}, {}, {}},
	}
	var first [][]float64
	for anchor := range 4 {
		r, err := Rate(g, anchor, 1000)
		if err != nil {
			t.Fatal(err)
		}
		los, err := LOSMatrix(g, r)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = los
		}
		for i := range 4 {
			for j := range 4 {
				if math.Abs(los[i][j]-first[i][j]) > 1e-9 || math.Abs(los[i][j]+los[j][i]-1) > 1e-12 {
					t.Errorf("anchor %d: los[%d][%d] = %v (anchor 0: %v), los[%d][%d] = %v", anchor, i, j, los[i][j], first[i][j], j, i, los[j][i])
				}
			}
		}
	}
	// 1 scored 45% against 0, 2 scored 40%: 1 is likely stronger than 2; with 1 anchored,
	// sd(R2 - R1) is Rate's standard error of R2
	if first[1][2] <= 0.5 {
		t.Errorf("los[1][2] = %v, want above 0.5", first[1][2])
	}
	r0, _ := Rate(g, 1, 0)
	if want := 0.5 * math.Erfc(-(r0[1].Elo-r0[2].Elo)/r0[2].StdErr/math.Sqrt2); math.Abs(first[1][2]-want) > 1e-9 {
		t.Errorf("los[1][2] = %v, want %v (Φ of the difference over R2's stderr with 1 anchored)", first[1][2], want)
	}
}
