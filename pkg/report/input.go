package report

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/shard"
)

// Match is a match to report: its settings, its finished games, and their statistics.
type Match struct {
	// Header holds the match's settings. From PDN files only the variant, the players
	// and the games per pairing are known (the seed, the SPRT and the adjudication are
	// not written to PDN).
	Header match.Header
	// Variant is the game played.
	Variant *engine.Variant
	// Result holds the tables that selfplay prints, counted over Records.
	Result *match.Result
	// Records are the finished games, in game order, each replayed without error.
	Records []match.Record
	// Sources names the files read.
	Sources []string
	// Notes say what the report leaves out and why: damaged games, games found twice,
	// settings that the input does not hold.
	Notes []string
	// FromPDN is set when the games were read from PDN rather than from journals.
	FromPDN bool
	// pairings are the match's pairings (player indexes) in the order of Result.Pairings,
	// and ofPair the pairing of each game pair (-1: none), from match.SchedulePairings.
	pairings [][2]int
	ofPair   []int

	views []gameView // the viewer's data of each record
}

// ErrNoGames is returned, wrapped, when the input holds no finished game.
var ErrNoGames = errors.New("no finished games")

// ErrOtherMatch is returned, wrapped, when the files given are not all of one match.
var ErrOtherMatch = errors.New("not of the same match")

// ReadMatch reads the journals or selfplay PDN files at paths: one match, given whole or
// in parts (shards, or a journal and its copy). Journals and PDN files cannot be mixed. A
// game found in two files is counted once; a game that does not replay under the
// variant's rules is left out, and Notes say so. The error names the file, and the line
// or game, of what cannot be read. When ctx is done ReadMatch stops and returns its error.
func ReadMatch(ctx context.Context, paths []string) (*Match, error) {
	if len(paths) == 0 {
		return nil, errors.New("report: no journal or PDN file given")
	}
	m := &Match{Sources: paths}
	kinds := map[bool]string{}
	var recs []sourced
	shards := map[string]bool{} // the shards given ("K/N")
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		br := bufio.NewReader(ctxReader{ctx, f})
		if binary(br) {
			f.Close()
			return nil, fmt.Errorf("report: %s: a binary file, not a journal or PDN file of selfplay's", path)
		}
		isJournal := startsWithBrace(br)
		kinds[isJournal] = path
		var got []match.Record
		var h match.Header
		if isJournal {
			h, got, err = match.ReadJournal(br, path)
		} else {
			h, got, err = readPDN(br, path, m)
		}
		f.Close()
		if err != nil {
			return nil, err
		}
		if len(kinds) > 1 {
			return nil, fmt.Errorf("report: %s is a journal and %s a PDN file: give one kind", kinds[true], kinds[false])
		}
		m.FromPDN = !isJournal
		if len(got) == 0 {
			m.Notes = append(m.Notes, fmt.Sprintf("%s holds no finished game", path))
		}
		if h.Shard != "" {
			shards[h.Shard] = true
		}
		h.Shard = "" // the shards of a match are one match
		switch {
		case m.Variant == nil:
			m.Header = h
			if m.Variant, err = engine.Lookup(h.Variant); err != nil {
				return nil, fmt.Errorf("report: %s: %w", path, err)
			}
		case isJournal:
			if err := sameMatch(m.Header, h, paths[0], path); err != nil {
				return nil, err
			}
		case h.Variant != m.Header.Variant:
			return nil, fmt.Errorf("report: %s has %s games, %s %s games: %w", paths[0], m.Header.Variant, path, h.Variant, ErrOtherMatch)
		}
		for _, r := range got {
			recs = append(recs, sourced{r, path})
		}
	}
	if err := m.checkShards(shards); err != nil {
		return nil, err
	}
	if m.FromPDN {
		if err := pdnHeader(m, recs); err != nil {
			return nil, err
		}
	}
	if err := m.merge(ctx, recs); err != nil {
		return nil, err
	}
	if len(m.Records) == 0 {
		return nil, fmt.Errorf("report: %s: %w", strings.Join(paths, ", "), ErrNoGames)
	}
	res, err := match.Summarize(m.Header, m.Records)
	if err == nil {
		m.pairings, m.ofPair, err = match.SchedulePairings(m.Header, m.Records)
	}
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	m.Result = res
	return m, nil
}

