package match

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPDNNotReplaced: selfplay --pdn FILE replaced an existing FILE (a symbolic link to an
// archive was cut to two games); only the journal was protected (issue 33 item 1). A PDN file
// that holds data is written over only by the resumed match whose journal holds its games.
func TestPDNNotReplaced(t *testing.T) {
	const archive = "[Event \"an archive\"]\n1. 11-15 23-19 *\n\n"
	setup := func(t *testing.T) (Config, string) {
		dir := t.TempDir()
		cfg := randomMatch(t, dir)
		target := filepath.Join(dir, "archive.pdn")
		if err := os.WriteFile(target, []byte(archive), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, cfg.PDNPath); err != nil {
			t.Fatal(err)
		}
		return cfg, target
	}
	intact := func(t *testing.T, cfg Config, target string) {
		t.Helper()
		if b, _ := os.ReadFile(target); string(b) != archive {
			t.Errorf("the archive behind %s was changed: %q", cfg.PDNPath, b)
		}
		if _, err := os.Lstat(cfg.JournalPath); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the refused match left its journal %s (%v)", cfg.JournalPath, err)
		}
	}
	t.Run("new match", func(t *testing.T) {
		cfg, target := setup(t)
		if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrPDNExists) {
			t.Errorf("a match on an existing PDN file: error %v, want ErrPDNExists", err)
		}
		intact(t, cfg, target)
	})
	t.Run("resume without a journal", func(t *testing.T) {
		cfg, target := setup(t)
		cfg.Resume = true
		_, err := Run(context.Background(), cfg)
		if !errors.Is(err, ErrPDNExists) || !strings.Contains(err.Error(), cfg.JournalPath) {
			t.Errorf("resume with no journal on an existing PDN file: error %v, want ErrPDNExists naming the journal", err)
		}
		intact(t, cfg, target)
	})
	t.Run("directory", func(t *testing.T) {
		cfg := randomMatch(t, t.TempDir())
		if err := os.Mkdir(cfg.PDNPath, 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "is a directory") {
			t.Errorf("--pdn DIR: error %v, want is a directory", err)
		}
		if _, err := os.Lstat(cfg.JournalPath); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("--pdn DIR left the journal %s", cfg.JournalPath)
		}
	})
	t.Run("empty file", func(t *testing.T) {
		cfg := randomMatch(t, t.TempDir())
		if err := os.WriteFile(cfg.PDNPath, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatalf("an empty PDN file holds nothing to lose: %v", err)
		}
		checkFiles(t, cfg, 24)
	})
}

// TestPDNLocked: two matches on one --pdn with different journals both ran, the PDN file
// holding one's games and its journal the other's (issue 33 item 4). The PDN file is locked
// as the journal is.
func TestPDNLocked(t *testing.T) {
	dir := t.TempDir()
	cfg := randomMatch(t, dir)
	first, err := openPDN(cfg.PDNPath)
	if err != nil {
		t.Fatal(err)
	}
	defer first.f.Close()
	cfg.JournalPath = filepath.Join(dir, "other.journal")
	if _, err := Run(context.Background(), cfg); !errors.Is(err, ErrPDNLocked) {
		t.Fatalf("a second match on a PDN file in use: %v, want ErrPDNLocked", err)
	}
	if _, err := os.Lstat(cfg.JournalPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused match created its journal (%v)", err)
	}
	if _, err := os.Stat(cfg.PDNPath); err != nil {
		t.Errorf("the refused match removed the PDN file of the match in progress: %v", err)
	}
}
