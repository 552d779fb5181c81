package match

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/shard"
)

// Merged is a match joined from the journals of its shards.
type Merged struct {
	Header  Header // the match's settings, without a shard
	Variant *engine.Variant
	games   []mergedGame // by game index
	files   []*os.File
	cfg     Config
	sched   schedule
}

// mergedGame is where a game's record is, and what the statistics need of it.
type mergedGame struct {
	file   int   // index into files
	offset int64 // of its journal line
	rec    *Record
}

// ErrShards is returned, wrapped, when the shards given to Merge do not make one whole
// match: a shard missing or given twice, a game missing or recorded twice, a game in the
// wrong shard, or journals of different matches.
var ErrShards = errors.New("the shards do not make one match")

// Merge reads the journals of every shard of one match and checks that they hold every game
// of the match exactly once. Its error names the journals, shards and games at fault. The
// statistics (Result) are those the match played on one machine would give, byte for byte;
// WritePDN writes its games in game order. Close releases the journals.
func Merge(paths []string) (*Merged, error) {
	m := &Merged{}
	var count int
	owner := map[int]string{} // shard index -> journal
	fail := func(format string, args ...any) (*Merged, error) {
		m.Close()
		return nil, fmt.Errorf("match: merge: %w: %s", ErrShards, fmt.Sprintf(format, args...))
	}
	for fi, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("match: merge: %w", err)
		}
		m.files = append(m.files, f)
		h, offsets, recs, err := readJournalIndex(f, path)
		if err != nil {
			m.Close()
			return nil, err
		}
		sh := Shard{Count: 1}
		if h.Shard != "" {
			if sh, err = shard.Parse(h.Shard); err != nil {
				return fail("%s: %v", path, err)
			}
		}
		whole := h
		whole.Shard = ""
		if fi == 0 {
			m.Header, count = whole, sh.Count
			if m.cfg, m.sched, err = configOf(h); err != nil {
				return fail("%s: %v", path, err)
			}
			if m.sched.dynamic() {
				return fail("%s: a %s tournament is played on one machine: it has no shards to merge", path, h.Tournament)
			}
			m.Variant = m.cfg.Variant
			m.games = make([]mergedGame, m.sched.total())
		} else if err := sameHeader(m.Header, whole); err != nil {
			return fail("%s and %s: %v", paths[0], path, err)
		}
		if sh.Count != count {
			return fail("%s is shard %s, %s of %d shards", path, sh, paths[0], count)
		}
		if other, dup := owner[sh.Index]; dup {
			return fail("%s and %s are both shard %s", other, path, sh)
		}
		owner[sh.Index] = path
		for i := range recs {
			r := &recs[i]
			g := r.Game
			switch {
			case g < 0 || g >= len(m.games):
				return fail("%s: game %d: the match has %d games", path, g+1, len(m.games))
			case !hasGame(sh, g):
				return fail("%s: game %d belongs to shard %s, not %s", path, g+1, Shard{Index: (g / 2) % count, Count: count}, sh)
			case m.games[g].rec != nil:
				return fail("%s: game %d recorded twice", path, g+1)
			}
			if err := checkRecord(&m.cfg, &m.sched, r, nil); err != nil {
				m.Close()
				return nil, fmt.Errorf("match: merge: %s: line %d: game %d: %w: %w", path, i+2, g+1, ErrBadRecord, err)
			}
			r.Moves, r.Info, r.Detail = nil, nil, "" // the statistics need none of these
			m.games[r.Game] = mergedGame{file: fi, offset: offsets[i], rec: r}
		}
	}
	for k := range count {
		if _, ok := owner[k]; !ok {
			return fail("shard %s is missing", Shard{Index: k, Count: count})
		}
	}
	var missing []int
	for g := range m.games {
		if m.games[g].rec == nil {
			missing = append(missing, g)
		}
	}
	if len(missing) > 0 && !m.decidedBefore(missing[0]) {
		return fail("%d games missing: %s", len(missing), describeGames(missing, count, owner))
	}
	return m, nil
}