// checkShards notes which shards of the match the journals hold; the SPRT, decided over
// the whole match, is left out when some are missing.
func (m *Match) checkShards(given map[string]bool) error {
	if len(given) == 0 {
		return nil
	}
	var count int
	for s := range given {
		sh, err := shard.Parse(s)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		count = sh.Count
	}
	if len(given) == count {
		return nil
	}
	names := slices.Sorted(maps.Keys(given))
	note := fmt.Sprintf("the journals hold shards %s of %d", strings.Join(names, ", "), count)
	if m.Header.SPRT != "" {
		note += ": the SPRT, decided over the whole match, is left out (selfplay merge joins every shard)"
		m.Header.SPRT = ""
	}
	m.Notes = append(m.Notes, note)
	return nil
}

// sourced is a record and the file it came from.
type sourced struct {
	match.Record
	file string
}

// binary reports whether the file br reads starts as no text does: a NUL byte, or more
// control characters than line breaks and tabs, in its first 4 KiB. Text that is not UTF-8
// (a Latin-1 archive) is text.
func binary(br *bufio.Reader) bool {
	b, _ := br.Peek(4096)
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	controls := 0
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' || c == 0x7f {
			controls++
		}
	}
	return controls > len(b)/20
}

func startsWithBrace(br *bufio.Reader) bool {
	b, _ := br.Peek(64)
	b = bytes.TrimLeft(b, " \t\r\n\ufeff")
	return len(b) > 0 && b[0] == '{'
}

// sameMatch returns an error wrapping ErrOtherMatch when journal headers a (of file fa)
// and b (of fb) differ.
func sameMatch(a, b match.Header, fa, fb string) error {
	if fmt.Sprint(a) == fmt.Sprint(b) {
		return nil
	}
	return fmt.Errorf("report: %s and %s are %w: %s has %s, %s has %s", fa, fb, ErrOtherMatch,
		fa, describeHeader(a), fb, describeHeader(b))
}

func describeHeader(h match.Header) string {
	s := fmt.Sprintf("%s, %s, seed %d, %d games a pairing, openings %s", h.Variant, strings.Join(h.Players, " vs "), h.Seed, h.Games, h.Openings)
	if h.SPRT != "" {
		s += ", sprt " + h.SPRT
	}
	return s
}

// merge sorts recs by game, keeps one copy of a game found twice, replays the games for
// the viewer, leaves out those that do not replay, and notes both.
func (m *Match) merge(ctx context.Context, recs []sourced) error {
	slices.SortStableFunc(recs, func(a, b sourced) int { return a.Game - b.Game })
	var unique []sourced
	for i, r := range recs {
		if i > 0 && recs[i-1].Game == r.Game {
			prev := recs[i-1]
			if !slices.Equal(prev.Moves, r.Moves) || prev.Winner != r.Winner || prev.White != r.White {
				m.Notes = append(m.Notes, fmt.Sprintf("game %d is in %s and, played otherwise, in %s: the second is left out", r.Game+1, prev.file, r.file))
			}
			continue
		}
		unique = append(unique, r)
	}
	views := make([]gameView, len(unique))
	errs := make([]error, len(unique))
	if err := parallel(ctx, len(unique), func(i int) { views[i], errs[i] = viewGame(m.Variant, &unique[i].Record) }); err != nil {
		return err
	}
	for i, r := range unique {
		if errs[i] != nil {
			m.Notes = append(m.Notes, fmt.Sprintf("%s: game %d left out: %v", r.file, r.Game+1, errs[i]))
			continue
		}
		m.Records = append(m.Records, r.Record)
		m.views = append(m.views, views[i])
	}
	return nil
}

// parallel calls fn(0), ..., fn(n-1) on as many goroutines as the machine has CPUs. Once
// ctx is done it calls fn no more and returns ctx's error.
func parallel(ctx context.Context, n int, fn func(i int)) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				fn(i)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// ctxReader is a reader that fails with its context's error once the context is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// replay plays r's moves from its start position and returns the game.
func replay(v *engine.Variant, r *match.Record) (*engine.Game, error) {
	start := v.Start()
	if r.FEN != "" {
		p, err := v.ParseFEN(r.FEN)
		if err != nil {
			return nil, err
		}
		start = p
	}
	g := engine.NewGame(v, start)
	for i, text := range r.Moves {
		if _, err := g.PlayText(text); err != nil {
			return nil, fmt.Errorf("ply %d %q: %w", i+1, text, err)
		}
	}
	return g, nil
}

