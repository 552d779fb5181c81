package main

import (
	"github.com/rafle/rafle/pkg/report"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestOutputsNotReplaced: selfplay --pdn FILE replaced an existing FILE, a symbolic link to
// an archive (issue 33 item 1); --pdn DIR left DIR.journal and --pdn /dev/full created
// /dev/full.journal (item 22). No output may be an input, or a file the command did not create.
func TestOutputsNotReplaced(t *testing.T) {
	const archive = "[Event \"archive\"]\n1. 11-15 23-19 *\n\n"
	quick := []string{"--players", "easy,easy:random=1", "--games", "2", "--seed", "1", "--max-plies", "8", "-j", "1", "-q"}
	exists := func(p string) bool { _, err := os.Lstat(p); return err == nil }

	t.Run("existing pdn", func(t *testing.T) {
		dir := t.TempDir()
		target, link := filepath.Join(dir, "archive.pdn"), filepath.Join(dir, "link.pdn")
		os.WriteFile(target, []byte(archive), 0o644)
		os.Symlink(target, link)
		code, _, stderr := runArgs(t, append(quick, "--pdn", link)...)
		if code != 1 || !strings.Contains(stderr, "exists") {
			t.Errorf("--pdn over an archive: exit %d, stderr %q; want 1 and exists", code, stderr)
		}
		if b, _ := os.ReadFile(target); string(b) != archive {
			t.Errorf("the archive was changed: %q", b)
		}
		if exists(link + ".journal") {
			t.Error("the refused match left its journal")
		}
		// nor a --report folder it made
		rep := filepath.Join(dir, "rep")
		if code, _, _ := runArgs(t, append(quick, "--pdn", link, "--report", rep)...); code != 1 || exists(rep) {
			t.Errorf("--pdn over an archive with --report: exit %d, report folder left %v", code, exists(rep))
		}
		// --resume does not make it the match's file: its journal holds no game
		code, _, stderr = runArgs(t, append(quick, "--pdn", link, "--resume")...)
		if b, _ := os.ReadFile(target); code != 1 || string(b) != archive || exists(link+".journal") {
			t.Errorf("--resume over an archive without a journal: exit %d, stderr %q, archive %q", code, stderr, b)
		}
	})
	t.Run("directory", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		os.Mkdir(dir, 0o755)
		code, _, stderr := runArgs(t, append(quick, "--pdn", dir)...)
		if code != 2 || !strings.Contains(stderr, "is a directory") || exists(dir+".journal") {
			t.Errorf("--pdn DIR: exit %d, stderr %q, journal left %v", code, stderr, exists(dir+".journal"))
		}
	})
	t.Run("fifo", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "games")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skip("no FIFO here:", err)
		}
		code, _, stderr := runArgs(t, append(quick, "--pdn", fifo)...)
		if code != 0 || exists(fifo+".journal") || !strings.Contains(stderr, "no journal") {
			t.Errorf("--pdn FIFO: exit %d, stderr %q, journal beside it %v", code, stderr, exists(fifo+".journal"))
		}
		code, _, stderr = runArgs(t, append(quick, "--pdn", fifo, "--resume")...)
		if code != 2 || !strings.Contains(stderr, "--journal") {
			t.Errorf("--pdn FIFO --resume: exit %d, stderr %q; want 2 and a hint for --journal", code, stderr)
		}
	})
	t.Run("device path", func(t *testing.T) {
		// /dev/stdout redirected with >> to a file: appended to, nothing beside it
		f, err := os.OpenFile(filepath.Join(t.TempDir(), "out"), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.WriteString("before\n")
		dev := "/dev/fd/" + strconv.Itoa(int(f.Fd()))
		if _, err := os.Stat(dev); err != nil {
			t.Skip("no /dev/fd here")
		}
		code, _, stderr := runArgs(t, append(quick, "--pdn", dev)...)
		b, _ := os.ReadFile(f.Name())
		if code != 0 || !strings.HasPrefix(string(b), "before\n[Event ") || exists(dev+".journal") {
			t.Errorf("--pdn %s: exit %d, stderr %q, file %q", dev, code, stderr, b)
		}
	})
	t.Run("input", func(t *testing.T) {
		dir := t.TempDir()
		openings := filepath.Join(dir, "openings.pdn")
		os.WriteFile(openings, []byte(archive), 0o644)
		for _, args := range [][]string{
			{"--openings", openings, "--pdn", openings, "--resume", "--journal", filepath.Join(dir, "j")},
			{"--openings", openings, "--journal", openings},
			{"--pdn", filepath.Join(dir, "x.pdn"), "--journal", filepath.Join(dir, "x.pdn")},
		} {
			code, _, stderr := runArgs(t, append(quick, args...)...)
			if code != 2 || !strings.Contains(stderr, "same file") && !strings.Contains(stderr, "input") {
				t.Errorf("selfplay %v: exit %d, stderr %q; want 2", args, code, stderr)
			}
		}
		if b, _ := os.ReadFile(openings); string(b) != archive {
			t.Errorf("the openings were changed: %q", b)
		}
	})
}

// TestReportFolderReserved: two matches with one --report folder both ran, the second's
// report replacing the first's at its end (issue 33 item 4).
func TestReportFolderReserved(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rep")
	release, err := report.Reserve(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	code, stdout, stderr := runArgs(t, "--players", "easy,medium", "--games", "2", "--seed", "1", "-q", "--report", dir)
	_, jerr := os.Stat(filepath.Join(dir, reportJournal))
	if code != 1 || !strings.Contains(stderr, "another rafle writes a report") || stdout != "" || jerr == nil {
		t.Errorf("a match on a report folder in use: exit %d, stdout %q, stderr %q, journal made %v; want 1 before any game", code, stdout, stderr, jerr == nil)
	}
	code, _, stderr = runArgs(t, "report", "--out", dir, filepath.Join(dir, "none.journal"))
	if code != 1 || !strings.Contains(stderr, "another rafle writes a report") {
		t.Errorf("selfplay report into a folder in use: exit %d, stderr %q", code, stderr)
	}
}
