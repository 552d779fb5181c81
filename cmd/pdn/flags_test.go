package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputFile: -o/--output/--out FILE writes what stdout would get to a new file, for
// every command that writes games or a report (pdn convert -o x.pdn was refused, issue 33
// item 20); a file that exists or an input is never written over; a report of bad games is
// kept with the exit status 1.
func TestOutputFile(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"convert"},
		{"convert", "--format", "json"},
		{"filter", "--player", "Alpha"},
		{"dedupe", "--to", "csv"},
		{"stats", "--format", "json"},
		{"validate"},
	} {
		wcode, want, _ := runPDN(t, "", append(args, "testdata/games.pdn")...)
		for _, flag := range []string{"-o", "--output", "--out"} {
			path := filepath.Join(dir, strings.Join(args, "-")+flag+".out")
			code, out, errOut := runPDN(t, "", append(args, flag, path, "testdata/games.pdn")...)
			got, err := os.ReadFile(path)
			if code != wcode || out != "" || err != nil || string(got) != want {
				t.Errorf("pdn %v %s FILE: exit %d, stdout %q, stderr %q, file %q (%v); want exit %d and the file %q",
					args, flag, code, out, errOut, got, err, wcode, want)
			}
			code, _, errOut = runPDN(t, "", append(args, flag, path, "testdata/games.pdn")...)
			if again, _ := os.ReadFile(path); code != 2 || !strings.Contains(errOut, "exists") || string(again) != want {
				t.Errorf("pdn %v %s over an existing file: exit %d, stderr %q; want 2, the file kept", args, flag, code, errOut)
			}
		}
	}
	// a report of bad games is written, and the exit status says they are bad
	path := filepath.Join(dir, "bad.txt")
	code, _, _ := runPDN(t, "", "validate", "-o", path, "testdata/bad.pdn")
	if got, err := os.ReadFile(path); code != 1 || err != nil || !strings.Contains(string(got), "bad.pdn") {
		t.Errorf("validate -o FILE bad.pdn: exit %d, file %q (%v); want 1 and the problems in the file", code, got, err)
	}
	// never over an input
	in := filepath.Join(dir, "in.pdn")
	data, err := os.ReadFile("testdata/games.pdn")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runPDN(t, "", "convert", "-o", in, in)
	if after, _ := os.ReadFile(in); code == 0 || string(after) != string(data) || !strings.Contains(errOut, in) {
		t.Errorf("convert -o IN IN: exit %d, stderr %q; want a refusal and the input kept", code, errOut)
	}
}

// TestPlayer: filter --player keeps the games where the name plays either colour (issue 33
// item 20, as pgn-extract's -p), the whole tag value or ~regexp, any of several.
func TestPlayer(t *testing.T) {
	for _, tc := range []struct {
		players []string
		want    []string // the games kept, by their White-Black pair
	}{
		{[]string{"Alpha"}, []string{"Alpha-Beta", "Gamma-Alpha"}},
		{[]string{"Gamma"}, []string{"Gamma-Alpha", "Beta-Gamma"}},
		{[]string{"Alpha", "Beta"}, []string{"Alpha-Beta", "Gamma-Alpha", "Beta-Gamma"}},
		{[]string{"Alph"}, nil},
		{[]string{"~^Alph"}, []string{"Alpha-Beta", "Gamma-Alpha"}},
		{[]string{"~mm"}, []string{"Gamma-Alpha", "Beta-Gamma"}},
	} {
		args := []string{"filter", "--format", "json", "-q"}
		for _, p := range tc.players {
			args = append(args, "--player", p)
		}
		code, out, errOut := runPDN(t, "", append(args, "testdata/games.pdn")...)
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line == "" {
				continue
			}
			white, black := jsonTag(line, "White"), jsonTag(line, "Black")
			got = append(got, white+"-"+black)
		}
		if code != 0 || strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("filter --player %v: exit %d, kept %v (stderr %q); want %v", tc.players, code, got, errOut, tc.want)
		}
	}
	code, _, errOut := runPDN(t, "", "filter", "--player", "~(", "testdata/games.pdn")
	if code != 2 || !strings.Contains(errOut, "--player") {
		t.Errorf("filter --player ~(: exit %d, stderr %q; want 2", code, errOut)
	}
}

// jsonTag returns the value of the tag name in a game written by --format json.
func jsonTag(line, name string) string {
	key := `"` + name + `","value":"`
	i := strings.Index(line, key)
	if i < 0 {
		key = `"` + name + `":"`
		if i = strings.Index(line, key); i < 0 {
			return ""
		}
	}
	rest := line[i+len(key):]
	return rest[:strings.IndexByte(rest, '"')]
}

// TestNamedPositions: filter --fen and book --probe take the named positions of perft
// (issue 33 item 19): start is each game's own initial position.
func TestNamedPositions(t *testing.T) {
	// --fen replays the games: game 3 of games.pdn has an illegal move (exit status 1)
	code, all, _ := runPDN(t, "", "filter", "-q", "testdata/games.pdn")
	code2, start, errOut := runPDN(t, "", "filter", "-q", "--fen", "start", "testdata/games.pdn")
	if code != 0 || code2 != 1 || start != all || strings.Count(all, "[Event") != 3 {
		t.Errorf("filter --fen start: exit %d, stderr %q, kept\n%s\nwant every game (none has a FEN tag)", code2, errOut, start)
	}
	code, out, errOut := runPDN(t, "", "filter", "-q", "--fen", "Woldouby", "testdata/games.pdn")
	if code != 0 || out != "" {
		t.Errorf("filter --fen Woldouby: exit %d, stdout %q, stderr %q; want no game (and no replay past men it lacks)", code, out, errOut)
	}
	// a name of another variant than --variant's is no position of it
	code, _, errOut = runPDN(t, "", "filter", "-q", "--fen", "Woldouby", "-v", "english", "testdata/games.pdn")
	if code != 1 || !strings.Contains(errOut, "Woldouby") {
		t.Errorf("filter --fen Woldouby -v english: exit %d, stderr %q; want 1", code, errOut)
	}
}

// TestExitCodes: a bad command line exits 2, bad data (a FEN that is no position, moves
// that cannot be played, a missing file) 1 (issue 33 item 21).
func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"convert", "--format", "xml", "testdata/games.pdn"}, 2, "--format"},
		{[]string{"convert", "--to", "xml", "testdata/games.pdn"}, 2, "--format"},
		{[]string{"validate", "--format", "xml", "testdata/games.pdn"}, 2, "--format"},
		{[]string{"convert", "--bogus", "testdata/games.pdn"}, 2, "bogus"},
		{[]string{"filter", "--fen", "nonsense", "testdata/games.pdn"}, 1, "nonsense"},
		{[]string{"filter", "--fen", "W:W99:B1", "testdata/games.pdn"}, 1, "99"},
		{[]string{"stats", "testdata/no-such-file.pdn"}, 1, "no-such-file"},
		{[]string{"validate", "testdata/bad.pdn"}, 1, "error"},
	} {
		code, _, errOut := runPDN(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("pdn %v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}
