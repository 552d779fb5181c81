package archive

import (
	"fmt"
	"strings"
	"testing"
)

// TestParallelDamaged checks that damaged input reads the same in pieces
// with several goroutines as with one Reader.
func TestParallelDamaged(t *testing.T) {
	games := gamesText(12, "\n")
	games[3] = strings.Replace(games[3], `[Result "1-0"]`, `[Result "1-0]`, 1)
	games[7] = strings.Replace(games[7], "22-17", "22-17 { never closed", 1)
	games[9] = strings.Replace(games[9], `[Event "Game 10"]`, `[Event "Game 10`, 1)
	text := []byte(strings.Join(games, "") + "\"\n[[[")
	for _, strict := range []bool{false, true} {
		checkParallel(t, "damaged", strict, []int{1, 50, 300}, text)
	}
}

// TestParallelManyGames checks that an item of input with more games
// than a reading goroutine holds (maxItemGames) reads the same.
func TestParallelManyGames(t *testing.T) {
	text := []byte("1. 32-28 *\n" + strings.Repeat("*", maxItemGames+100) + "\n1. 33-28 *\n")
	checkParallel(t, "stars", false, []int{1 << 20}, text)
}

// gamesText returns n small games in the layout of the Open Checkers
// Archive: tags, a blank line, movetext with a comment over two lines, a
// blank line. sep goes between games instead of the blank line when set.
func gamesText(n int, sep string) []string {
	gs := make([]string, n)
	for i := range gs {
		gs[i] = fmt.Sprintf("[Event \"Game %d\"]\n[Date \"1965-07-%02d\"]\n[Result \"1-0\"]\n\n"+
			"1. 11-15 23-19 2. 8-11 {a comment\nover two lines, [with a bracket]} 22-17 3. 4-8 1-0\n%s",
			i+1, i%28+1, sep)
	}
	return gs
}
