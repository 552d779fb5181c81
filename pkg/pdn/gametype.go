package pdn

import (
	"strconv"
	"strings"
)

// gameTypeNames names the GameType numbers of PDN 3.0 (and lidraughts'
// 96-98), from the PDN 3.0 GameType table (pdn.fmjd.org).
var gameTypeNames = map[int]string{
	0: "chess", 20: "international", 21: "english", 22: "italian", 23: "american pool",
	24: "spanish", 25: "russian", 26: "brazilian", 27: "canadian", 28: "portuguese",
	29: "czech", 30: "turkish", 31: "thai", 40: "frisian", 41: "spantsiretti",
	96: "breakthrough", 97: "frysk", 98: "antidraughts",
}

// VariantName describes a GameType tag value: "20 (international)", or
// "no GameType tag" when the tag is missing.
func VariantName(gameType string) string {
	v := strings.TrimSpace(gameType)
	if v == "" {
		return "no GameType tag"
	}
	num := v
	if i := strings.IndexByte(v, ','); i >= 0 {
		num = v[:i]
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return v
	}
	if name, ok := gameTypeNames[n]; ok {
		return v + " (" + name + ")"
	}
	return v
}
