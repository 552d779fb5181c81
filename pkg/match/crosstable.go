package match

import (
	"fmt"

	"github.com/rafle/rafle/pkg/stats"
)

// CrossCell is the games of one player against another in the crosstable.
type CrossCell struct {
	Games  int     `json:"games"`
	Points float64 `json:"points"` // the row player's, a draw counting one half
}

// addCrosstable sets res.Crosstable from the table of results (table[a][b]: a's games
// against b, a < b), and res.LOS from it and the ratings, when there are ratings.
func (res *Result) addCrosstable(table [][]stats.WDL, ratings []stats.Rating) {
	n := len(table)
	res.Crosstable = make([][]CrossCell, n)
	for i := range res.Crosstable {
		res.Crosstable[i] = make([]CrossCell, n)
	}
	for a := range n {
		for b := range n {
			w := table[a][b]
			g := w.Games()
			if g == 0 {
				continue
			}
			res.Crosstable[a][b].Games += g
			res.Crosstable[a][b].Points += w.Points()
			res.Crosstable[b][a].Games += g
			res.Crosstable[b][a].Points += float64(g) - w.Points()
		}
	}
	if len(ratings) != n {
		return
	}
	los, err := stats.LOSMatrix(table, ratings)
	if err != nil {
		return // the ratings were fitted: only a table Rate accepted reaches here
	}
	res.LOS = los
}

// CrosstableTable is the crosstable: each player's points against each other, out of the
// games played ("" where two players did not meet), and the total.
func (r *Result) CrosstableTable() Table {
	t := Table{Header: append(append([]string{"Player"}, r.Players...), "Total")}
	for i, name := range r.Players {
		row := []string{name}
		var games int
		var points float64
		for j := range r.Players {
			c := r.Crosstable[i][j]
			games += c.Games
			points += c.Points
			cell := ""
			if c.Games > 0 {
				cell = fmt.Sprintf("%g/%d", c.Points, c.Games)
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, append(row, fmt.Sprintf("%g/%d", points, games)))
	}
	return t
}

// LOSTable is the likelihood of superiority of each row's player over each column's, from
// the ratings (stats.LOSMatrix).
func (r *Result) LOSTable() Table {
	t := Table{Header: append([]string{"LOS"}, r.Players...)}
	for i, name := range r.Players {
		row := []string{name}
		for j := range r.Players {
			cell := ""
			if i != j {
				cell = percent(r.LOS[i][j])
			}
			row = append(row, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
