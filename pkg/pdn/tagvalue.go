package pdn

import (
	"fmt"
	"strconv"
	"strings"
)

// gameTypeBoards is the board (width x height) of each GameType number
// whose board PDN 3.0 fixes (pdn.fmjd.org, github.com/wiegerw/pdn at
// commit e8fd04c, section 7; docs/rules.md#sources), and of the
// lidraughts numbers 96-98 (10x10
// boards).
var gameTypeBoards = map[int][2]int{
	0: {8, 8}, 20: {10, 10}, 21: {8, 8}, 22: {8, 8}, 23: {8, 8}, 24: {8, 8},
	25: {8, 8}, 26: {8, 8}, 27: {12, 12}, 28: {8, 8}, 29: {8, 8}, 30: {8, 8},
	31: {8, 8}, 40: {10, 10}, 41: {10, 8}, 96: {10, 10}, 97: {10, 10}, 98: {10, 10},
}

// checkGameType checks a GameType value against the PDN 3.0 syntax
// Type[,StartColour,Width,Height,Notation[,Invert]] (the regular
// expression [0-9]+(,[WB],[0-9]+,[0-9]+,[ANS][0123](,[01])?)?) and the
// board of a known type. It returns what is wrong, or "". A notation
// that contradicts the type (kurnik's 20,W,10,10,N1,0) is allowed: the
// type number decides.
func checkGameType(v string) string {
	f := strings.Split(strings.TrimSpace(v), ",")
	typ, err := strconv.Atoi(f[0])
	if err != nil || typ < 0 || f[0][0] == '+' {
		return fmt.Sprintf("GameType %q: type %q is not a number", v, f[0])
	}
	if len(f) == 1 {
		return ""
	}
	if len(f) != 5 && len(f) != 6 {
		return fmt.Sprintf("GameType %q: %d fields, want the type alone or type,colour,width,height,notation[,invert]", v, len(f))
	}
	var probs []string
	if f[1] != "W" && f[1] != "B" {
		probs = append(probs, fmt.Sprintf("start colour %q is not W or B", f[1]))
	}
	w, errW := strconv.Atoi(f[2])
	h, errH := strconv.Atoi(f[3])
	switch {
	case errW != nil || errH != nil || w <= 0 || h <= 0:
		probs = append(probs, fmt.Sprintf("board %sx%s is not a size", f[2], f[3]))
	default:
		if b, ok := gameTypeBoards[typ]; ok && (w != b[0] || h != b[1]) {
			probs = append(probs, fmt.Sprintf("board %dx%d, but type %d is played on %dx%d", w, h, typ, b[0], b[1]))
		}
	}
	if n := f[4]; len(n) != 2 || !strings.ContainsRune("ANS", rune(n[0])) || n[1] < '0' || n[1] > '3' {
		probs = append(probs, fmt.Sprintf("notation %q is not A, N or S and a digit 0-3", n))
	}
	if len(f) == 6 && f[5] != "0" && f[5] != "1" {
		probs = append(probs, fmt.Sprintf("invert flag %q is not 0 or 1", f[5]))
	}
	if len(probs) == 0 {
		return ""
	}
	return fmt.Sprintf("GameType %q: %s", v, strings.Join(probs, "; "))
}
