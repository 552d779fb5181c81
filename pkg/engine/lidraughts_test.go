package engine_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// lidraughtsGames are games played on lidraughts.org, another implementation of these
// rules, as py-draughts keeps them for its tests (SOURCES.md of the shared corpus):
// test/games/<variant>/random_pdns.json, a JSON object whose pdn_positions are PDN games.
var lidraughtsGames = []string{"breakthrough", "antidraughts", "frysk", "frisian"}

// sharedCorpus returns the shared PDN corpus directory, or "" when it is not there.
func sharedCorpus() string {
	for _, dir := range []string{"../../../shared/pdn/corpus", "/work/shared/pdn/corpus"} {
		if _, err := os.Stat(dir); err == nil {
			return dir
		}
	}
	return ""
}

var pdnTag = regexp.MustCompile(`\[(\w+) "([^"]*)"\]`)

// TestLidraughtsGames replays the lidraughts games with rafle's rules: every move must be
// legal, and a game that ended by the rules (no move for the side to move) must have been
// won by the side the variant's goal names, as the Result tag says.
func TestLidraughtsGames(t *testing.T) {
	dir := sharedCorpus()
	if dir == "" {
		t.Skip("skipped: no shared PDN corpus (../shared/pdn/corpus)")
	}
	for _, name := range lidraughtsGames {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "miskibin__py-draughts/test/games", name, "random_pdns.json"))
			if err != nil {
				t.Fatal(err)
			}
			var file struct {
				Games []string `json:"pdn_positions"`
			}
			if err := json.Unmarshal(data, &file); err != nil {
				t.Fatal(err)
			}
			v := engine.MustLookup(name)
			played, ended := 0, 0
			for i, text := range file.Games {
				tags := map[string]string{}
				for _, m := range pdnTag.FindAllStringSubmatch(text, -1) {
					tags[m[1]] = m[2]
				}
				movetext := pdnTag.ReplaceAllString(text, "")
				if strings.TrimSpace(movetext) == "" {
					continue // a header without moves
				}
				if gt, err := engine.Lookup(tags["GameType"]); tags["GameType"] != "" && (err != nil || gt != v) {
					t.Fatalf("game %d: GameType %q is not %s", i+1, tags["GameType"], name)
				}
				start := v.Start()
				if fen := tags["FEN"]; fen != "" {
					if start, err = v.ParseFEN(fen); err != nil {
						t.Fatalf("game %d: %v", i+1, err)
					}
				}
				g := engine.NewGame(v, start)
				result := tags["Result"]
				for _, tok := range strings.Fields(movetext) {
					if tok == "2-0" || tok == "1-1" || tok == "0-2" || tok == "*" {
						result = tok // the terminator (some games have no tags)
						continue
					}
					if strings.HasSuffix(tok, ".") {
						continue
					}
					if _, err := g.PlayText(tok); err != nil {
						t.Fatalf("game %d (%s), ply %d: %s: %v", i+1, tags["Site"], g.Ply()+1, tok, err)
					}
				}
				played++
				o := g.Outcome()
				if !o.Over || o.Draw || o.Reason == "repetition" {
					continue // resigned, flagged or agreed
				}
				ended++
				if want, ok := map[string]engine.Color{"2-0": engine.White, "0-2": engine.Black}[result]; !ok || o.Winner != want {
					t.Errorf("game %d (%s): %v, but the result is %s", i+1, tags["Site"], o, result)
				}
			}
			t.Logf("%s: %d games replayed, %d ended by the rules", name, played, ended)
			if played == 0 {
				t.Errorf("%s: no game replayed", name)
			}
		})
	}
}
