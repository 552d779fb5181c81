package book

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/rafle/rafle/pkg/engine"
)

// formatName is the "format" field of every book file.
const formatName = "rafle-book"

// ErrFormat is returned, wrapped, when a book file is not a valid book.
var ErrFormat = errors.New("book: bad book file")

type header struct {
	Format    string `json:"format"`
	Version   int    `json:"version"`
	Variant   string `json:"variant"`
	GameType  int    `json:"gameType,omitempty"`
	Root      string `json:"root"`
	MaxPly    int    `json:"maxPly"`
	MinGames  int    `json:"minGames,omitempty"`
	Positions int    `json:"positions"`
	Games     int    `json:"games,omitempty"`
	Source    string `json:"source,omitempty"`
	Depth     int    `json:"depth,omitempty"`
	Nodes     int    `json:"nodes,omitempty"`
	Seed      *int64 `json:"seed,omitempty"`
}

type jsonPosition struct {
	Hash  string     `json:"hash"`
	FEN   string     `json:"fen"`
	Ply   int        `json:"ply"`
	Eval  *int       `json:"eval,omitempty"`
	Moves []jsonMove `json:"moves"`
}

type jsonMove struct {
	Move   string `json:"move"`
	Games  int    `json:"games,omitempty"`
	Wins   int    `json:"wins,omitempty"`
	Draws  int    `json:"draws,omitempty"`
	Losses int    `json:"losses,omitempty"`
	Eval   *int   `json:"eval,omitempty"`
}

// WriteJSON writes b in the book file format (see the package documentation).
func (b *Book) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	h := header{Format: formatName, Version: FormatVersion, Variant: b.Variant.Name, GameType: b.Variant.GameType,
		Root: b.Variant.FEN(b.Root), MaxPly: b.MaxPly, MinGames: b.MinGames, Positions: b.Len(), Games: b.Games,
		Source: b.Source, Depth: b.Depth, Nodes: b.Nodes}
	if b.Depth > 0 {
		h.Seed = &b.Seed
	}
	if err := enc.Encode(h); err != nil {
		return err
	}
	for _, e := range b.Entries() {
		jp := jsonPosition{Hash: fmt.Sprintf("%016x", e.Position.Hash), FEN: b.Variant.FEN(e.Position), Ply: e.Ply,
			Eval: e.Eval, Moves: make([]jsonMove, len(e.Moves))}
		for i, m := range e.Moves {
			jp.Moves[i] = jsonMove{Move: b.Text(e, m.Move), Games: m.Games, Wins: m.Wins, Draws: m.Draws,
				Losses: m.Losses, Eval: m.Eval}
		}
		if err := enc.Encode(jp); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ReadJSON reads a book written by WriteJSON. name labels errors (a file name). Every
// FEN and move is checked against the variant; positions are keyed by the hash computed
// from their FEN, so the file's hash fields need not match this build's hashing. Errors
// wrap ErrFormat, or the engine's FEN and move errors.
func ReadJSON(r io.Reader, name string) (*Book, error) {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	var h header
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%w: %s: header: %v", ErrFormat, name, err)
	}
	if h.Format != formatName {
		return nil, fmt.Errorf("%w: %s: format %q, want %q", ErrFormat, name, h.Format, formatName)
	}
	if h.Version < 1 || h.Version > FormatVersion {
		return nil, fmt.Errorf("%w: %s: version %d, this build reads 1 to %d", ErrFormat, name, h.Version, FormatVersion)
	}
	v, err := engine.Lookup(h.Variant)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrFormat, name, err)
	}
	b := New(v)
	if h.Root != "" {
		if b.Root, err = v.ParseFEN(h.Root); err != nil {
			return nil, fmt.Errorf("book: %s: root: %w", name, err)
		}
	}
	b.MaxPly, b.MinGames, b.Games, b.Source = h.MaxPly, h.MinGames, h.Games, h.Source
	b.Depth, b.Nodes = h.Depth, h.Nodes
	if h.Seed != nil {
		b.Seed = *h.Seed
	}
	for line := 2; ; line++ {
		var jp jsonPosition
		if err := dec.Decode(&jp); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%w: %s: position %d: %v", ErrFormat, name, line-1, err)
		}
		where := fmt.Sprintf("%s: position %d", name, line-1)
		p, err := v.ParseFEN(jp.FEN)
		if err != nil {
			return nil, fmt.Errorf("book: %s: %w", where, err)
		}
		if _, err := strconv.ParseUint(jp.Hash, 16, 64); jp.Hash != "" && err != nil {
			return nil, fmt.Errorf("%w: %s: hash %q", ErrFormat, where, jp.Hash)
		}
		if b.Lookup(&p) != nil {
			return nil, fmt.Errorf("%w: %s: %s given twice", ErrFormat, where, jp.FEN)
		}
		e, err := b.entry(&p, jp.Ply)
		if err != nil {
			return nil, fmt.Errorf("book: %s: %w", where, err)
		}
		e.Eval = jp.Eval
		for _, jm := range jp.Moves {
			m, err := v.ParseMove(&p, jm.Move)
			if err != nil {
				return nil, fmt.Errorf("book: %s: %w", where, err)
			}
			if jm.Games < 0 || jm.Wins < 0 || jm.Draws < 0 || jm.Losses < 0 || jm.Wins+jm.Draws+jm.Losses > jm.Games {
				return nil, fmt.Errorf("%w: %s: move %s: bad counts", ErrFormat, where, jm.Move)
			}
			s := e.move(m)
			if s.Games+s.Wins+s.Draws+s.Losses > 0 || s.Eval != nil {
				return nil, fmt.Errorf("%w: %s: move %s given twice", ErrFormat, where, jm.Move)
			}
			*s = MoveStat{Move: m, Games: jm.Games, Wins: jm.Wins, Draws: jm.Draws, Losses: jm.Losses, Eval: jm.Eval}
		}
	}
	if n := b.Len(); h.Positions != 0 && n != h.Positions {
		return nil, fmt.Errorf("%w: %s: %d positions, header says %d (truncated?)", ErrFormat, name, n, h.Positions)
	}
	b.Sort()
	return b, nil
}
