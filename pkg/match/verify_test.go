package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestResumeReplaysJournal: --resume trusted the journal, so an illegal move written into it
// went into the PDN file and the statistics (issue 33 item 5). Every record is replayed with
// the rules; a bad one stops the resume with its line and game, and changes nothing.
func TestResumeReplaysJournal(t *testing.T) {
	cfg := randomMatch(t, t.TempDir())
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	journal, _ := os.ReadFile(cfg.JournalPath)
	pdnBefore, _ := os.ReadFile(cfg.PDNPath)
	lines := strings.SplitAfter(string(journal), "\n")
	const line = 4 // the third record
	for _, tc := range []struct {
		name   string
		change func(r *Record)
		want   string
	}{
		{"illegal move", func(r *Record) { r.Moves[r.OpeningPlies] = "1-32" }, `"1-32"`},
		{"move after the end", func(r *Record) { r.Moves = append(r.Moves, r.Moves[len(r.Moves)-1]) }, "ply"},
		{"winner", func(r *Record) {
			if r.Winner == "white" {
				r.Winner = "black"
			} else {
				r.Winner = "white"
			}
		}, "winner"},
		{"players", func(r *Record) { r.White, r.Black = r.Black, r.White }, "schedule"},
		{"opening", func(r *Record) { r.Opening = "another" }, "opening"},
		{"reason", func(r *Record) { r.Reason = "no-legal-move"; r.Moves = r.Moves[:r.OpeningPlies+1] }, "no-legal-move"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Record
			if err := json.Unmarshal([]byte(lines[line-1]), &r); err != nil {
				t.Fatal(err)
			}
			tc.change(&r)
			b, _ := json.Marshal(r)
			changed := append(append(append([]string{}, lines[:line-1]...), string(b)+"\n"), lines[line:]...)
			if err := os.WriteFile(cfg.JournalPath, []byte(strings.Join(changed, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			c := cfg
			c.Resume = true
			_, err := Run(context.Background(), c)
			where := fmt.Sprintf("line %d: game %d:", line, r.Game+1)
			if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), where) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("resume with a changed record: %v, want ErrBadRecord naming %q and %q", err, where, tc.want)
			}
			if after, _ := os.ReadFile(cfg.PDNPath); string(after) != string(pdnBefore) {
				t.Error("the refused resume changed the PDN file")
			}
		})
	}
	// the journal as written resumes
	os.WriteFile(cfg.JournalPath, journal, 0o644)
	c := cfg
	c.Resume = true
	if res, err := Run(context.Background(), c); err != nil || res.Resumed != 24 {
		t.Errorf("resume of the journal as written: %v", err)
	}
}

// TestMergeReplaysJournals: merge read the shards' journals as trustingly as --resume did.
func TestMergeReplaysJournals(t *testing.T) {
	_, shards := playShards(t, randomMatch(t, t.TempDir()), 2)
	b, _ := os.ReadFile(shards[1])
	lines := strings.SplitAfter(string(b), "\n")
	var r Record
	if err := json.Unmarshal([]byte(lines[2]), &r); err != nil {
		t.Fatal(err)
	}
	r.Moves[len(r.Moves)-1] = "1-32"
	nb, _ := json.Marshal(r)
	lines[2] = string(nb) + "\n"
	os.WriteFile(shards[1], []byte(strings.Join(lines, "")), 0o644)
	_, err := Merge(shards)
	where := fmt.Sprintf("%s: line 3: game %d:", shards[1], r.Game+1)
	if !errors.Is(err, ErrBadRecord) || !strings.Contains(err.Error(), where) || !strings.Contains(err.Error(), `"1-32"`) {
		t.Errorf("merge of a journal with an illegal move: %v, want ErrBadRecord naming %q", err, where)
	}
}
