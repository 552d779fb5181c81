package match

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/search"
	"github.com/rafle/rafle/pkg/stats"
)

var english = engine.MustLookup("english")

// testOpenings returns n different random openings of english.
func testOpenings(t *testing.T, n int) []Opening {
	t.Helper()
	ops, err := RandomOpenings(english, 3, n, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ops
}

func medium() Entrant {
	ps, _ := search.Level("medium")
	return Engine("medium", ps)
}

func TestScheduleColoursAndPairs(t *testing.T) {
	for _, players := range []int{2, 3, 4} {
		cfg := &Config{Games: 10, Openings: testOpenings(t, 4), Seed: 3}
		for i := range players {
			cfg.Players = append(cfg.Players, Random(string(rune('a'+i))))
		}
		games := Schedule(cfg)
		pairings := players * (players - 1) / 2
		if want := 10 * pairings; len(games) != want {
			t.Fatalf("%d players: %d games, want %d", players, len(games), want)
		}
		perPairing := map[[2]int]int{}
		for k := 0; 2*k < len(games); k++ {
			g0, g1 := games[2*k], games[2*k+1]
			if g0.A != g1.A || g0.B != g1.B || g0.Opening != g1.Opening || g0.Pair != k || g1.Pair != k {
				t.Errorf("%d players: pair %d: games %+v and %+v are not one pairing and opening", players, k, g0, g1)
			}
			if g0.First != g0.A || g1.First != g1.B {
				t.Errorf("%d players: pair %d: first movers %d, %d, want %d, %d (colours reversed)", players, k, g0.First, g1.First, g0.A, g0.B)
			}
			if g0.A >= g0.B {
				t.Errorf("pair %d: players %d, %d not ordered", k, g0.A, g0.B)
			}
			perPairing[[2]int{g0.A, g0.B}]++
			// every pairing of a round plays the round's opening
			if r := k / pairings; games[2*r*pairings].Opening != g0.Opening {
				t.Errorf("pair %d: opening %d differs from its round's %d", k, g0.Opening, games[2*r*pairings].Opening)
			}
		}
		if len(perPairing) != pairings {
			t.Errorf("%d players: %d pairings played, want %d", players, len(perPairing), pairings)
		}
		for p, n := range perPairing {
			if n != 5 {
				t.Errorf("%d players: pairing %v plays %d pairs, want 5", players, p, n)
			}
		}
	}
}

// TestOpeningOrder: with fewer openings than rounds, every opening is played before one is
// played again, the same for the same seed, another for another seed.
func TestOpeningOrder(t *testing.T) {
	const n, rounds = 7, 30
	a, b := OpeningOrder(n, rounds, 42), OpeningOrder(n, rounds, 42)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("OpeningOrder(%d, %d, 42) differs between calls: %v, %v", n, rounds, a, b)
	}
	if c := OpeningOrder(n, rounds, 43); reflect.DeepEqual(a, c) {
		t.Errorf("OpeningOrder with seeds 42 and 43 gave the same order %v", a)
	}
	// no opening twice before all have been used: each block of n is a permutation
	for start := 0; start < rounds; start += n {
		seen := map[int]bool{}
		for _, k := range a[start:min(start+n, rounds)] {
			if k < 0 || k >= n || seen[k] {
				t.Fatalf("OpeningOrder(%d, %d, 42) = %v: block at %d reuses or leaves the range at %d", n, rounds, a, start, k)
			}
			seen[k] = true
		}
	}
	if reflect.DeepEqual(a[:n], a[n:2*n]) {
		t.Errorf("OpeningOrder: second pass repeats the first shuffle %v", a[:n])
	}
}

