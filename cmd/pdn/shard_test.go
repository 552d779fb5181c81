package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/testcorpus"
)

// shardRuns runs pdn args files on one machine, then as n shards whose files go to dir,
// merges them, and checks that the merge printed the same stdout and stderr and exited
// with the same status. It returns the shard files.
func shardRuns(t *testing.T, dir string, n int, args, files []string) []string {
	t.Helper()
	code, out, errOut := runPDN(t, "", append(slices.Clone(args), files...)...)
	name := filepath.Join(dir, fmt.Sprintf("%s-%d", args[0], n))
	var shards []string
	for k := range n {
		sargs := append(slices.Clone(args), "--shard", fmt.Sprintf("%d/%d", k, n), "--out", name)
		scode, sout, serr := runPDN(t, "", append(sargs, files...)...)
		want := fmt.Sprintf("%s.shard-%d-of-%d", name, k, n)
		if scode != 0 || sout != "" || (!strings.Contains(serr, want) && !slices.Contains(args, "-q")) {
			t.Fatalf("pdn %v shard %d/%d: exit %d, stdout %.200q, stderr %.300q (want exit 0, no output, %s named)", args, k, n, scode, sout, serr, want)
		}
		shards = append(shards, want)
	}
	slices.Reverse(shards) // any order
	mcode, mout, merr := runPDN(t, "", append([]string{"merge"}, shards...)...)
	if mcode != code || mout != out || merr != errOut {
		t.Errorf("pdn %v in %d shards, merged: exit %d, %d bytes of output, stderr %.500q\none run: exit %d, %d bytes, stderr %.500q",
			args, n, mcode, len(mout), merr, code, len(out), errOut)
		if mout != out {
			i := 0
			for i < min(len(mout), len(out)) && mout[i] == out[i] {
				i++
			}
			t.Errorf("outputs differ from byte %d: merged %.80q, one run %.80q", i, mout[i:], out[i:])
		}
	}
	return shards
}

// shardCases are the commands checked in shards: every sharded command, with options that
// replay, drop and rewrite games.
var shardCases = [][]string{
	{"validate"},
	{"validate", "--json", "--max-errors", "1"},
	{"validate", "--syntax-only", "--max-errors", "1"},
	{"stats"},
	{"stats", "--format", "json", "--skip-bad", "--top", "3"},
	{"convert"},
	{"convert", "--to", "json", "--positions"},
	{"convert", "--to", "csv", "--notation", "algebraic"},
	{"convert", "--to", "fen", "--skip-bad"},
	{"filter", "--result", "2-0", "--result", "1-1"},
	{"filter", "--min-plies", "3", "--to", "json", "--drop-comments"},
	{"dedupe"},
	{"dedupe", "--to", "json", "--skip-bad", "--captures", "full"},
}

// TestShardsMergeToOneRun runs every sharded command in 1, 2 and 3 shards over the test
// files (one of them twice, under another name, for dedupe; an empty one and a binary one)
// and merges them.
func TestShardsMergeToOneRun(t *testing.T) {
	dir := t.TempDir()
	again := filepath.Join(dir, "games-again.pdn")
	data, err := os.ReadFile("testdata/games.pdn")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(again, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Inputs that cannot be read are named by every shard and once by the merge.
	empty, binary := filepath.Join(dir, "empty.pdn"), filepath.Join(dir, "binary.pdn")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(binary, []byte("\x00\x01\x02\xff\xfe binary\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"testdata/games.pdn", empty, "testdata/bad.pdn", binary, again}
	for _, args := range shardCases {
		for _, j := range []string{"1", "3"} {
			for n := 1; n <= 3; n++ {
				shardRuns(t, t.TempDir(), n, append(slices.Clone(args), "-j", j), files)
			}
		}
	}
}

// TestShardsCorpus runs sharded commands over the whole shared corpus (899 files of every
// variant, some with errors) and the Open Checkers Archive (22,621 games; twice for
// dedupe, the second time under another name).
func TestShardsCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	var files []string
	err := filepath.WalkDir(corpus, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".pdn") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Skipf("shared corpus not found: %v", err)
	}
	oca := corpusFile(t, "mzuluaga__checkers/OCA_2.0.pdn")
	// the Open Checkers Archive, 11.5 MB of the corpus's 21: a sample of 1 MB of it unless
	// RAFLE_FULL_CORPUS is set (testcorpus)
	data, err := os.ReadFile(oca)
	if err != nil {
		t.Fatal(err)
	}
	if sample := testcorpus.Sample(data); len(sample) < len(data) {
		i := slices.Index(files, oca)
		oca = filepath.Join(t.TempDir(), "OCA-sample.pdn")
		if err := os.WriteFile(oca, sample, 0o644); err != nil {
			t.Fatal(err)
		}
		if i >= 0 {
			files[i] = oca
		}
	}
	abs, err := filepath.Abs(oca)
	if err != nil {
		t.Fatal(err)
	}
	ocaAgain := filepath.Join(t.TempDir(), "OCA-again.pdn") // the OCA under another name
	if err := os.Symlink(abs, ocaAgain); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		files []string
	}{
		{[]string{"validate", "-j", "2"}, files},
		{[]string{"stats", "--format", "json", "-j", "2"}, files},
		{[]string{"dedupe", "--to", "json", "-j", "2"}, append(slices.Clone(files), ocaAgain)}, // the OCA twice
		{[]string{"convert", "--to", "json", "-j", "2"}, []string{oca}},
	} {
		shardRuns(t, t.TempDir(), 3, tc.args, tc.files)
	}
}