// decidedBefore reports whether the match's SPRT decides before game g: the games after
// the deciding pair need not have been played.
func (m *Merged) decidedBefore(g int) bool {
	if m.cfg.SPRT == nil {
		return false
	}
	agg := m.aggregate(0, 0)
	return agg.decided() && g/2 > agg.stopPair
}

// describeGames names the first games of a list, with their shards' journals.
func describeGames(games []int, count int, owner map[int]string) string {
	var parts []string
	for _, g := range games[:min(len(games), 10)] {
		k := (g / 2) % count
		parts = append(parts, fmt.Sprintf("game %d (shard %d/%d, %s)", g+1, k, count, owner[k]))
	}
	if len(games) > 10 {
		parts = append(parts, "...")
	}
	return strings.Join(parts, ", ")
}

// aggregate counts the games in game order, as the one-machine match does.
func (m *Merged) aggregate(anchor int, anchorElo float64) *aggregator {
	cfg := m.cfg
	cfg.Anchor, cfg.AnchorElo = anchor, anchorElo
	agg := newAggregator(&cfg, &m.sched)
	for _, g := range m.games {
		if g.rec != nil {
			agg.add(g.rec)
		}
		if agg.decided() {
			break
		}
	}
	return agg
}

// Result returns the statistics of the merged match, with the player of index anchor at
// anchorElo for three or more players.
func (m *Merged) Result(anchor int, anchorElo float64) *Result {
	res := m.aggregate(anchor, anchorElo).result()
	res.GamesPlanned = len(m.games)
	return res
}

// Games returns the number of games recorded.
func (m *Merged) Games() int {
	n := 0
	for _, g := range m.games {
		if g.rec != nil {
			n++
		}
	}
	return n
}

// WritePDN writes every game in game order, reading each from its journal again.
func (m *Merged) WritePDN(w io.Writer, event, site string) error {
	readers := make([]*bufio.Reader, len(m.files))
	for _, g := range m.games {
		if g.rec == nil {
			continue
		}
		f := m.files[g.file]
		if _, err := f.Seek(g.offset, io.SeekStart); err != nil {
			return fmt.Errorf("match: merge: %w", err)
		}
		if readers[g.file] == nil {
			readers[g.file] = bufio.NewReaderSize(f, 64<<10)
		}
		br := readers[g.file]
		br.Reset(f)
		line, err := br.ReadBytes('\n')
		if err != nil && !(err == io.EOF && len(line) > 0) {
			return fmt.Errorf("match: merge: %s: %w", f.Name(), err)
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("match: merge: %s: game %d: %w", f.Name(), g.rec.Game+1, err)
		}
		if err := WritePDN(w, m.Variant, &r, event, site); err != nil {
			return err
		}
	}
	return nil
}

// Close closes the journals.
func (m *Merged) Close() error {
	var errs []error
	for _, f := range m.files {
		errs = append(errs, f.Close())
	}
	m.files = nil
	return errors.Join(errs...)
}

// readJournalIndex reads a journal as readJournal does, and the offset of each record's
// line.
func readJournalIndex(r io.Reader, path string) (Header, []int64, []Record, error) {
	var offsets []int64
	var offset int64
	tee := &lineOffsets{r: r, record: func(n int) { offsets = append(offsets, offset); offset += int64(n) }}
	h, recs, _, err := readJournal(tee, path)
	if err != nil {
		return h, nil, nil, err
	}
	// offsets holds every line's start: the header's first, then one per record (a torn
	// last line, if any, is left over)
	return h, offsets[1 : 1+len(recs)], recs, nil
}

// lineOffsets passes r through and calls record with the length of every line.
type lineOffsets struct {
	r       io.Reader
	partial int
	record  func(n int)
}

func (l *lineOffsets) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	rest := p[:n]
	for {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			l.partial += len(rest)
			break
		}
		l.record(l.partial + i + 1)
		l.partial = 0
		rest = rest[i+1:]
	}
	if err == io.EOF && l.partial > 0 {
		l.record(l.partial)
		l.partial = 0
	}
	return n, err
}