// TestOpeningBlocks: with at least as many openings as rounds, a match never repeats an
// opening, two matches whose seeds differ modulo OpeningBlocks share none (seeds 1 to 5 of
// 156 openings, 30 rounds each), and the same seed deals the same order.
func TestOpeningBlocks(t *testing.T) {
	const n, rounds = 156, 30
	if b := OpeningBlocks(n, rounds); b != 5 {
		t.Fatalf("OpeningBlocks(%d, %d) = %d, want 5", n, rounds, b)
	}
	used := map[int]int64{}
	for seed := int64(1); seed <= 5; seed++ {
		order := OpeningOrder(n, rounds, seed)
		if len(order) != rounds || !reflect.DeepEqual(order, OpeningOrder(n, rounds, seed)) {
			t.Fatalf("seed %d: %v, not reproducible or not %d long", seed, order, rounds)
		}
		for _, k := range order {
			if s, ok := used[k]; ok {
				t.Errorf("opening %d played with seeds %d and %d", k, s, seed)
			}
			used[k] = seed
		}
	}
	if !reflect.DeepEqual(OpeningOrder(n, rounds, 6), OpeningOrder(n, rounds, 1)) || !reflect.DeepEqual(OpeningOrder(n, rounds, -4), OpeningOrder(n, rounds, 1)) {
		t.Error("seeds equal modulo 5 deal different blocks")
	}
}

// TestOpeningsAcrossShards: the shards of a match play the openings of the one-machine
// match, none twice, and the journal records the order's kind; a journal of an earlier
// version (no opening_order) resumes with its shuffled order.
func TestOpeningsAcrossShards(t *testing.T) {
	cfg := randomMatch(t, t.TempDir())
	cfg.Openings, cfg.Players, cfg.Games = testOpenings(t, 12), cfg.Players[:2], 12 // 6 pairs
	byOpening := map[string]int{}
	for k := range 3 {
		c := cfg
		c.Shard = Shard{Index: k, Count: 3}
		c.JournalPath, c.PDNPath = filepath.Join(t.TempDir(), "s.journal"), ""
		if _, err := Run(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		f, _ := os.Open(c.JournalPath)
		h, recs, err := ReadJournal(f, c.JournalPath)
		f.Close()
		if err != nil || h.OpeningOrder != "blocks" {
			t.Fatalf("%v, header %+v", err, h)
		}
		for _, r := range recs {
			if r.Game%2 == 0 {
				byOpening[r.Opening]++
			}
		}
	}
	if len(byOpening) != 6 {
		t.Errorf("the shards played %v, want 6 openings once each", byOpening)
	}

	old := randomMatch(t, t.TempDir())
	old.shuffledOrder = true
	ctx, cancel := context.WithCancel(context.Background())
	old.Progress = func(done, _ int) {
		if done >= 5 {
			cancel()
		}
	}
	Run(ctx, old)
	resumed := randomMatch(t, filepath.Dir(old.JournalPath))
	resumed.Resume = true
	if _, err := Run(context.Background(), resumed); err != nil {
		t.Errorf("resuming a journal without opening_order: %v", err)
	}
}

func TestRandomOpenings(t *testing.T) {
	a := testOpenings(t, 20)
	b := testOpenings(t, 20)
	seen := map[engine.Position]bool{}
	for i := range a {
		if !reflect.DeepEqual(a[i].Moves, b[i].Moves) {
			t.Fatalf("RandomOpenings not reproducible at %d", i)
		}
		p := a[i].Position()
		if seen[p] {
			t.Errorf("opening %d repeats a position", i)
		}
		seen[p] = true
		if !MaterialBalanced(&p) {
			t.Errorf("opening %d (%s) is not balanced", i, english.FEN(p))
		}
	}
	if _, err := RandomOpenings(english, 1, 10, 1, nil); !errors.Is(err, ErrNoOpenings) {
		t.Errorf("RandomOpenings(1 ply, 10 openings) error = %v, want ErrNoOpenings (only 7 first moves)", err)
	}
}

func TestReadOpenings(t *testing.T) {
	tests := []struct {
		name, text string
		want       int
		wantErr    string
	}{
		{"fen", "# comment\nB:W21-32:B1-12 start\r\nW:W21-32:B1-11,15\n", 2, ""},
		{"ballots", "1\t9-13 21-17 5-9\t\tno\n3\t9-13 21-17 10-14\t\tyes\n4\t9-13 22-17 13x22\tname\tno\n", 2, ""},
		{"moves", "11-15 23-19\n", 1, ""},
		{"pdn", "[Event \"a\"]\n[Opening \"Old Faithful\"]\n1. 11-15 {c} 23-19 (1... 22-18) *\n\n" +
			"[FEN \"W:W21-32:B1-11,15.\"]\n[GameType \"21\"]\n1... 23-19 1-0\n[Event \"c\"]\n1. 9-13 *", 3, ""},
		{"json", `{"all": {"b": "W:W21-32:B1-11,15", "a": "B:W21-32:B1-12"}, "standard": ["a", "b"]}`, 2, ""},
		{"json missing key", `{"all": {"a": "B:W21-32:B1-12"}, "standard": ["a", "b"]}`, 0, "\"b\""},
		{"bad fen", "B:W21-32:B1-12\nW:W21-33:B1-12\n", 0, "x:2"},
		{"illegal move", "11-15 11-15\n", 0, "x:1"},
		{"wrong gametype", "[GameType \"20\"]\n1. 32-28 *\n", 0, "GameType"},
		{"pdn unterminated comment", "[Event \"a\"]\n1. 11-15 {c 23-19 *\n", 0, "line 2, column 10: unterminated comment"},
		{"empty", "# nothing\n", 0, "no openings"},
		// issue 33 item 23: the file and line of what is wrong
		{"pdn illegal move on its line", "[Event \"a\"]\n1. 11-15\n23-19 99-98 *\n", 0, "x:3:7: game 1: ply 3 \"99-98\""},
		{"json syntax", "{\n \"all\": {\n  \"a\": x\n }\n}\n", 0, "x:3: invalid character"},
		{"json bad fen", "{\n \"all\": {\n  \"a\": \"B:W21-32:B1-12\",\n  \"b\": \"Q:W2\"\n }\n}\n", 0, "x:4: \"b\""},
		{"json type", "{\n \"all\": {\n  \"a\": 7\n }\n}\n", 0, "x:3:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ops, err := ReadOpenings(strings.NewReader(tc.text), "x", english)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ReadOpenings(%q) error = %v, want one containing %q", tc.text, err, tc.wantErr)
				}
				return
			}
			if err != nil || len(ops) != tc.want {
				t.Fatalf("ReadOpenings(%q) = %d openings, %v; want %d", tc.text, len(ops), err, tc.want)
			}
		})
	}
}

