package board

import "testing"

// TestKingRepeats checks repeatPieces for the kings of every variant whose kings manSearch
// searches: on its board, no two capture sequences of a king that take the same pieces, and
// fewer than repeatPieces, end on the same square. Other pieces only block a king's ways,
// so that the boards with the king and the pieces it takes alone hold every such pair; the
// sequences are listed with every capture order (Keep). In short mode, the boards of more
// than 50 squares are left out (canadian: 4.1 million positions).
func TestKingRepeats(t *testing.T) {
	for _, v := range Variants() {
		if !v.kingSearch || testing.Short() && v.squares > 50 {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			var squares []Index
			for i := Index(0); i < maxIndex; i++ {
				if v.sq[i] != 0 {
					squares = append(squares, i)
				}
			}
			var moves []Move
			// place puts n of the other side's men on the free squares from squares[from] on,
			// in every way, and checks each position's captures
			var place func(p Position, from, n int)
			place = func(p Position, from, n int) {
				if n == 0 {
					moves = v.GenerateDup(moves[:0], &p, Keep)
					for i, m := range moves {
						for _, o := range moves[:i] {
							if o == m {
								t.Fatalf("%s: %s twice", v.FEN(p), v.formatRaw(m))
							}
						}
					}
					return
				}
				for j := from; j < len(squares); j++ {
					if _, _, occupied := p.At(squares[j]); !occupied {
						q := p
						q.put(squares[j], Black, false)
						place(q, j+1, n-1)
					}
				}
			}
			for _, s := range squares {
				var p Position
				p.Side = White
				p.put(s, White, true)
				// every number of pieces: with more on the board, the precedence may
				// rank the sequences of fewer out of sight
				for n := 2; n < repeatPieces; n++ {
					place(p, 0, n)
				}
			}
		})
	}
}
