package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shardGame is a game of a shard file written by writeShard: its record and its output.
type shardGame struct {
	rec  ShardRecord
	body string
}

// writeShard writes the shard file k of n of a job over one input, holding games, with
// the end end (its Games, ShardGames and Copy filled in when zero), and returns its path.
func writeShard(t *testing.T, dir string, h ShardHeader, k int, games []shardGame, end ShardEnd) string {
	t.Helper()
	h.Format, h.Shard = ShardFormat, k
	var b bytes.Buffer
	line := func(v any) {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(j, '\n'))
	}
	line(h)
	for _, g := range games {
		g.rec.Bytes = len(g.body)
		line(g.rec)
		if g.rec.Written {
			b.WriteString(g.body + "\n")
		}
	}
	if end.Copy == nil {
		end.Copy = &CopyResult{}
	}
	line(ShardRecord{End: &end})
	path := filepath.Join(dir, "out.shard-"+string(rune('0'+k)))
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestShardSetCopy merges the copies of two shards: the games in input order after the
// output's prefix, separated as one run separates them, the errors in order, and with
// dedupe the first of equal games over both shards kept, the counts made those of one run.
func TestShardSetCopy(t *testing.T) {
	dir := t.TempDir()
	h := ShardHeader{Command: "dedupe", Flags: []string{"--to=pdn"}, Inputs: []ShardInput{{Name: "a.pdn", Size: 10, SHA256: "00"}}, Shards: 2}
	s0 := writeShard(t, dir, h, 0, []shardGame{
		{ShardRecord{Input: 0, Game: 1, Written: true, Hash: "a1"}, "game 1"},
		{ShardRecord{Input: 0, Game: 3, ReadError: "game 3: bad"}, ""},
		{ShardRecord{Input: 0, Game: 5, Written: true, Hash: "b2"}, "game 5"},
	}, ShardEnd{Games: 6, ShardGames: 3, Prefix: "head\n", Copy: &CopyResult{Read: 3, Written: 2, Errors: 1}})
	s1 := writeShard(t, dir, h, 1, []shardGame{
		{ShardRecord{Input: 0, Game: 2, Written: true, Hash: "c3"}, "game 2"},
		{ShardRecord{Input: 0, Game: 4, Written: true, Hash: "a1"}, "game 4, as game 1"},
		{ShardRecord{Input: 0, Game: 6, Written: true, Hash: "b2", ReplayError: "game 6: illegal"}, "game 6, as game 5"},
	}, ShardEnd{Games: 6, ShardGames: 3, Prefix: "head\n", Copy: &CopyResult{Read: 3, Written: 3, ReplayErrors: 1}})
	for _, order := range [][]string{{s0, s1}, {s1, s0}} {
		m, err := OpenShards(context.Background(), order)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		var errs []string
		res, err := m.Copy(context.Background(), &out, "\n", true, func(err error) { errs = append(errs, err.Error()) })
		m.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := "head\ngame 1\ngame 2\ngame 5"; out.String() != want {
			t.Errorf("output %q, want %q", out.String(), want)
		}
		if want := []string{"game 3: bad"}; strings.Join(errs, "|") != strings.Join(want, "|") {
			t.Errorf("errors %q, want %q (game 6's replay error is a duplicate's)", errs, want)
		}
		if want := (CopyResult{Read: 6, Written: 3, Duplicates: 2, Errors: 1}); res != want {
			t.Errorf("counts %+v, want %+v", res, want)
		}
		if m.Header().Command != "dedupe" || m.End().Prefix != "head\n" {
			t.Errorf("header %+v, end %+v", m.Header(), m.End())
		}
	}
}

// TestOpenShardsRefuses: files that are not the shards of one job, each once and
// complete, are refused with a MergeError saying why, and so are two shards that hold the
// same game (found while merging).
func TestOpenShardsRefuses(t *testing.T) {
	dir := t.TempDir()
	h := ShardHeader{Command: "validate", Flags: []string{"--strict=false"}, Inputs: []ShardInput{{Name: "a.pdn", Size: 10, SHA256: "00"}}, Shards: 2}
	end := ShardEnd{Games: 2, ShardGames: 1}
	s0 := writeShard(t, dir, h, 0, []shardGame{{ShardRecord{Input: 0, Game: 1}, ""}}, end)
	s1 := writeShard(t, dir, h, 1, []shardGame{{ShardRecord{Input: 0, Game: 1}, ""}}, end)
	other := h
	other.Flags = []string{"--strict=true"}
	otherDir := t.TempDir()
	s1Other := writeShard(t, otherDir, other, 1, nil, end)
	truncated := filepath.Join(dir, "truncated")
	b, _ := os.ReadFile(s1)
	os.WriteFile(truncated, b[:bytes.LastIndexByte(b[:len(b)-1], '\n')+1], 0o644)
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{s0}, "missing shards: 1/2"},
		{[]string{s0, s0}, "shard 0/2 twice"},
		{[]string{s0, s1Other}, "--strict=true, not --strict=false"},
		{[]string{s0, truncated}, "truncated: no end record"},
		{[]string{s0, "-"}, "-: not a regular file"},
	} {
		m, err := OpenShards(context.Background(), tc.names)
		if err == nil {
			m.Close()
		}
		if !IsMergeError(err) || !strings.Contains(fmtErr(err), tc.want) {
			t.Errorf("OpenShards(%v): %v; want a MergeError saying %q", tc.names, err, tc.want)
		}
	}
	m, err := OpenShards(context.Background(), []string{s0, s1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	err = m.Problems(context.Background(), func(Problem) {})
	if !IsMergeError(err) || !strings.Contains(fmtErr(err), "both hold game 1 of a.pdn") {
		t.Errorf("Problems of two shards holding game 1: %v", err)
	}
	var me MergeError
	if !errors.As(err, &me) || me.Unwrap() == nil {
		t.Errorf("%v: not a MergeError wrapping the cause", err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