// TestShippedSets: every shipped opening set reads for its variant, with its count, and no
// two of its openings reach the same position; a generated set's scores are within its
// window, and its calibration games, if any, split evenly. The rewritten published sets hold the positions of the copies in
// ../shared/reference/openings, less those their headers leave out.
func TestShippedSets(t *testing.T) {
	want := map[string]int{"english-2move": 43, "english-3move": 156, "international-2move": 79, "international-3move": 331,
		"russian-idf": 740, "brazilian-idf": 732, "russian-150": 149, "brazilian-150": 149}
	files, err := filepath.Glob("../../corpus/openings/*.txt")
	if err != nil || len(files) < len(want) {
		t.Fatalf("%d sets, %v", len(files), err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		variant, set, _ := strings.Cut(name, "-")
		v, err := engine.Lookup(variant)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ops, err := ReadOpenings(bytes.NewReader(data), path, v)
		n, ok := want[name]
		if set == "gen" {
			n, ok = 200, true
		}
		if err != nil || !ok || len(ops) != n {
			t.Fatalf("%s: %d openings, %v; want %d", name, len(ops), err, n)
		}
		seen := map[engine.Position]bool{}
		for _, op := range ops {
			if p := op.Position(); seen[p] {
				t.Errorf("%s: %s repeats a position", name, op.Name)
			} else {
				seen[p] = true
			}
			if set == "gen" {
				var score int
				if _, err := fmt.Sscanf(op.Name[strings.Index(op.Name, "score"):], "score %d", &score); err != nil || score < -25 || score > 25 {
					t.Errorf("%s: %s: score %d (%v) outside the window of 25", name, op.Name, score, err)
				}
				// a calibrated set's games split evenly for the side to move
				if i := strings.Index(op.Name, "calibration"); i >= 0 {
					var w, d, l int
					if _, err := fmt.Sscanf(op.Name[i:], "calibration +%d =%d -%d", &w, &d, &l); err != nil || w != l {
						t.Errorf("%s: %s: calibration games +%d =%d -%d (%v) do not split evenly", name, op.Name, w, d, l, err)
					}
				}
			}
		}
		copies := map[string]string{"russian-idf": "russian-ballots.json", "brazilian-idf": "brazilian-ballots.json",
			"russian-150": "russian-brazilian-150.json", "brazilian-150": "russian-brazilian-150.json"}
		if src, ok := copies[name]; ok {
			f, err := os.Open("../../../shared/reference/openings/" + src)
			if err != nil {
				t.Logf("%s: not compared with its source: %v", name, err)
				continue
			}
			orig, err := ReadOpenings(f, src, v)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			left := 0
			for _, op := range orig {
				if !seen[op.Position()] {
					left++
				}
			}
			// the entries the headers leave out: two (russian, brazilian: XXVII-9 and XX-18,
			// the wrong side to move) or none (the 150: 2-IV's position is 2-V's); the
			// transpositions left out are in under another key
			if wantLeft := map[bool]int{true: 0, false: 2}[set == "150"]; left != wantLeft || len(orig)-len(ops) < left {
				t.Errorf("%s: %d positions of %s are not in the set, want %d", name, left, src, wantLeft)
			}
		}
	}
}

// summary is the part of a result that must not depend on how the match was run.
func summary(r *Result) any {
	return struct {
		G int
		P []PairingResult
		T []Termination
		R []PlayerRating
		S *SPRTResult
	}{r.Games, r.Pairings, r.Terminations, r.Ratings, r.SPRT}
}

func randomMatch(t *testing.T, dir string) Config {
	return Config{
		Variant:     english,
		Players:     []Entrant{Random("r1"), Random("r2"), Random("r3")},
		Games:       8,
		Openings:    testOpenings(t, 5),
		Seed:        11,
		MaxPlies:    60,
		Concurrency: 2,
		JournalPath: filepath.Join(dir, "m.journal"),
		PDNPath:     filepath.Join(dir, "m.pdn"),
	}
}

func TestReproducible(t *testing.T) {
	var results []any
	weak, _ := search.ParsePlayer("depth=2:random=0.3")
	for _, workers := range []int{1, 3} {
		cfg := randomMatch(t, t.TempDir())
		cfg.Players[1] = Engine("weak", weak) // reused between games by each worker
		cfg.Concurrency = workers
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Games != 24 || res.Interrupted {
			t.Fatalf("%d workers: %d games (interrupted %v), want 24", workers, res.Games, res.Interrupted)
		}
		results = append(results, summary(res))
	}
	if !reflect.DeepEqual(results[0], results[1]) {
		t.Errorf("results differ with 1 and 3 workers:\n%+v\n%+v", results[0], results[1])
	}
}

func TestResume(t *testing.T) {
	full, err := Run(context.Background(), randomMatch(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("torn journal", func(t *testing.T) {
		dir := t.TempDir()
		cfg := randomMatch(t, dir)
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		// Keep the header and 9 games, then half of the 10th line: a crash during a write.
		data, _ := os.ReadFile(cfg.JournalPath)
		lines := strings.SplitAfter(string(data), "\n")
		torn := strings.Join(lines[:10], "") + lines[10][:len(lines[10])/2]
		if err := os.WriteFile(cfg.JournalPath, []byte(torn), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg.Resume = true
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Resumed != 9 {
			t.Errorf("resumed %d games from the journal, want 9", res.Resumed)
		}
		if !reflect.DeepEqual(summary(res), summary(full)) {
			t.Errorf("resumed results differ from an uninterrupted run:\n%+v\n%+v", summary(res), summary(full))
		}
		checkFiles(t, cfg, 24)
	})

	t.Run("cancelled", func(t *testing.T) {
		dir := t.TempDir()
		cfg := randomMatch(t, dir)
		ctx, cancel := context.WithCancel(context.Background())
		cfg.Progress = func(done, total int) {
			if done >= 7 {
				cancel()
			}
		}
		res, err := Run(ctx, cfg)
		if !errors.Is(err, context.Canceled) || !res.Interrupted || res.Games >= 24 {
			t.Fatalf("cancelled run: %d games, interrupted %v, error %v", res.Games, res.Interrupted, err)
		}
		cfg.Progress = nil
		if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrJournalExists) {
			t.Errorf("rerun without resume: error %v, want ErrJournalExists", err)
		}
		cfg.Resume = true
		res, err = Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(summary(res), summary(full)) {
			t.Errorf("resumed results differ from an uninterrupted run:\n%+v\n%+v", summary(res), summary(full))
		}
		checkFiles(t, cfg, 24)
	})

	t.Run("other match", func(t *testing.T) {
		dir := t.TempDir()
		cfg := randomMatch(t, dir)
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		cfg.Resume, cfg.Seed = true, 12
		if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrJournalMismatch) || !strings.Contains(err.Error(), "seed") {
			t.Errorf("resume with another seed: error %v, want ErrJournalMismatch naming the seed", err)
		}
	})
}

// checkFiles checks that the journal and the PDN file hold each game exactly once, and
// that the PDN games read back and replay to their recorded result.
func checkFiles(t *testing.T, cfg Config, games int) {
	t.Helper()
	f, err := os.Open(cfg.JournalPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, recs, _, err := readJournal(f, cfg.JournalPath)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, r := range recs {
		if seen[r.Game] {
			t.Errorf("journal: game %d recorded twice", r.Game)
		}
		seen[r.Game] = true
	}
	if len(seen) != games {
		t.Errorf("journal: %d games, want %d", len(seen), games)
	}
	if n := checkPDN(t, cfg.PDNPath, cfg.Variant); n != games {
		t.Errorf("PDN: %d games, want %d", n, games)
	}
}

// checkPDN reads a PDN file with pkg/pdn, replays every game, and checks its Result and
// Termination tags against the replayed game. It returns the number of games.
func checkPDN(t *testing.T, path string, v *engine.Variant) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := pdn.NewReader(f)
	rounds := map[string]bool{}
	lastRound := 0
	n := 0
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: game %d: %v", path, n+1, err)
		}
		n++
		if len(g.Warnings) > 0 {
			t.Errorf("%s: game %d: warnings %v", path, n, g.Warnings)
		}
		round := g.Get("Round")
		if rounds[round] {
			t.Errorf("%s: round %s twice", path, round)
		}
		rounds[round] = true
		if k, _ := strconv.Atoi(round); k <= lastRound {
			t.Errorf("%s: game %d: round %s after round %d: games out of order", path, n, round, lastRound)
		} else {
			lastRound = k
		}
		if g.Result != g.Get("Result") {
			t.Errorf("%s: game %d: movetext ends with %q, Result tag %q", path, n, g.Result, g.Get("Result"))
		}
		start := v.Start()
		if fen, ok := g.Tag("FEN"); ok {
			if start, err = v.ParseFEN(fen); err != nil {
				t.Fatalf("%s: game %d: %v", path, n, err)
			}
		}
		game := engine.NewGame(v, start)
		for _, m := range g.Mainline() {
			if _, err := game.PlayText(m.Text); err != nil {
				t.Fatalf("%s: game %d: move %s: %v", path, n, m.Text, err)
			}
		}
		out := game.Outcome()
		term := g.Get("Termination")
		drawn := (&Record{}).Result(v)
		switch {
		case term == ReasonMaxPlies || term == ReasonAdjudicatedDraw:
			if out.Over || g.Get("Result") != drawn {
				t.Errorf("%s: game %d: %s with outcome %v, result %s", path, n, term, out, g.Get("Result"))
			}
		case term == ReasonAdjudicatedWin || forfeitReasons[term]:
			if out.Over || g.Get("Result") == drawn {
				t.Errorf("%s: game %d: %s with outcome %v, result %s", path, n, term, out, g.Get("Result"))
			}
		case term != out.Reason:
			t.Errorf("%s: game %d: Termination %q, replay gives %v", path, n, term, out)
		}
		if gt := g.Get("GameType"); gt != "21" && v == english {
			t.Errorf("%s: game %d: GameType %q", path, n, gt)
		}
	}
	return n
}