// readPDN reads the games of a selfplay PDN file as records. Games that cannot be read
// are left out with a note in m; the header holds the variant only.
func readPDN(r io.Reader, path string, m *Match) (match.Header, []match.Record, error) {
	var h match.Header
	var recs []match.Record
	pr := pdn.NewReader(r)
	games, first := 0, "" // games read, and why the first was left out
	for n := 1; ; n++ {
		g, err := pr.Next()
		if err == io.EOF {
			break
		}
		games++
		var ge *pdn.GameError
		if err != nil && !errors.As(err, &ge) {
			return h, nil, fmt.Errorf("report: %s: %w", path, err)
		}
		if err != nil {
			m.Notes = append(m.Notes, fmt.Sprintf("%s: game %d left out: %v", path, n, err))
			first = cmp.Or(first, fmt.Sprintf("game %d: %v", n, err))
			continue
		}
		rec, v, err := pdnRecord(g)
		if err != nil {
			m.Notes = append(m.Notes, fmt.Sprintf("%s: game %d (line %d) left out: %v", path, n, g.Pos.Line, err))
			first = cmp.Or(first, fmt.Sprintf("game %d (line %d): %v", n, g.Pos.Line, err))
			continue
		}
		if h.Variant == "" {
			h.Variant = v.Name
		} else if h.Variant != v.Name {
			return h, nil, fmt.Errorf("report: %s: game %d (line %d): %s, but the games before it are %s: %w", path, n, g.Pos.Line, v.Name, h.Variant, ErrOtherMatch)
		}
		recs = append(recs, rec)
	}
	switch {
	case h.Variant == "" && games == 0:
		return h, nil, fmt.Errorf("report: %s: %w: no PDN game in it, and it is not a journal", path, ErrNoGames)
	case h.Variant == "" && games == 1:
		return h, nil, fmt.Errorf("report: %s: %w: its one PDN game was not written by selfplay, so it is not a match (%s)", path, ErrNoGames, first)
	case h.Variant == "":
		return h, nil, fmt.Errorf("report: %s: %w: none of its %d PDN games was written by selfplay, so it is not a match (the first: %s)",
			path, ErrNoGames, games, first)
	}
	return h, recs, nil
}

// pdnRecord turns a game written by selfplay (match.WritePDN) back into a record.
func pdnRecord(g *pdn.Game) (match.Record, *engine.Variant, error) {
	var rec match.Record
	gt := strings.TrimSpace(g.Get("GameType"))
	if i := strings.IndexByte(gt, ','); i >= 0 {
		gt = gt[:i]
	}
	if gt == "" {
		return rec, nil, errors.New("no GameType tag, which selfplay writes")
	}
	v, err := engine.Lookup(gt)
	if err != nil {
		return rec, nil, fmt.Errorf("GameType %q: %w", g.Get("GameType"), err)
	}
	round, err := strconv.Atoi(strings.TrimSpace(g.Get("Round")))
	if err != nil || round < 1 {
		return rec, nil, fmt.Errorf("Round %q: want the game number that selfplay writes", g.Get("Round"))
	}
	rec = match.Record{Game: round - 1, White: g.Get("White"), Black: g.Get("Black"), Opening: g.Get("Opening"),
		Reason: g.Get("Termination"), Date: g.Get("Date"), FEN: g.Get("FEN")}
	score, ok := pdn.FirstMoverScore(g.GameResult())
	switch {
	case !ok:
		return rec, nil, fmt.Errorf("result %q: the game is not finished", g.GameResult())
	case score == 1:
		rec.Winner = v.FirstMover.String()
	case score == 0:
		rec.Winner = v.FirstMover.Other().String()
	}
	info := false
	for i := range g.Moves {
		n := &g.Moves[i]
		switch {
		case n.Kind == pdn.MoveNode && !n.Move.IsPlaceholder():
			rec.Moves = append(rec.Moves, n.Move.Text)
		case n.Kind == pdn.CommentNode && len(rec.Moves) > 0:
			mi, ok := parseMoveInfo(n.Text)
			if !ok {
				if i == len(g.Moves)-1 { // a forfeit's story, after the last move
					rec.Detail = strings.TrimSpace(n.Text)
				}
				continue
			}
			if !info {
				info = true
				rec.OpeningPlies = len(rec.Moves) - 1
			}
			rec.Info = append(rec.Info, mi)
		}
	}
	if info && len(rec.Info) != len(rec.Moves)-rec.OpeningPlies {
		rec.Info = nil // a move without its comment: the times cannot be placed
	}
	return rec, v, nil
}

