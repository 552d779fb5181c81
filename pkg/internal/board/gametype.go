package board

// pdnGameTypes names the GameType numbers of the PDN 3.0 GameType table
// (pdn.fmjd.org), including those of games the engine does not play.
var pdnGameTypes = map[int]string{
	0: "chess", 20: "international", 21: "english", 22: "italian", 23: "american pool",
	24: "spanish", 25: "russian", 26: "brazilian", 27: "canadian", 28: "portuguese",
	29: "czech", 30: "turkish", 31: "thai", 40: "frisian", 41: "spantsiretti",
}

// GameTypeName returns the name of the game PDN GameType n stands for: the
// PDN 3.0 table's name, else the name of the variant registered under n
// (lidraughts' 96-98, which the table lacks), else "".
func GameTypeName(n int) string {
	if name, ok := pdnGameTypes[n]; ok {
		return name
	}
	if v, ok := byGameType[n]; ok {
		return v.Name
	}
	return ""
}