func TestSPRTStop(t *testing.T) {
	test, err := stats.ParseSPRT("elo0=0,elo1=100,alpha=0.05,beta=0.05")
	if err != nil {
		t.Fatal(err)
	}
	var first any
	for _, workers := range []int{1, 2} {
		cfg := Config{
			Variant:     english,
			Players:     []Entrant{medium(), Random("random")},
			Games:       200,
			Openings:    testOpenings(t, 10),
			Seed:        5,
			MaxPlies:    150,
			Concurrency: workers,
			SPRT:        &test,
		}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		s := res.SPRT
		if s == nil || s.Decision != "H1" || s.LLR < s.Upper {
			t.Fatalf("%d workers: SPRT %+v, want H1 with LLR above the upper bound", workers, s)
		}
		t.Logf("%d workers: %+v, %d games counted, %d played", workers, *s, res.Games, len(res.Terminations))
		if res.Games >= 200 || res.Games != 2*s.Pairs {
			t.Errorf("%d workers: %d games counted for %d pairs of 100; want the match stopped early", workers, res.Games, s.Pairs)
		}
		if first == nil {
			first = summary(res)
		} else if !reflect.DeepEqual(first, summary(res)) {
			t.Errorf("SPRT stop depends on the workers:\n%+v\n%+v", first, summary(res))
		}
	}
}

