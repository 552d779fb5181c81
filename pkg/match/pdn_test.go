package match

import (
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// TestWritePDNGameType: the GameType tag names the variant, and a variant without a PDN
// number (killer) gets none, not "0", which is chess.
func TestWritePDNGameType(t *testing.T) {
	for name, want := range map[string]string{"international": `[GameType "20"]`, "breakthrough": `[GameType "96"]`, "killer": ""} {
		var b strings.Builder
		rec := &Record{White: "a", Black: "b", Moves: []string{"32-28"}, Reason: "max-plies", Date: "2026.01.01"}
		if err := WritePDN(&b, engine.MustLookup(name), rec, "e", "s"); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "GameType"); got != (want != "") || want != "" && !strings.Contains(b.String(), want) {
			t.Errorf("%s: WritePDN wrote\n%s\nwant the tag %q", name, b.String(), want)
		}
	}
}

// TestRecordResult: the result notation of each variant, first mover's score first.
func TestRecordResult(t *testing.T) {
	for name, want := range map[string][3]string{
		"international": {"2-0", "1-1", "0-2"},
		"canadian":      {"2-0", "1-1", "0-2"},
		"breakthrough":  {"2-0", "1-1", "0-2"},
		"frysk":         {"2-0", "1-1", "0-2"},
		"antidraughts":  {"2-0", "1-1", "0-2"},
		"killer":        {"2-0", "1-1", "0-2"},
		"english":       {"1-0", "1/2-1/2", "0-1"},
		"russian":       {"1-0", "1/2-1/2", "0-1"},
		"frisian":       {"1-0", "1/2-1/2", "0-1"},
	} {
		v := engine.MustLookup(name)
		first, second := v.FirstMover.String(), v.FirstMover.Other().String()
		for i, winner := range []string{first, "", second} {
			if got := (&Record{Winner: winner}).Result(v); got != want[i] {
				t.Errorf("%s: winner %q: result %s, want %s", name, winner, got, want[i])
			}
		}
	}
}

// TestWritePDNResultReadBack: games of the new variants that end by their own rules, as
// WritePDN writes them, replay without a warning and score the winner 1, and so does the
// same game written with the chess-style result.
func TestWritePDNResultReadBack(t *testing.T) {
	for _, tc := range []struct {
		variant, fen, move, winner, result string
	}{
		{"antidraughts", "B:W28:B23", "23x32", "white", "2-0"}, // white has no piece left: it wins
		{"breakthrough", "W:W6:B45", "6-1", "white", "2-0"},    // crowned: white wins
		{"killer", "B:W28:B23", "23x32", "black", "0-2"},       // white has no piece left: it loses
	} {
		v := engine.MustLookup(tc.variant)
		rec := &Record{White: "a", Black: "b", FEN: tc.fen, Moves: []string{tc.move}, Winner: tc.winner,
			Reason: "no-legal-move", Date: "2026.01.01"}
		var b strings.Builder
		if err := WritePDN(&b, v, rec, "e", "s"); err != nil {
			t.Fatal(err)
		}
		chess := strings.NewReplacer("2-0", "1-0", "0-2", "0-1").Replace(b.String())
		// the loser named the winner: the replay's result check says so
		wrong := strings.NewReplacer("2-0", "0-2", "0-2", "2-0").Replace(b.String())
		g, err := pdn.NewReader(strings.NewReader(wrong)).Next()
		if err != nil {
			t.Fatal(err)
		}
		res, err := pdn.Replay(g, v)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Warnings) != 1 || res.Warnings[0].Kind != pdn.KindResultContradicts {
			t.Errorf("%s: the wrong result replays with warnings %v; want a result warning\n%s", tc.variant, res.Warnings, wrong)
		}
		for _, text := range []string{b.String(), chess} {
			g, err := pdn.NewReader(strings.NewReader(text)).Next()
			if err != nil {
				t.Fatalf("%s: %v\n%s", tc.variant, err, text)
			}
			if text == b.String() && (g.Result != tc.result || g.Get("Result") != tc.result) {
				t.Errorf("%s: result %q, tag %q, want %s", tc.variant, g.Result, g.Get("Result"), tc.result)
			}
			res, err := pdn.Replay(g, v)
			if err != nil {
				t.Fatalf("%s: %v\n%s", tc.variant, err, text)
			}
			if len(res.Warnings) > 0 || len(g.Warnings) > 0 {
				t.Errorf("%s: warnings %v %v\n%s", tc.variant, g.Warnings, res.Warnings, text)
			}
			winner := engine.White
			if tc.winner == "black" {
				winner = engine.Black
			}
			if s, ok := pdn.ScoreFor(v, winner, g.GameResult()); !ok || s != 1 {
				t.Errorf("%s: the winner's score %g, %v, want 1\n%s", tc.variant, s, ok, text)
			}
		}
	}
}