// TestShardRefusals: a shard out of range, missing, given twice, of another job or cut
// short, and files that exist are refused, saying why.
func TestShardRefusals(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdn")
	data, err := os.ReadFile("testdata/games.pdn")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"convert", "--to", "json"}
	shards := shardRuns(t, dir, 3, args, []string{in}) // shards[i] is shard 2-i
	expect := func(what string, wantCode int, want string, args ...string) {
		t.Helper()
		code, out, errOut := runPDN(t, "", args...)
		if code != wantCode || !strings.Contains(errOut, want) || (wantCode != 0 && out != "") {
			t.Errorf("%s: pdn %v: exit %d, stderr %q, stdout %.100q; want exit %d and %q", what, args, code, errOut, out, wantCode, want)
		}
	}
	expect("K out of range", 2, "--shard", "convert", "--shard", "3/3", "--out", filepath.Join(dir, "x"), in)
	expect("no N", 2, "--shard", "convert", "--shard", "1", "--out", filepath.Join(dir, "x"), in)
	expect("no --out", 2, "--output FILE", "validate", "--shard", "0/2", in)
	expect("standard input", 2, "standard input", "validate", "--shard", "0/2", "--out", filepath.Join(dir, "x"))
	expect("an input twice", 2, "given twice", "validate", "--shard", "0/2", "--out", filepath.Join(dir, "x"), in, in)
	expect("--report", 2, "--report", "stats", "--report", dir, "--shard", "0/2", "--out", filepath.Join(dir, "x"), in)
	expect("shard again", 2, "exists", append(args, "--shard", "1/3", "--out", filepath.Join(dir, "convert-3"), in)...)
	expect("missing shard", 1, "missing shards: 1/3", "merge", shards[0], shards[2])
	expect("no files", 2, "merge: give the shard files", "merge")
	expect("not a shard", 1, "not a pdn shard file", "merge", in)
	twice := filepath.Join(dir, "twice")
	if err := os.Link(shards[2], twice); err != nil {
		t.Fatal(err)
	}
	expect("shard twice", 1, "shard 0/3 twice", "merge", shards[2], twice, shards[1], shards[0])

	// Shards of another job: other flags, another input, another count.
	expect("other flags", 0, "", append([]string{"convert", "--to", "pdn", "--shard", "1/3", "--out", filepath.Join(dir, "other")}, in)...)
	expect("other flags", 1, "another job", "merge", shards[2], filepath.Join(dir, "other.shard-1-of-3"), shards[0])
	expect("other flags", 1, "--format=pdn", "merge", shards[2], filepath.Join(dir, "other.shard-1-of-3"), shards[0])
	expect("other command", 0, "", "validate", "--shard", "1/3", "--out", filepath.Join(dir, "val"), in)
	expect("other command", 1, "pdn validate, not pdn convert", "merge", shards[2], filepath.Join(dir, "val.shard-1-of-3"), shards[0])
	expect("other count", 0, "", append(args, "--shard", "1/2", "--out", filepath.Join(dir, "two"), in)...)
	expect("other count", 1, "2 shards, not 3", "merge", shards[2], filepath.Join(dir, "two.shard-1-of-2"), shards[0])
	if err := os.WriteFile(in, append(data, data...), 0o644); err != nil {
		t.Fatal(err)
	}
	expect("other input", 0, "", append(args, "--shard", "1/3", "--out", filepath.Join(dir, "changed"), in)...)
	expect("other input", 1, "input 1 is "+in, "merge", shards[2], filepath.Join(dir, "changed.shard-1-of-3"), shards[0])

	// A shard file cut short, or with a record changed.
	b, err := os.ReadFile(shards[1])
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut")
	if err := os.WriteFile(cut, b[:len(b)-20], 0o644); err != nil {
		t.Fatal(err)
	}
	expect("cut short", 1, "truncated", "merge", shards[2], cut, shards[0])
	lines := strings.SplitN(string(b), "\n", 3)
	bad := filepath.Join(dir, "bad")
	damaged := lines[0] + "\n" + strings.Replace(lines[1], `"bytes":`, `"bytes":1`, 1) + "\n" + lines[2]
	if err := os.WriteFile(bad, []byte(damaged), 0o644); err != nil {
		t.Fatal(err)
	}
	expect("damaged", 1, "damaged", "merge", shards[2], bad, shards[0])

	// merge --out writes a new file only.
	merged := filepath.Join(dir, "merged.json")
	expect("merge --out", 0, "", "merge", "--out", merged, shards[0], shards[1], shards[2])
	got, err := os.ReadFile(merged)
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := runPDN(t, "", "merge", shards[0], shards[1], shards[2])
	if string(got) != want {
		t.Errorf("merge --out wrote %d bytes, merge to stdout %d", len(got), len(want))
	}
	expect("merge over a file", 2, "exists", "merge", "--out", merged, shards[0], shards[1], shards[2])
	expect("merge --out refused", 1, "missing", "merge", "--out", filepath.Join(dir, "none.json"), shards[0])
	if _, err := os.Stat(filepath.Join(dir, "none.json")); err == nil {
		t.Error("a refused merge left its --out file")
	}
}

