package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestShardsMergeToOneRun plays a match on one machine and in three shards numbered by
// Slurm's environment, merges them, and compares the tables, the JSON and the PDN.
func TestShardsMergeToOneRun(t *testing.T) {
	dir := t.TempDir()
	common := []string{"-v", "english", "--players", "depth=1:random=0.5,depth=2,easy", "--games", "6", "--seed", "3", "--max-plies", "60", "-q"}
	whole := filepath.Join(dir, "whole.pdn")
	code, table, stderr := runArgs(t, append(common, "--pdn", whole)...)
	if code != 0 {
		t.Fatalf("whole: exit %d: %s", code, stderr)
	}
	code, _, _ = runArgs(t, append(common, "--pdn", filepath.Join(dir, "w2.pdn"), "--json")...)
	var shards []string
	for k := range 3 {
		t.Setenv("SLURM_ARRAY_TASK_ID", string(rune('1'+k))) // --array=1-3
		t.Setenv("SLURM_ARRAY_TASK_MIN", "1")
		t.Setenv("SLURM_ARRAY_TASK_MAX", "3")
		code, _, stderr := runArgs(t, append(common, "--pdn", filepath.Join(dir, "m.pdn"))...)
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", k, code, stderr)
		}
		want := filepath.Join(dir, "m.shard-"+string(rune('0'+k))+"-of-3.pdn")
		if !strings.Contains(stderr, "shard "+string(rune('0'+k))+"/3") || !strings.Contains(stderr, want) {
			t.Errorf("shard %d: stderr %q does not name the shard and %s", k, stderr, want)
		}
		shards = append(shards, want)
	}
	os.Unsetenv("SLURM_ARRAY_TASK_ID")
	merged := filepath.Join(dir, "merged.pdn")
	code, mtable, stderr := runArgs(t, append([]string{"merge", "--pdn", merged}, shards...)...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	if mtable != table {
		t.Errorf("merged tables differ:\n%s\none run:\n%s", mtable, table)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(merged)
	if string(a) != string(b) {
		t.Error("merged PDN differs from the one-machine PDN")
	}
	code, _, stderr = runArgs(t, append([]string{"merge", "--pdn", merged}, shards...)...)
	if code != 2 || !strings.Contains(stderr, "exists") {
		t.Errorf("merge over an existing file: exit %d, %q", code, stderr)
	}
	// a FIFO is written, not refused as a file that exists
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		got := make(chan []byte)
		go func() {
			b, _ := os.ReadFile(fifo)
			got <- b
		}()
		code, _, stderr = runArgs(t, append([]string{"merge", "--pdn", fifo}, shards...)...)
		if code != 0 { // release the reader, which waits for a writer
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
		}
		if b := <-got; code != 0 || string(b) != string(a) {
			t.Errorf("merge --pdn FIFO: exit %d, %q; %d bytes read, want %d", code, stderr, len(b), len(a))
		}
	}
	code, _, stderr = runArgs(t, "merge", shards[0], shards[2])
	if code != 1 || !strings.Contains(stderr, "shard 1/3 is missing") {
		t.Errorf("merge without shard 1: exit %d, %q", code, stderr)
	}
	code, _, stderr = runArgs(t, append(common, "--shard", "3/3")...)
	if code != 2 || !strings.Contains(stderr, "--shard") {
		t.Errorf("--shard 3/3: exit %d, %q", code, stderr)
	}
	t.Setenv("JOB_COMPLETION_INDEX", "0")
	code, _, stderr = runArgs(t, common...)
	if code != 2 || !strings.Contains(stderr, "--shards") {
		t.Errorf("JOB_COMPLETION_INDEX without --shards: exit %d, %q", code, stderr)
	}
}