func TestRoundRobinRatings(t *testing.T) {
	weak, _ := search.ParsePlayer("depth=1:random=0.8")
	cfg := Config{
		Variant:  english,
		Players:  []Entrant{Random("random"), Engine("d1", weak), Random("random2")},
		Games:    20,
		Openings: testOpenings(t, 6),
		Seed:     9,
		MaxPlies: 150,
		Anchor:   1, AnchorElo: 1000,
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 60 || len(res.Pairings) != 3 {
		t.Fatalf("%d games, %d pairings; want 60, 3", res.Games, len(res.Pairings))
	}
	if res.RatingsError != "" {
		t.Fatalf("ratings: %s", res.RatingsError)
	}
	t.Logf("%+v", res.Ratings)
	if len(res.Ratings) != 3 || res.Ratings[1].Elo != 1000 || res.Ratings[1].StdErr != 0 {
		t.Errorf("ratings %+v: want three, d1 anchored at 1000", res.Ratings)
	}
}

func TestConfigErrors(t *testing.T) {
	base := func() Config {
		return Config{Variant: english, Players: []Entrant{Random("a"), Random("b")}, Games: 2, Openings: testOpenings(t, 1)}
	}
	test := stats.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"same names", func(c *Config) { c.Players[1].Name = "a" }, "used twice"},
		{"no openings", func(c *Config) { c.Openings = nil }, "no openings"},
		{"sprt three players", func(c *Config) { c.Players = append(c.Players, Random("c")); c.SPRT = &test }, "exactly two"},
		{"resume without journal", func(c *Config) { c.Resume = true }, "journal"},
		{"one player", func(c *Config) { c.Players = c.Players[:1] }, "at least two"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base()
			tc.edit(&cfg)
			if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run: error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestEngineReset checks that an engine player reset for a new game plays exactly as the
// engine's own player made for that game.
func TestEngineReset(t *testing.T) {
	ps, err := search.ParsePlayer("depth=3:random=0.3")
	if err != nil {
		t.Fatal(err)
	}
	reused, err := Engine("x", ps).New(english, 1)
	if err != nil {
		t.Fatal(err)
	}
	playGame := func(white, black func(*engine.Game) engine.Move) []engine.Move {
		g := engine.NewGame(english, english.Start())
		for ply := 0; ply < 80 && !g.Outcome().Over; ply++ {
			choose := white
			if g.Position().Side == engine.Black {
				choose = black
			}
			if err := g.Play(choose(g)); err != nil {
				t.Fatal(err)
			}
		}
		return g.Moves()
	}
	ctx := context.Background()
	adapter := func(g *engine.Game) engine.Move {
		r, err := reused.Choose(ctx, Turn{Game: g})
		if err != nil {
			t.Fatal(err)
		}
		return r.Move
	}
	for seed := int64(2); seed < 5; seed++ {
		fresh, err := ps.New(english, seed)
		if err != nil {
			t.Fatal(err)
		}
		opponent, _ := ps.New(english, 99)
		reused.(Resetter).Reset(seed)
		got := playGame(adapter, func(g *engine.Game) engine.Move { r, _ := opponent.Choose(ctx, g); return r.Move })
		opponent, _ = ps.New(english, 99)
		want := playGame(func(g *engine.Game) engine.Move { r, _ := fresh.Choose(ctx, g); return r.Move },
			func(g *engine.Game) engine.Move { r, _ := opponent.Choose(ctx, g); return r.Move })
		if !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: a reset player played %d moves differing from a new one's %d", seed, len(got), len(want))
		}
	}
}
