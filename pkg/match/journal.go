package match

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rafle/rafle/pkg/internal/filelock"
	"github.com/rafle/rafle/pkg/internal/jsonl"
)

// Record is one finished game, as the journal holds it: enough to count it and to write
// it to PDN again.
type Record struct {
	Game         int      `json:"game"`             // game index
	White        string   `json:"white"`            // name of the player with the white pieces
	Black        string   `json:"black"`            // name of the player with the black pieces
	Opening      string   `json:"opening"`          // opening name
	FEN          string   `json:"fen,omitempty"`    // start position, when not the variant's
	Moves        []string `json:"moves"`            // every move, the opening's included
	OpeningPlies int      `json:"opening_plies"`    // how many of Moves are the opening's
	Winner       string   `json:"winner,omitempty"` // "white" or "black"; empty for a draw
	Reason       string   `json:"reason"`           // termination: "no-legal-move", "repetition", "max-plies", ...
	Date         string   `json:"date"`             // PDN date the game was played, YYYY.MM.DD
	// Info holds what was measured and reported of each move after the opening, in a match
	// where a player has a time control; nil otherwise.
	Info []MoveInfo `json:"info,omitempty"`
	// Detail says what happened when a player forfeited: who, why, the offending text and
	// the position.
	Detail string `json:"detail,omitempty"`
}

// MoveInfo is what the match measured and the player reported of one move.
type MoveInfo struct {
	Millis int64  `json:"ms"`              // time the move took
	Clock  *int64 `json:"clock,omitempty"` // milliseconds left on the mover's clock after it
	Depth  int    `json:"depth,omitempty"` // the player's last reported depth
	Score  *int   `json:"score,omitempty"` // the player's score, hundredths of a man, mover's view
}

// Header is the first line of a journal: the settings that fix the games of a match. A
// journal is resumed only by a match with the same header.
type Header struct {
	Format   string   `json:"format"` // always "rafle-selfplay-journal/1"
	Variant  string   `json:"variant"`
	Players  []string `json:"players"`
	Seed     int64    `json:"seed"`
	Games    int      `json:"games"` // games per pairing
	MaxPlies int      `json:"max_plies"`
	Openings string   `json:"openings"` // digest of the opening list, in order
	SPRT     string   `json:"sprt,omitempty"`
	// Adjudication is Config.Adjudication as ParseAdjudication reads it.
	Adjudication string `json:"adjudication,omitempty"`
	// Shard is Config.Shard ("K/N"), for a shard of a match.
	Shard string `json:"shard,omitempty"`
	// Tournament is Config.Tournament, empty for a round robin.
	Tournament string `json:"tournament,omitempty"`
	// EGDB is the MaxPieces of Config.EGDB, the endgame database that ends games (0: none).
	EGDB int `json:"egdb,omitempty"`
	// Rounds is a Swiss tournament's number of rounds.
	Rounds int `json:"rounds,omitempty"`
	// OpeningOrder is "blocks" when the openings are dealt as OpeningOrder deals them; empty
	// in the journals of earlier versions, which dealt a shuffle drawn from the seed.
	OpeningOrder string `json:"opening_order,omitempty"`
}

const openingOrderBlocks = "blocks"

const journalFormat = "rafle-selfplay-journal/1"

// ErrJournalExists is returned, wrapped, when a match without Resume would overwrite a
// journal that holds games.
var ErrJournalExists = errors.New("journal already holds games (resume it, or remove it)")

// ErrJournalMismatch is returned, wrapped, when a journal was written by a match with
// other settings.
var ErrJournalMismatch = errors.New("journal belongs to another match")

// ReadJournalHeader reads the header of the journal at path, for example to take the seed
// of the match being resumed.
func ReadJournalHeader(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, fmt.Errorf("match: %w", err)
	}
	defer f.Close()
	h, _, _, err := readJournal(f, path)
	return h, err
}

