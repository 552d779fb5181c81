package report

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
)

// The viewer's data. The page draws positions that Go computed; its script applies no
// rule. A position is a string with one character per square in number order: '.' empty,
// 'w' and 'b' men, 'W' and 'B' kings. A ply is given as the squares it changes, each a
// character and the square number: the new content, or 'x' for a piece captured (now
// empty), e.g. ".11b15" or ".22W13x17". The games are held in chunks of gamesPerChunk,
// compressed with gzip and written in base64, and a chunk is decoded only when one of its
// games is picked, so that a page of many games opens fast.

// gamesPerChunk is the number of games compressed together.
const gamesPerChunk = 200

// boardView is the board the viewer draws.
type boardView struct {
	Width   int      `json:"width"`
	Height  int      `json:"height"`
	Squares [][2]int `json:"squares"` // file (0 = a) and rank (1 = bottom) of square i+1, seen from White
	Names   []string `json:"names"`   // square i+1 as the variant writes it
}

func newBoardView(v *engine.Variant) (boardView, error) {
	b := boardView{Width: v.Width, Height: v.Height}
	for s := engine.Square(1); int(s) <= v.Squares(); s++ {
		name := v.AlgebraicName(s)
		rank, err := strconv.Atoi(name[1:])
		if err != nil {
			return b, fmt.Errorf("report: square %d: algebraic name %q", s, name)
		}
		b.Squares = append(b.Squares, [2]int{int(name[0] - 'a'), rank})
		b.Names = append(b.Names, v.SquareName(s))
	}
	return b, nil
}

// appendPosition appends p in the viewer's position string.
func appendPosition(dst []byte, v *engine.Variant, p *engine.Position) []byte {
	for s := engine.Square(1); int(s) <= v.Squares(); s++ {
		i, _ := v.Index(s)
		c, king, ok := p.At(i)
		switch {
		case !ok:
			dst = append(dst, '.')
		case c == engine.White && king:
			dst = append(dst, 'W')
		case c == engine.White:
			dst = append(dst, 'w')
		case king:
			dst = append(dst, 'B')
		default:
			dst = append(dst, 'b')
		}
	}
	return dst
}

// appendDelta appends the changes from position string a to b, a ply of mover.
func appendDelta(dst, a, b []byte, mover engine.Color) []byte {
	theirs := byte('b')
	if mover == engine.Black {
		theirs = 'w'
	}
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		c := b[i]
		if c == '.' && a[i]|0x20 == theirs {
			c = 'x'
		}
		dst = append(dst, c)
		dst = strconv.AppendInt(dst, int64(i+1), 10)
	}
	return dst
}

// gameView is a game's positions for the viewer: the start position, and the changes of
// each ply joined by spaces.
type gameView struct {
	start, plies string
}

// viewGame replays r and returns its positions for the viewer.
func viewGame(v *engine.Variant, r *match.Record) (gameView, error) {
	g, err := replay(v, r)
	if err != nil {
		return gameView{}, err
	}
	return viewPositions(v, g.Positions()), nil
}

// viewPositions returns a game's positions ps for the viewer.
func viewPositions(v *engine.Variant, ps []engine.Position) gameView {
	var deltas, prev, cur []byte
	prev = appendPosition(nil, v, &ps[0])
	start := string(prev)
	for i := 1; i < len(ps); i++ {
		cur = appendPosition(cur[:0], v, &ps[i])
		if i > 1 {
			deltas = append(deltas, ' ')
		}
		deltas = appendDelta(deltas, prev, cur, ps[i-1].Side)
		prev, cur = cur, prev
	}
	return gameView{start, string(deltas)}
}

// gameData is one game in a chunk: [start position, moves joined by spaces, plies'
// changes joined by spaces, PDN text].
type gameData [4]string

// data returns the viewer's data of record i.
func (m *Match) data(i int, event string) (gameData, error) {
	r := &m.Records[i]
	var pdnText bytes.Buffer
	if err := match.WritePDN(&pdnText, m.Variant, r, event, ""); err != nil {
		return gameData{}, err
	}
	return gameData{m.views[i].start, strings.Join(r.Moves, " "), m.views[i].plies, strings.TrimSpace(pdnText.String())}, nil
}

// gameList is the list of games the page shows: each game as [number, white, black,
// result (who won), termination, plies, opening], the texts as indexes into Strings.
type gameList struct {
	Strings []string `json:"strings"`
	Games   [][7]int `json:"games"`
	// At is the ply each game opens at (none: the start).
	At []int `json:"at,omitempty"`

	index map[string]int // of Strings
}

// str returns the index of s in l.Strings, adding it the first time.
func (l *gameList) str(s string) int {
	k, ok := l.index[s]
	if !ok {
		if l.index == nil {
			l.index = map[string]int{}
		}
		k = len(l.Strings)
		l.index[s] = k
		l.Strings = append(l.Strings, s)
	}
	return k
}

// viewerData returns the list of games and the compressed chunks of their data.
func (m *Match) viewerData(ctx context.Context, event string) (gameList, []string, error) {
	var list gameList
	for i := range m.Records {
		r := &m.Records[i]
		list.Games = append(list.Games, [7]int{r.Game + 1, list.str(r.White), list.str(r.Black), list.str(resultText(r)),
			list.str(r.Reason), len(r.Moves), list.str(r.Opening)})
	}
	chunks := make([]string, (len(m.Records)+gamesPerChunk-1)/gamesPerChunk)
	errs := make([]error, len(chunks))
	err := parallel(ctx, len(chunks), func(k int) {
		games := make([]gameData, 0, gamesPerChunk)
		for i := k * gamesPerChunk; i < min(len(m.Records), (k+1)*gamesPerChunk); i++ {
			d, err := m.data(i, event)
			if err != nil {
				errs[k] = fmt.Errorf("report: game %d: %w", m.Records[i].Game+1, err)
				return
			}
			games = append(games, d)
		}
		chunks[k], errs[k] = compress(games)
	})
	return list, chunks, errors.Join(err, errors.Join(errs...))
}

// resultText says who won r, or that it was drawn.
func resultText(r *match.Record) string {
	switch r.Winner {
	case "":
		return "draw"
	case "white":
		return r.White + " (white) won"
	}
	return r.Black + " (black) won"
}

// compress returns games as JSON, gzipped, in base64.
func compress(games []gameData) (string, error) {
	var b bytes.Buffer
	enc := base64.NewEncoder(base64.StdEncoding, &b)
	zw, err := gzip.NewWriterLevel(enc, gzip.DefaultCompression)
	if err != nil {
		return "", err
	}
	if err := json.NewEncoder(zw).Encode(games); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}
