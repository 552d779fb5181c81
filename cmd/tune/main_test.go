package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/golden"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/search"
)

const games = "testdata/games.pdn"

func runArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"tune"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestHelp compares tune --help with testdata/help.golden (go test -update rewrites it).
func TestHelp(t *testing.T) {
	code, stdout, stderr := runArgs(t, "--help")
	if code != 0 || stderr != "" {
		t.Fatalf("tune --help: exit %d, stderr %q", code, stderr)
	}
	golden.Check(t, filepath.Join("testdata", "help.golden"), []byte(stdout))
}

type jsonSummary struct {
	K       float64 `json:"k"`
	Variant string  `json:"variant"`
	Train   struct {
		Positions int     `json:"positions"`
		Before    float64 `json:"loss_before"`
		After     float64 `json:"loss_after"`
	} `json:"train"`
	Holdout *struct {
		Positions int `json:"positions"`
	} `json:"holdout"`
	Weights []struct {
		Feature string  `json:"feature"`
		Old     float64 `json:"old"`
		New     float64 `json:"new"`
		Tuned   bool    `json:"tuned"`
	} `json:"weights"`
	Data struct {
		Positions  int `json:"positions"`
		Duplicates int `json:"duplicates"`
	} `json:"data"`
}

func TestTunePDN(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tuned.json")
	code, stdout, stderr := runArgs(t, "--seed", "1", "--holdout", "0.2", "--fix", "tempo", "--out", out, "--json", games)
	if code != 0 {
		t.Fatalf("tune: exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stderr, "tune: seed 1\n") {
		t.Errorf("stderr %q does not print the seed", stderr)
	}
	var s jsonSummary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("tune --json: %v\n%s", err, stdout)
	}
	if s.Variant != "english" || s.K <= 0 || s.Holdout == nil || s.Train.Positions+s.Holdout.Positions != s.Data.Positions ||
		!(s.Train.After < s.Train.Before) {
		t.Errorf("tune --json: %+v", s)
	}
	for _, w := range s.Weights {
		if (w.Feature == "tempo" || w.Feature == "man") && (w.Tuned || w.New != w.Old) {
			t.Errorf("fixed %s: %+v", w.Feature, w)
		}
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := search.LoadWeights(f, engine.MustLookup("english"))
	if err != nil {
		t.Fatalf("the weights written do not load: %v", err)
	}
	// The engine's players accept the file.
	ps, err := search.ParsePlayer("medium:weights=" + out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ps.New(engine.MustLookup("english"), 1); err != nil {
		t.Errorf("player with the tuned weights: %v", err)
	}
	if w.Values["man"] != 100 {
		t.Errorf("man = %g, want 100", w.Values["man"])
	}
	// The table output names both sets and every feature.
	code, stdout, stderr = runArgs(t, "--seed", "1", "--holdout", "0.2", games)
	if code != 0 || !strings.Contains(stdout, "held-out") || !strings.Contains(stdout, "runaway") {
		t.Errorf("tune (table): exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// writeCSV replays the test games and writes one row per position, in the columns
// documented for pdn convert --to csv.
func writeCSV(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(games)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v := engine.MustLookup("english")
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Write([]string{"game", "ply", "fen", "side", "move", "result"})
	r := pdn.NewReader(f)
	for id := 1; ; id++ {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		eg := engine.NewGame(v, v.Start())
		for _, m := range g.Mainline() {
			if _, err := eg.PlayText(m.Text); err != nil {
				t.Fatal(err)
			}
		}
		for ply, p := range eg.Positions() {
			move := ""
			if ply < len(eg.Moves()) {
				move = v.FormatMove(&p, eg.Moves()[ply], false)
			}
			cw.Write([]string{"g" + strconv.Itoa(id), strconv.Itoa(ply), v.FEN(p), p.Side.String(), move, g.GameResult()})
		}
	}
	cw.Flush()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCSVMatchesPDN(t *testing.T) {
	path := filepath.Join(t.TempDir(), "positions.csv")
	writeCSV(t, path)
	var sums [2]jsonSummary
	for i, args := range [][]string{{games}, {"--variant", "english", path}} {
		code, stdout, stderr := runArgs(t, append([]string{"--seed", "3", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("tune %v: exit %d, stderr %q", args, code, stderr)
		}
		if err := json.Unmarshal([]byte(stdout), &sums[i]); err != nil {
			t.Fatal(err)
		}
	}
	if sums[0].Data.Positions != sums[1].Data.Positions || sums[0].K != sums[1].K || sums[0].Train.After != sums[1].Train.After {
		t.Errorf("PDN and CSV of the same games differ: %+v vs %+v", sums[0], sums[1])
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := write("empty.pdn", "")
	noResult := write("noresult.pdn", "[GameType \"21\"]\n\n1. 9-14 22-18 *\n")
	w := search.DefaultWeights(engine.MustLookup("english"))
	w.Values["flank"] = 3
	var b bytes.Buffer
	w.Save(&b)
	unknownW := write("unknown.json", b.String())
	delete(w.Values, "flank")
	delete(w.Values, "tempo")
	b.Reset()
	w.Save(&b)
	missingW := write("missing.json", b.String())
	badCSV := write("bad.csv", "game,ply,fen,result\ng1,0,B:W21-32:B1-12,1-0\ng1,x,B:W21-32:B1-12,1-0\n")
	out := filepath.Join(dir, "out.json")
	tests := []struct {
		name string
		args []string
		code int
		want string // in the one-line error
	}{
		{"no input", nil, 2, "no input"},
		{"unreadable", []string{filepath.Join(dir, "missing.pdn")}, 1, "missing.pdn"},
		{"empty", []string{empty}, 1, "no usable positions"},
		{"no results", []string{noResult}, 1, "no usable positions"},
		{"unknown feature in weights", []string{"--init", unknownW, games}, 1, "unknown features: flank"},
		{"missing feature in weights", []string{"--init", missingW, games}, 1, "missing features: tempo"},
		{"unknown --features", []string{"--features", "king,flank", games}, 2, "flank"},
		{"unknown --fix", []string{"--fix", "flank", games}, 2, "flank"},
		{"features and fix", []string{"--features", "king", "--fix", "tempo", games}, 2, "exclude"},
		{"bad loss", []string{"--loss", "hinge", games}, 2, "hinge"},
		{"bad holdout", []string{"--holdout", "1", games}, 2, "--holdout"},
		{"bad csv", []string{"--variant", "english", badCSV}, 1, "line 3"},
		{"csv without variant", []string{badCSV}, 2, "--variant"},
		{"wrong variant", []string{"--variant", "russian", games}, 1, "GameType"},
		{"unknown flag", []string{"--epochs", "3", games}, 2, "epochs"},
		// issue 33 items 20 and 21: --format is the output's, the input's formats still read
		{"bad --format", []string{"--format", "xml", games}, 2, `--format "xml"`},
		{"bad --input-format", []string{"--input-format", "xml", games}, 2, `--input-format "xml"`},
		{"--format csv, the input's", []string{badCSV}, 2, "--variant"},
		{"--input-format csv", []string{"--input-format", "csv", games}, 2, "CSV input needs --variant"},
		{"--format csv as before", []string{"--format", "csv", games}, 2, "CSV input needs --variant"},
		{"output in a missing directory", []string{"--out", filepath.Join(dir, "nodir", "w.json"), games}, 1, "no such directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--out", out}, tc.args...)
			code, stdout, stderr := runArgs(t, args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if code != tc.code || !strings.Contains(last, tc.want) || !strings.HasPrefix(last, "tune: ") || strings.HasPrefix(last, "tune: tune:") {
				t.Errorf("tune %v: exit %d, stderr %q; want exit %d and an error naming %q", args, code, stderr, tc.code, tc.want)
			}
			if stdout != "" {
				t.Errorf("tune %v: stdout %q, want nothing", args, stdout)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("tune %v wrote %s", args, out)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 5 {
				t.Errorf("tune %v left files behind: %d entries in the directory", args, len(ents))
			}
		})
	}
}

// TestInferVariant: games without a GameType tag are read as pdn validate reads them, with
// the inference said on stderr; without the inference tune asked for --variant.
func TestInferVariant(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "games.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasPrefix(line, "[GameType") {
			kept = append(kept, line)
		}
	}
	path := filepath.Join(t.TempDir(), "untagged.pdn")
	if err := os.WriteFile(path, []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runArgs(t, path, "--iterations", "2", "--holdout", "0", "-q", "--seed", "1")
	if code != 0 || !strings.Contains(stderr, "inferred from") {
		t.Errorf("exit %d, stderr %q; want the variant inferred and said", code, stderr)
	}
}

// TestSkipBad: a game that does not replay fails the run, naming it, unless --skip-bad.
func TestSkipBad(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "games.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	bad := "\n[Event \"bad\"]\n[GameType \"21\"]\n[Result \"1-0\"]\n\n1. 9-14 24-20 2. 14-19 5-9 1-0\n"
	path := filepath.Join(t.TempDir(), "bad.pdn")
	if err := os.WriteFile(path, append(data, bad...), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{path, "--iterations", "2", "--holdout", "0", "-q", "--seed", "1"}
	if code, _, stderr := runArgs(t, args...); code != 1 || !strings.Contains(stderr, "--skip-bad") || !strings.Contains(stderr, "first bad game") {
		t.Errorf("without --skip-bad: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runArgs(t, append(args, "--skip-bad")...); code != 0 {
		t.Errorf("with --skip-bad: exit %d, stderr %q", code, stderr)
	}
}

// TestPatterns: --patterns writes weights with patterns and a source, which a player loads,
// and --report lists them; a board without patterns is refused before anything is read.
func TestPatterns(t *testing.T) {
	dir := t.TempDir()
	out, rep := filepath.Join(dir, "w.json"), filepath.Join(dir, "report")
	code, stdout, stderr := runArgs(t, "--patterns", "--seed", "1", "--iterations", "20", "--source", "test games",
		"-q", "--out", out, "--report", rep, games)
	if code != 0 {
		t.Fatalf("tune --patterns: exit %d, stderr %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v := engine.MustLookup("english")
	w, err := search.LoadWeights(f, v)
	if err != nil {
		t.Fatal(err)
	}
	if w.Patterns == nil || w.Patterns.Windows != 9 || w.Source != "test games" {
		t.Fatalf("weights written: patterns %v, source %q; want 9 windows, \"test games\"", w.Patterns != nil, w.Source)
	}
	if !strings.Contains(stdout, "patterns: 9 windows") {
		t.Errorf("summary without the patterns line:\n%s", stdout)
	}
	html, err := os.ReadFile(filepath.Join(rep, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"9 windows, 118098 weights", "test games", "to fit"} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}
	code, _, stderr = runArgs(t, "--patterns", "--variant", "canadian", games)
	if code != 2 || !strings.Contains(stderr, "canadian's board has no patterns") {
		t.Errorf("tune --patterns --variant canadian: exit %d, stderr %q; want 2 and the reason", code, stderr)
	}
}