// TestShardFromEnvironment: without --shard, --out takes the shard from Slurm's array
// (COUNT, or MIN and MAX) or Kubernetes' completion index and --shards, as selfplay does.
func TestShardFromEnvironment(t *testing.T) {
	dir := t.TempDir()
	args := []string{"stats", "--format", "json", "testdata/games.pdn", "testdata/bad.pdn"}
	_, whole, _ := runPDN(t, "", args...)
	var shards []string
	for k := range 3 {
		t.Setenv("SLURM_ARRAY_TASK_ID", fmt.Sprint(k+1)) // --array=1-3
		t.Setenv("SLURM_ARRAY_TASK_MIN", "1")
		t.Setenv("SLURM_ARRAY_TASK_MAX", "3")
		out := filepath.Join(dir, "slurm")
		if code, _, errOut := runPDN(t, "", append(args, "--out", out)...); code != 0 {
			t.Fatalf("task %d: exit %d: %s", k+1, code, errOut)
		}
		shards = append(shards, fmt.Sprintf("%s.shard-%d-of-3", out, k))
	}
	if _, out, errOut := runPDN(t, "", append([]string{"merge"}, shards...)...); out != whole {
		t.Errorf("Slurm shards merged: %q (stderr %q), one run %q", out, errOut, whole)
	}
	// Without --out, the environment does not make a shard.
	if code, out, _ := runPDN(t, "", args...); code != 1 || out != whole {
		t.Errorf("in an array task without --out: exit %d, output %q", code, out)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "4")
	if code, _, errOut := runPDN(t, "", append(args, "--out", filepath.Join(dir, "bad"))...); code != 2 || !strings.Contains(errOut, "SLURM_ARRAY_TASK_ID") {
		t.Errorf("task 4 of 1-3: exit %d, %q", code, errOut)
	}
	os.Unsetenv("SLURM_ARRAY_TASK_ID")
	shards = nil
	for k := range 2 {
		t.Setenv("JOB_COMPLETION_INDEX", fmt.Sprint(k))
		out := filepath.Join(dir, "k8s-{shard}.json")
		if code, _, errOut := runPDN(t, "", append(args, "--out", out, "--shards", "2")...); code != 0 {
			t.Fatalf("index %d: exit %d: %s", k, code, errOut)
		}
		shards = append(shards, filepath.Join(dir, fmt.Sprintf("k8s-%d.json", k)))
	}
	if _, out, errOut := runPDN(t, "", append([]string{"merge"}, shards...)...); out != whole {
		t.Errorf("Kubernetes shards merged: %q (stderr %q), one run %q", out, errOut, whole)
	}
	if code, _, errOut := runPDN(t, "", append(args, "--out", filepath.Join(dir, "x"))...); code != 2 || !strings.Contains(errOut, "--shards") {
		t.Errorf("JOB_COMPLETION_INDEX without --shards: exit %d, %q", code, errOut)
	}
}
