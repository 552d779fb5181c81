package pdn

import "strings"

// Tag names as exporters write them: checked against the PDN grammar,
// localised names mapped to the standard ones, HTML entities decoded.

// isIdent reports whether s matches [A-Z][A-Za-z0-9_]*.
func isIdent(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// localizedTags maps tag names seen in localised exports to the standard
// names: Italian FID software (W/succeed/Campionato Assoluto 2005.pdn)
// and French TurboDambase exports (Yodachess games(19).pdn).
var localizedTags = map[string]string{
	"Dati":               "Event",
	"Bianco":             "White",
	"Nero":               "Black",
	"Risultato":          "Result",
	"Luogo":              "Site",
	"Turno":              "Round",
	"Événement":          "Event",
	"Evenement":          "Event",
	"Blanc":              "White",
	"Noir":               "Black",
	"Résultat":           "Result",
	"Resultat":           "Result",
	"Manche":             "Round",
	"Type de jeu":        "GameType",
	"Heure blanche":      "WhiteTime",
	"Heure noire":        "BlackTime",
	"Titre blanc":        "WhiteTitle",
	"Titre noir":         "BlackTitle",
	"Évaluation blanche": "WhiteRating",
	"Évaluation noire":   "BlackRating",
}

// localizedSigs marks the signatures (localizedSig) of the names of
// localizedTags: a name whose signature is not marked is not one of them,
// found without the map's hashing (validate looked up every tag name).
var localizedSigs = func() (b [64]uint64) {
	for k := range localizedTags {
		h := localizedSig(k)
		b[h/64] |= 1 << (h % 64)
	}
	return b
}()

// localizedSig is a 12-bit signature of a non-empty name: its length and
// its first and last bytes.
func localizedSig(s string) uint {
	return (uint(s[0])*31 + uint(s[len(s)-1])*7 + uint(len(s))) % 4096
}

// mayBeLocalized reports whether name (not empty) may be one of
// localizedTags.
func mayBeLocalized(name string) bool {
	h := localizedSig(name)
	return localizedSigs[h/64]&(1<<(h%64)) != 0
}

// repairTagName turns a tag name that is not an identifier into one:
// HTML numeric entities are decoded, localised names mapped, and other
// characters dropped or replaced.
func repairTagName(name string) string {
	name = decodeEntities(name)
	if std, ok := localizedTags[name]; ok {
		return std
	}
	var b strings.Builder
	upper := true
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_':
			if upper && c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			b.WriteRune(c)
			upper = false
		case c == ' ' || c == '-' || c == '\t':
			upper = true
		default:
			if r, ok := foldAccent(c); ok {
				if upper && r >= 'a' && r <= 'z' {
					r -= 'a' - 'A'
				}
				b.WriteRune(r)
				upper = false
			}
		}
	}
	s := b.String()
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		s = "X" + s
	}
	if std, ok := localizedTags[s]; ok {
		return std
	}
	return s
}

// foldAccent maps common accented Latin letters to their base letter.
func foldAccent(c rune) (rune, bool) {
	const from = "àáâãäåçèéêëìíîïñòóôõöùúûüýÿÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝ"
	const to = "aaaaaaceeeeiiiinooooouuuuyyAAAAAACEEEEIIIINOOOOOUUUUY"
	i := 0
	for _, f := range from {
		if f == c {
			return rune(to[i]), true
		}
		i++
	}
	return 0, false
}

// decodeEntities decodes &#xHH; &#DD; and &amp;-style entities.
func decodeEntities(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '&' {
			if j := strings.IndexByte(s[i:], ';'); j > 1 && j < 12 {
				ent := s[i+1 : i+j]
				if r, ok := entityRune(ent); ok {
					b.WriteRune(r)
					i += j
					continue
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func entityRune(ent string) (rune, bool) {
	switch ent {
	case "amp":
		return '&', true
	case "quot":
		return '"', true
	case "apos":
		return '\'', true
	case "lt":
		return '<', true
	case "gt":
		return '>', true
	}
	if len(ent) < 2 || ent[0] != '#' {
		return 0, false
	}
	base, digits := 10, ent[1:]
	if digits[0] == 'x' || digits[0] == 'X' {
		base, digits = 16, digits[1:]
	}
	if digits == "" {
		return 0, false
	}
	var v rune
	for _, c := range digits {
		var d rune
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case base == 16 && c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v*rune(base) + d
		if v > 0x10FFFF {
			return 0, false
		}
	}
	return v, true
}
