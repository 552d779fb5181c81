package match

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/search"
)

// TestEGDBAdjudication: with Config.EGDB, a game ends at the first position that the
// database holds, with termination egdb and the database's value as the result; a game that
// never reaches one ends by the rules. Random players from 4-piece openings (and 3-piece ones,
// which end before the first move), the database of english up to 3 pieces built here.
func TestEGDBAdjudication(t *testing.T) {
	dir := t.TempDir()
	if _, err := egdb.Build(context.Background(), english, egdb.BuildOptions{Dir: filepath.Join(dir, "db"), Pieces: 3}); err != nil {
		t.Fatal(err)
	}
	db, err := egdb.Open(filepath.Join(dir, "db"), english, egdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ops []Opening
	for _, fen := range []string{"W:W22,23:B9,10", "B:W21,30:B3,12", "W:WK14,27:B6,K28", "W:W18,K25:BK10,11",
		"W:WK1,K3:BK32", "B:WK1,K3:BK32", "W:WK15:BK10,K32"} {
		p, err := english.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		ops = append(ops, Opening{Name: fen, Root: p})
	}
	ps, _ := search.Level("easy")
	ps.EGDB = db
	cfg := Config{Variant: english, Players: []Entrant{Random("r1"), Engine("easy", ps)}, Games: 14, Openings: ops,
		Seed: 5, MaxPlies: 200, Concurrency: 2, PDNPath: filepath.Join(dir, "m.pdn"), EGDB: db,
		JournalPath: filepath.Join(dir, "m.journal")}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// resumed, the journal's records replay: each egdb ending is the database's value
	resumed := cfg
	resumed.Resume, resumed.PDNPath = true, ""
	if again, err := Run(context.Background(), resumed); err != nil || !reflect.DeepEqual(summary(again), summary(res)) {
		t.Fatalf("resumed: %v, %+v, want %+v", err, summary(again), summary(res))
	}
	// a record whose winner is not the database's value is refused
	jb, err := os.ReadFile(cfg.JournalPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(jb), "\n")
	for i, l := range lines {
		if strings.Contains(l, `"reason":"egdb"`) && strings.Contains(l, `"winner":"white"`) {
			lines[i] = strings.Replace(l, `"winner":"white"`, `"winner":"black"`, 1)
			break
		}
	}
	bad := filepath.Join(dir, "bad.journal")
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	resumed.JournalPath = bad
	if _, err := Run(context.Background(), resumed); !errors.Is(err, ErrBadRecord) {
		t.Errorf("a changed egdb record: %v, want ErrBadRecord", err)
	}
	f, err := os.Open(cfg.PDNPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd := pdn.NewReader(f)
	adjudicated := 0
	for n := 1; ; n++ {
		g, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		start, err := english.ParseFEN(g.Get("FEN"))
		if err != nil {
			t.Fatalf("game %d: %v", n, err)
		}
		game := engine.NewGame(english, start)
		inDB := func() (egdb.Result, bool) {
			p := game.Position()
			r, err := db.Probe(&p)
			if err != nil {
				t.Fatal(err)
			}
			return r, r.Value != egdb.Unknown && r.Plies != 0
		}
		for _, m := range g.Mainline() {
			if r, ok := inDB(); ok {
				t.Fatalf("game %d: played on in %s (%s)", n, english.FEN(game.Position()), r)
			}
			if _, err := game.PlayText(m.Text); err != nil {
				t.Fatalf("game %d: %s: %v", n, m.Text, err)
			}
		}
		r, ok := inDB()
		term := g.Get("Termination")
		if term != ReasonEGDB {
			if ok || term != game.Outcome().Reason {
				t.Errorf("game %d: termination %s, outcome %v, in the database: %v", n, term, game.Outcome(), ok)
			}
			continue
		}
		adjudicated++
		p := game.Position()
		want := "1/2-1/2" // the first number is the first mover's, Black's in english
		switch {
		case r.Value == egdb.Win && p.Side == english.FirstMover, r.Value == egdb.Loss && p.Side != english.FirstMover:
			want = "1-0"
		case r.Value != egdb.Draw:
			want = "0-1"
		}
		if !ok || g.Get("Result") != want || game.Outcome().Over {
			t.Errorf("game %d: egdb at %s (%s): result %s, want %s", n, english.FEN(p), r, g.Get("Result"), want)
		}
	}
	count := 0
	for _, x := range res.Terminations {
		if x.Reason == ReasonEGDB {
			count = x.Games
		}
	}
	if adjudicated < 6 || count != adjudicated {
		t.Errorf("%d games adjudicated in the PDN, %d in the result's terminations: want the same, at least 6", adjudicated, count)
	}
	// a database of another variant is refused
	cfg.EGDB, cfg.PDNPath = nil, ""
	ru := engine.MustLookup("russian")
	if _, err := egdb.Build(context.Background(), ru, egdb.BuildOptions{Dir: filepath.Join(dir, "ru"), Pieces: 2}); err != nil {
		t.Fatal(err)
	}
	rdb, err := egdb.Open(filepath.Join(dir, "ru"), ru, egdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	cfg.EGDB = rdb
	if _, err := Run(context.Background(), cfg); err == nil {
		t.Error("a russian database for an english match: no error")
	}
}