// parseMoveInfo reads a move comment written by match.WritePDN:
// [%emt S] [%clock H:MM:SS.S] [%eval SCORE/DEPTH].
func parseMoveInfo(text string) (match.MoveInfo, bool) {
	var mi match.MoveInfo
	seen := false
	for _, cmd := range strings.Split(text, "[%")[1:] {
		cmd, _, _ = strings.Cut(cmd, "]")
		key, val, _ := strings.Cut(strings.TrimSpace(cmd), " ")
		switch key {
		case "emt":
			s, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return mi, false
			}
			mi.Millis, seen = int64(s*1000+0.5), true
		case "clock":
			var h, m int64
			var s float64
			if _, err := fmt.Sscanf(val, "%d:%d:%f", &h, &m, &s); err != nil {
				return mi, false
			}
			ms := h*3_600_000 + m*60_000 + int64(s*1000+0.5)
			mi.Clock = &ms
		case "eval":
			sc, d, _ := strings.Cut(val, "/")
			x, err1 := strconv.ParseFloat(sc, 64)
			depth, err2 := strconv.Atoi(d)
			if err1 != nil || err2 != nil {
				return mi, false
			}
			score := int(math.Round(x * 100))
			mi.Score, mi.Depth = &score, depth
		}
	}
	return mi, seen
}

// pdnHeader works out the players and the games per pairing of a match read from PDN:
// the schedule (package match) gives pair k to pairing k mod P, whose first player has
// the first-moving colour in game 2k.
func pdnHeader(m *Match, recs []sourced) error {
	first := func(r *match.Record) (mover, other string) {
		if m.Variant.FirstMover == engine.White {
			return r.White, r.Black
		}
		return r.Black, r.White
	}
	names := map[string]bool{}
	for _, r := range recs {
		names[r.White], names[r.Black] = true, true
	}
	n := len(names)
	pairings := n * (n - 1) / 2
	if n < 2 {
		return fmt.Errorf("report: %s: games of fewer than two players", strings.Join(m.Sources, ", "))
	}
	// a gauntlet: more than two players, and one of them in every game (its pairings are
	// a round robin's first n-1, in the same order)
	if n > 2 {
		count := map[string]int{}
		for _, r := range recs {
			count[r.White]++
			count[r.Black]++
		}
		for _, c := range count {
			if c == len(recs) {
				pairings, m.Header.Tournament = n-1, match.Gauntlet
			}
		}
	}
	// pairing k is (0, k+1) for k < n-1: player 0 and the others in order
	players := make([]string, n)
	for _, r := range recs {
		k := r.Game / 2 % pairings
		if k >= n-1 {
			continue
		}
		a, b := first(&r.Record)
		if r.Game%2 == 1 {
			a, b = b, a
		}
		players[0], players[k+1] = a, b
	}
	if slices.Contains(players, "") || len(slices.Compact(slices.Sorted(slices.Values(players)))) != n {
		return fmt.Errorf("report: %s: the order of the players cannot be told from the games (the first games of a round are missing): give the journal", strings.Join(m.Sources, ", "))
	}
	rounds := 0
	for _, r := range recs {
		rounds = max(rounds, r.Game/2/pairings+1)
	}
	m.Header.Players, m.Header.Games = players, 2*rounds
	m.Notes = append(m.Notes, "read from PDN, which holds no seed, SPRT, adjudication or opening list: the games planned are those up to the last game found, and there is no SPRT curve (the journal has them)")
	return nil
}