// readJournal reads a journal: the header, the records in file order, and the length of
// the intact prefix (a torn last line, left by a crash during a write, is not part of it).
func readJournal(r io.Reader, path string) (h Header, recs []Record, good int64, err error) {
	br := bufio.NewReader(r)
	var offset int64
	for n := 1; ; n++ {
		line, rerr := br.ReadBytes('\n')
		if len(line) == 0 && rerr == io.EOF {
			break
		}
		if rerr != nil && rerr != io.EOF {
			return h, nil, 0, fmt.Errorf("match: journal %s: %w", path, rerr)
		}
		complete := rerr == nil
		var perr error
		if n == 1 {
			perr = json.Unmarshal(line, &h)
			if perr == nil && h.Format != journalFormat {
				perr = fmt.Errorf("format %q, want %q", h.Format, journalFormat)
			}
		} else {
			var rec Record
			if perr = json.Unmarshal(line, &rec); perr == nil {
				recs = append(recs, rec)
			}
		}
		if perr != nil || !complete {
			if _, err := br.Peek(1); err == io.EOF && n > 1 {
				break // a torn last line: the game it held was not finished for the match
			}
			if perr == nil {
				perr = errors.New("unterminated line")
			}
			return h, nil, 0, fmt.Errorf("match: journal %s: line %d: %v", path, n, perr)
		}
		offset += int64(len(line))
		good = offset
	}
	if good == 0 {
		return h, nil, 0, fmt.Errorf("match: journal %s: no header", path)
	}
	return h, recs, good, nil
}

// journal appends records to a file, syncing each one.
type journal struct {
	f *jsonl.File
}

// ErrJournalLocked is returned, wrapped, when another match holds the journal: two runs
// writing one journal (and so one PDN file) would corrupt both.
var ErrJournalLocked = errors.New("journal is in use by another match (a second selfplay on the same --pdn or --journal?)")

// openJournal creates the journal at path, or with resume reads back the one there (a
// missing file starts a new journal), and locks it for the match. It returns the records
// already finished.
func openJournal(path string, h Header, resume bool) (j *journal, recs []Record, err error) {
	f, err := jsonl.Open(path)
	if err != nil {
		if errors.Is(err, filelock.ErrLocked) {
			return nil, nil, fmt.Errorf("match: %s: %w", path, ErrJournalLocked)
		}
		return nil, nil, fmt.Errorf("match: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	size, err := f.Size()
	if err != nil {
		return nil, nil, fmt.Errorf("match: %w", err)
	}
	j = &journal{f: f}
	var good int64
	if size > 0 {
		var old Header
		if old, recs, good, err = readJournal(f, path); err != nil {
			return nil, nil, err
		}
		switch {
		case !resume && len(recs) > 0:
			return nil, nil, fmt.Errorf("match: %s: %w", path, ErrJournalExists)
		case !resume:
			good = 0 // only a header: this match starts the journal again
		default:
			if err := sameHeader(old, h); err != nil {
				return nil, nil, fmt.Errorf("match: %s: %w", path, err)
			}
		}
	}
	if err := f.Restart(good); err != nil {
		return nil, nil, fmt.Errorf("match: %w", err)
	}
	if good == 0 {
		if err := j.append(h); err != nil {
			return nil, nil, err
		}
	}
	return j, recs, nil
}

// sameHeader returns an error wrapping ErrJournalMismatch that names the first setting in
// which old and h differ.
func sameHeader(old, h Header) error {
	diff := func(what string, a, b any) error {
		return fmt.Errorf("%w: it has %s %v, this match %v", ErrJournalMismatch, what, a, b)
	}
	switch {
	case old.Variant != h.Variant:
		return diff("variant", old.Variant, h.Variant)
	case fmt.Sprint(old.Players) != fmt.Sprint(h.Players):
		return diff("players", old.Players, h.Players)
	case old.Tournament != h.Tournament:
		return diff("tournament", normTournament(old.Tournament), normTournament(h.Tournament))
	case old.Rounds != h.Rounds:
		return diff("rounds", old.Rounds, h.Rounds)
	case old.Seed != h.Seed:
		return diff("seed", old.Seed, h.Seed)
	case old.Games != h.Games:
		return diff("games", old.Games, h.Games)
	case old.MaxPlies != h.MaxPlies:
		return diff("max plies", old.MaxPlies, h.MaxPlies)
	case old.Openings != h.Openings:
		return diff("openings digest", old.Openings, h.Openings)
	case old.SPRT != h.SPRT:
		return diff("sprt", old.SPRT, h.SPRT)
	case old.Adjudication != h.Adjudication:
		return diff("adjudication", old.Adjudication, h.Adjudication)
	case old.Shard != h.Shard:
		return diff("shard", old.Shard, h.Shard)
	}
	return nil
}

// append writes v as one JSON line and syncs the file.
func (j *journal) append(v any) error {
	if err := j.f.Append(v); err != nil {
		return fmt.Errorf("match: journal: %w", err)
	}
	return nil
}

func (j *journal) close() error { return j.f.Close() }
