package pdn

import (
	"fmt"
	"strings"
)

// Tag pairs: read from their tokens (readTag; plain.go reads the
// commonest straight from the buffer), checked and added to the game
// (tag), their names as exporters write them: checked against the PDN
// grammar, localised names mapped to the standard ones, HTML entities
// decoded.

// MaxTags and MaxTagBytes bound the tag pairs of one game, in number and in
// bytes of names and values: the tags beyond them are dropped, and the game
// has an error (ErrTooManyTags). A game has about ten; 12 MB of tag pairs
// in one game took 26 to 36 times their size in memory.
const (
	MaxTags     = 1000
	MaxTagBytes = 1 << 20
)

// readTag reads a tag pair after its '['.
func (r *Reader) readTag(g *Game, p Pos) {
	t, _ := r.next()
	var value string
	var rawName string
	hasName, hasValue := false, false
	if t.Kind == TokTagName {
		rawName = r.str(t.Text())
		hasName = rawName != ""
		t, _ = r.next()
	}
	if t.Kind == TokString {
		if t.Err != nil {
			r.fail(t.Err) // cut at the end of its line (see Scanner.scanString)
		}
		value = r.str(t.Text())
		hasValue = true
		t, _ = r.next()
	}
	if t.Kind != TokTagClose {
		r.warn(WarnTagSyntax, t.Pos, r.text("missing ']' in tag ", rawName))
		r.unread()
	}
	if !hasName || !hasValue {
		r.warn(WarnTagSyntax, p, r.text("tag ", strings.TrimSpace(rawName+" "+value), " without name or value dropped"))
		return
	}
	r.tag(g, p, rawName, value, 0)
}

// tagKey numbers the commonest tag names (knownTags), 0 for others.
type tagKey uint8

const (
	tagGameType tagKey = 8
	tagFEN      tagKey = 9
)

// knownTags are the commonest tag names, by tagKey: the seven archival
// tags first (reference/PDN-SPEC.md), then those the corpus holds most of.
var knownTags = [...]string{1: "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "FEN",
	"SetUp", "Setup", "PlyCount", "TimeControl", "Annotator", "WhiteTime", "BlackTime"}

// knownTag returns the name and key of tag name b when it is one of
// knownTags, else "" and 0.
func knownTag(b []byte) (string, tagKey) {
	var k tagKey
	switch string(b) {
	case "Event":
		k = 1
	case "Site":
		k = 2
	case "Date":
		k = 3
	case "Round":
		k = 4
	case "White":
		k = 5
	case "Black":
		k = 6
	case "Result":
		k = 7
	case "GameType":
		k = tagGameType
	case "FEN":
		k = tagFEN
	case "SetUp":
		k = 10
	case "Setup":
		k = 11
	case "PlyCount":
		k = 12
	case "TimeControl":
		k = 13
	case "Annotator":
		k = 14
	case "WhiteTime":
		k = 15
	case "BlackTime":
		k = 16
	default:
		return "", 0
	}
	return knownTags[k], k
}

// tag adds the tag pair name (as written, not empty) and value at p to g,
// with the warnings it calls for. key is the name's tagKey when known
// (the name is then an identifier, not localised), else 0.
func (r *Reader) tag(g *Game, p Pos, rawName, value string, key tagKey) {
	name := rawName
	if key == 0 {
		if !isIdent(name) {
			fixed := repairTagName(name)
			r.warn(WarnTagName, p, name+" read as "+fixed)
			name = r.str([]byte(fixed))
		} else if !r.Strict && mayBeLocalized(name) {
			if std, ok := localizedTags[name]; ok {
				r.note(WarnLocalizedTag, p, name+" read as "+std)
				name = std
			}
		}
		_, key = knownTag([]byte(name))
	}
	// A duplicate: known names are marked in r.known, others looked for.
	if key != 0 {
		if r.known&(1<<key) != 0 {
			r.note(WarnDuplicateTag, p, name)
		}
		r.known |= 1 << key
	} else if r.hasTag(g, name) {
		r.note(WarnDuplicateTag, p, name)
	}
	if len(g.Tags) >= MaxTags || len(name)+len(value) > MaxTagBytes-r.tagBytes {
		if r.tagBytes <= MaxTagBytes {
			r.tagBytes = MaxTagBytes + 1 // (one error)
			r.fail(&SyntaxError{Pos: p, Err: fmt.Errorf("%w: more than %d tag pairs, or %s of them, in one game: the rest of its tags are dropped",
				ErrTooManyTags, MaxTags, byteSize(MaxTagBytes))})
		}
		return
	}
	r.tagBytes += len(name) + len(value)
	g.Tags = append(g.Tags, Tag{Name: name, Value: value, Pos: p})
	switch key {
	case tagGameType:
		if msg := checkGameType(value); msg != "" {
			r.warn(WarnTagValue, p, msg)
		}
	case tagFEN:
		if strings.TrimSpace(value) == "" {
			r.warn(WarnTagValue, p, "empty FEN tag")
		}
	}
	if r.vis != nil {
		r.vis.tag(r, name, value)
	}
}

// hasTag reports whether g already has a tag called name; a map takes
// over from the linear search for long headers.
func (r *Reader) hasTag(g *Game, name string) bool {
	if len(g.Tags) < 16 {
		_, ok := g.Tag(name)
		return ok
	}
	if r.tagSet == nil || r.tagSetGame != g {
		r.tagSet = make(map[string]bool, 2*len(g.Tags))
		r.tagSetGame = g
		for _, t := range g.Tags {
			r.tagSet[t.Name] = true
		}
	}
	ok := r.tagSet[name]
	r.tagSet[name] = true
	return ok
}

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
