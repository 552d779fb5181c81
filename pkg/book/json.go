package book

import (
	"bufio"
	"bytes"
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
	lr := &lineReader{r: r}
	dec := json.NewDecoder(bufio.NewReaderSize(lr, 64<<10))
	// at returns "name:line", the line of the value the decoder reads next, or of the byte
	// a syntax error names
	at := func(err error) string {
		pos := dec.InputOffset()
		if b, _ := io.ReadAll(io.LimitReader(dec.Buffered(), 4096)); len(b) > 0 {
			pos += int64(len(b) - len(bytes.TrimLeft(b, " \t\r\n")))
		}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			pos = max(se.Offset-1, 0)
		case errors.As(err, &te):
			pos = max(te.Offset-1, 0)
		}
		return fmt.Sprintf("%s:%d", name, lr.line(pos))
	}
	var h header
	where := at(nil)
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%w: %s: header: %v", ErrFormat, at(err), err)
	}
	if h.Format != formatName {
		return nil, fmt.Errorf("%w: %s: format %q, want %q (not a book of pdn book --format json?)", ErrFormat, where, h.Format, formatName)
	}
	if h.Version < 1 || h.Version > FormatVersion {
		return nil, fmt.Errorf("%w: %s: version %d, this build reads 1 to %d", ErrFormat, where, h.Version, FormatVersion)
	}
	v, err := engine.Lookup(h.Variant)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrFormat, where, err)
	}
	b := New(v)
	if h.Root != "" {
		if b.Root, err = v.ParseFEN(h.Root); err != nil {
			return nil, fmt.Errorf("book: %s: root: %w", where, err)
		}
	}
	b.MaxPly, b.MinGames, b.Games, b.Source = h.MaxPly, h.MinGames, h.Games, h.Source
	b.Depth, b.Nodes = h.Depth, h.Nodes
	if h.Seed != nil {
		b.Seed = *h.Seed
	}
	for n := 1; ; n++ {
		var jp jsonPosition
		start := at(nil)
		if err := dec.Decode(&jp); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%w: %s: position %d: %v", ErrFormat, at(err), n, err)
		}
		where := fmt.Sprintf("%s: position %d", start, n)
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
		return nil, fmt.Errorf("%w: %s: %d positions, the header (line 1) says %d (truncated?)", ErrFormat, name, n, h.Positions)
	}
	b.Sort()
	return b, nil
}

// lineReader passes r through and remembers where its lines end, so that line can say
// which line a byte offset is on. The offsets asked must not decrease: the ends of lines
// before the last one asked are forgotten, so memory holds only what the reader read ahead.
type lineReader struct {
	r      io.Reader
	off    int64   // bytes read
	ends   []int64 // offsets of the newlines not yet passed
	passed int     // newlines passed
}

func (l *lineReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for i, c := range p[:n] {
		if c == '\n' {
			l.ends = append(l.ends, l.off+int64(i))
		}
	}
	l.off += int64(n)
	return n, err
}

// line returns the line, from 1, of the byte at offset pos.
func (l *lineReader) line(pos int64) int {
	k := 0
	for k < len(l.ends) && l.ends[k] < pos {
		k++
	}
	l.ends, l.passed = l.ends[k:], l.passed+k
	return l.passed + 1
}
