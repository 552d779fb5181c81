package match

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// Opening is a start position for a game pair: the moves are played from Root before the
// players take over, and are written to the PDN output with the rest of the game.
type Opening struct {
	Name  string
	Root  engine.Position
	Moves []engine.Move
}

// Position returns the position after the opening's moves.
func (o *Opening) Position() engine.Position {
	p := o.Root
	for _, m := range o.Moves {
		p = p.Play(m)
	}
	return p
}

// ErrNoOpenings is returned, wrapped, when an opening source yields no usable opening.
var ErrNoOpenings = errors.New("no openings")

// maxOpeningFile bounds the size of an opening file (openings are small; a larger file is
// almost certainly the wrong one).
const maxOpeningFile = 64 << 20

// ReadOpenings reads openings for v from r; name is used in error messages. The format is
// detected from the first line that is not blank or a comment:
//
//   - PDN, if it starts with '[': each game gives one opening, its FEN tag (or the start
//     position) followed by its moves; the name is the Opening tag, else the Event tag.
//     A GameType tag must match v.
//   - JSON, if it starts with '{': {"all": {key: FEN}, "standard": [keys]}, the ballot
//     files of pydraughts; the openings are the standard keys in their order (all keys,
//     sorted, when there is no standard list), named by their keys.
//   - otherwise one opening per line: a FEN ("W:W31-50:B1-20") optionally followed by a
//     name; a tab-separated ballot line "id<TAB>moves<TAB>name<TAB>barred" as in the
//     shipped sets (barred openings, marked "yes", are skipped); or moves from the start
//     position separated by spaces. Lines starting with '#' or '%' are comments.
//
// Every move must be legal and no opening may end the game. Errors name the source and
// line (or game), and wrap the engine's FEN and move errors or ErrNoOpenings.
func ReadOpenings(r io.Reader, name string, v *engine.Variant) ([]Opening, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxOpeningFile+1))
	if err != nil {
		return nil, fmt.Errorf("match: %s: %w", name, err)
	}
	if len(data) > maxOpeningFile {
		return nil, fmt.Errorf("match: %s: larger than %d MiB", name, maxOpeningFile>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var ops []Opening
	switch {
	case bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")):
		ops, err = readJSONOpenings(data, name, v)
	case isPDN(data):
		ops, err = readPDNOpenings(data, name, v)
	default:
		ops, err = readLineOpenings(data, name, v)
	}
	if err != nil {
		return nil, err
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("match: %s: %w", name, ErrNoOpenings)
	}
	return ops, nil
}

func readJSONOpenings(data []byte, name string, v *engine.Variant) ([]Opening, error) {
	var doc struct {
		All      map[string]string `json:"all"`
		Standard []string          `json:"standard"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("match: %s:%d: %w", name, lineAt(data, se.Offset-1), err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("match: %s:%d: %w", name, lineAt(data, te.Offset-1), err)
		}
		return nil, fmt.Errorf("match: %s: %w", name, err)
	}
	keys := doc.Standard
	if keys == nil {
		keys = slices.Sorted(maps.Keys(doc.All))
	}
	var ops []Opening
	for _, k := range keys {
		fen, ok := doc.All[k]
		if !ok {
			return nil, fmt.Errorf("match: %s:%d: standard key %q has no FEN in all", name, lineAt(data, int64(bytes.Index(data, []byte(`"standard"`)))), k)
		}
		p, err := v.ParseFEN(fen)
		op := Opening{Name: k, Root: p}
		if err == nil {
			err = checkPlayable(v, &op)
		}
		if err != nil {
			return nil, fmt.Errorf("match: %s:%d: %q: %w", name, lineAt(data, keyOffset(data, k)), k, err)
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// lineAt returns the line, from 1, of the byte at offset off of data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// keyOffset returns the offset of the last "key": in data (the one a JSON decoder keeps), or
// 0.
func keyOffset(data []byte, key string) int64 {
	quoted, _ := json.Marshal(key)
	re := regexp.MustCompile(regexp.QuoteMeta(string(quoted)) + `\s*:`)
	locs := re.FindAllIndex(data, -1)
	if len(locs) == 0 {
		return 0
	}
	return int64(locs[len(locs)-1][0])
}

func isPDN(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '%' || line[0] == ';' {
			continue
		}
		return line[0] == '['
	}
	return false
}

func readLineOpenings(data []byte, name string, v *engine.Variant) ([]Opening, error) {
	var ops []Opening
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '%' {
			continue
		}
		where := fmt.Sprintf("%s:%d", name, n)
		var op Opening
		var err error
		switch {
		case strings.Contains(line, "\t"):
			f := strings.Split(line, "\t")
			if len(f) < 2 {
				return nil, fmt.Errorf("match: %s: want id<TAB>moves[<TAB>name[<TAB>barred]]", where)
			}
			if len(f) >= 4 && strings.TrimSpace(f[3]) == "yes" {
				continue
			}
			label := strings.TrimSpace(f[0])
			if len(f) >= 3 && strings.TrimSpace(f[2]) != "" {
				label += " " + strings.TrimSpace(f[2])
			}
			op, err = replay(v, v.Start(), strings.Fields(f[1]), label)
		case looksLikeFEN(line):
			fen, label, _ := strings.Cut(line, " ")
			label = strings.TrimSpace(label)
			if label == "" {
				label = fmt.Sprintf("%s:%d", filepath.Base(name), n)
			}
			var p engine.Position
			p, err = v.ParseFEN(fen)
			op = Opening{Name: label, Root: p}
		default:
			op, err = replay(v, v.Start(), strings.Fields(line), fmt.Sprintf("%s:%d", filepath.Base(name), n))
		}
		if err == nil {
			err = checkPlayable(v, &op)
		}
		if err != nil {
			return nil, fmt.Errorf("match: %s: %w", where, err)
		}
		ops = append(ops, op)
	}
	return ops, sc.Err()
}

func looksLikeFEN(s string) bool {
	return len(s) >= 2 && strings.ContainsRune("WB?", rune(s[0])) && s[1] == ':'
}

// replay parses moves from root and returns them as an opening.
func replay(v *engine.Variant, root engine.Position, moves []string, name string) (Opening, error) {
	op := Opening{Name: name, Root: root}
	p := root
	for _, text := range moves {
		m, err := v.ParseMove(&p, text)
		if err != nil {
			return op, err
		}
		op.Moves = append(op.Moves, m)
		p = p.Play(m)
	}
	return op, nil
}

// checkPlayable reports an error when the opening's moves end the game.
func checkPlayable(v *engine.Variant, op *Opening) error {
	g := engine.NewGame(v, op.Root)
	for _, m := range op.Moves {
		if err := g.Play(m); err != nil {
			return err
		}
		if out := g.Outcome(); out.Over {
			return fmt.Errorf("opening %q ends the game: %s", op.Name, out)
		}
	}
	if out := g.Outcome(); out.Over {
		return fmt.Errorf("opening %q ends the game: %s", op.Name, out)
	}
	return nil
}

// readPDNOpenings reads the games of a PDN file with pdn.Reader (lenient mode) and turns
// each one's FEN tag (or the start position) and main-line moves into an opening.
func readPDNOpenings(data []byte, name string, v *engine.Variant) ([]Opening, error) {
	var ops []Opening
	rd := pdn.NewReader(bytes.NewReader(data))
	for {
		g, err := rd.Next()
		if err == io.EOF {
			return ops, nil
		}
		if err != nil {
			return nil, fmt.Errorf("match: %s: %w", name, err)
		}
		where := fmt.Sprintf("%s:%d: game %d", name, g.Pos.Line, len(ops)+1)
		if gt, ok := g.Tag("GameType"); ok {
			num, _, _ := strings.Cut(gt, ",")
			if n, err := strconv.Atoi(strings.TrimSpace(num)); err != nil || n != v.GameType {
				return nil, fmt.Errorf("match: %s: GameType %q is not %s (%d)", where, gt, v.Name, v.GameType)
			}
		}
		root := v.Start()
		if fen, ok := g.Tag("FEN"); ok {
			p, err := v.ParseFEN(strings.TrimSuffix(strings.TrimSpace(fen), "."))
			if err != nil {
				return nil, fmt.Errorf("match: %s: %w", where, err)
			}
			root = p
		}
		label := g.Get("Opening")
		if label == "" || label == "?" {
			label = g.Get("Event")
		}
		if label == "" || label == "?" {
			label = fmt.Sprintf("%s#%d", filepath.Base(name), len(ops)+1)
		}
		op := Opening{Name: label, Root: root}
		p := root
		for _, n := range g.Moves {
			if n.Kind != pdn.MoveNode || n.Move.IsPlaceholder() {
				continue
			}
			m, err := v.ParseMove(&p, n.Move.Text)
			if err != nil { // the move's own line and column
				return nil, fmt.Errorf("match: %s:%d:%d: game %d: ply %d %q: %w", name, n.Pos.Line, n.Pos.Column, len(ops)+1, len(op.Moves)+1, n.Move.Text, err)
			}
			op.Moves = append(op.Moves, m)
			p = p.Play(m)
		}
		if err := checkPlayable(v, &op); err != nil {
			return nil, fmt.Errorf("match: %s: %w", where, err)
		}
		ops = append(ops, op)
	}
}

// MaterialBalanced reports whether both sides have the same number of men and of kings.
func MaterialBalanced(p *engine.Position) bool {
	m := p.Material()
	return m.Men[engine.White] == m.Men[engine.Black] && m.Kings[engine.White] == m.Kings[engine.Black]
}

// RandomOpenings returns count different openings of v, each made of plies random legal
// moves from the start position, drawn from seed (the same seed gives the same openings).
// An opening is kept only when the game is not over and accept, if not nil, returns true
// for the game after those moves; a nil accept keeps openings for which MaterialBalanced
// holds. It returns an error wrapping ErrNoOpenings when count different openings cannot
// be found.
func RandomOpenings(v *engine.Variant, plies, count int, seed int64, accept func(g *engine.Game) bool) ([]Opening, error) {
	if plies < 0 || count < 1 {
		return nil, fmt.Errorf("match: random openings: %d plies, %d openings: %w", plies, count, ErrNoOpenings)
	}
	if accept == nil {
		accept = func(g *engine.Game) bool { p := g.Position(); return MaterialBalanced(&p) }
	}
	rng := rand.New(rand.NewPCG(mix(uint64(seed), 1), mix(uint64(seed), 2)))
	seen := map[engine.Position]bool{}
	var ops []Opening
	tries := 1000 + 200*count
	for t := 0; t < tries && len(ops) < count; t++ {
		g := engine.NewGame(v, v.Start())
		var moves []engine.Move
		for range plies {
			legal := g.Legal()
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			if err := g.Play(m); err != nil {
				return nil, err
			}
			moves = append(moves, m)
		}
		p := g.Position()
		if len(moves) < plies || g.Outcome().Over || seen[p] || !accept(g) {
			continue
		}
		seen[p] = true
		ops = append(ops, Opening{Name: fmt.Sprintf("random-%d", len(ops)+1), Root: v.Start(), Moves: moves})
	}
	if len(ops) < count {
		return nil, fmt.Errorf("match: found only %d of %d different accepted openings of %d plies for %s: %w",
			len(ops), count, plies, v.Name, ErrNoOpenings)
	}
	return ops, nil
}

// OpeningOrder returns the opening index of each of rounds rounds, for n openings. With at
// least as many openings as rounds, the openings are dealt from one shuffle of 0..n-1 that
// depends on n alone (the suite's deck), cut into OpeningBlocks(n, rounds) blocks of rounds
// openings: the match takes block seed modulo that number, so that matches whose seeds
// differ modulo it (1, 2, 3, ... on as many machines or days) never play the same opening,
// and one match never plays an opening twice. With fewer openings than rounds, every
// opening is played before one is played again: a Fisher-Yates shuffle of 0..n-1 drawn from
// seed, then a new shuffle each time all n have been used. It panics if n < 1.
func OpeningOrder(n, rounds int, seed int64) []int {
	b := OpeningBlocks(n, rounds)
	if b == 0 {
		return shuffledOrder(n, rounds, seed)
	}
	deck := rand.New(rand.NewPCG(mix(uint64(n), 7), 0)).Perm(n)
	k := int(((seed % int64(b)) + int64(b)) % int64(b))
	return slices.Clone(deck[k*rounds : (k+1)*rounds])
}

// OpeningBlocks returns how many matches of rounds openings each can be dealt from n
// openings without one played twice (OpeningOrder): n/rounds; 0 when rounds > n.
func OpeningBlocks(n, rounds int) int {
	if rounds < 1 {
		return n
	}
	return n / rounds
}

// shuffledOrder is OpeningOrder's order with fewer openings than rounds, and the order of
// every match of journals written before the blocks (Header.OpeningOrder empty).
func shuffledOrder(n, rounds int, seed int64) []int {
	if n < 1 {
		panic("match: OpeningOrder with no openings")
	}
	order := make([]int, 0, rounds)
	for epoch := 0; len(order) < rounds; epoch++ {
		rng := rand.New(rand.NewPCG(mix(uint64(seed), 3, uint64(epoch)), 0))
		perm := rng.Perm(n)
		for _, k := range perm {
			if len(order) == rounds {
				break
			}
			order = append(order, k)
		}
	}
	return order
}
