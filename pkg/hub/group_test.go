//go:build unix

package hub

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/procgroup"
	"github.com/rafle/rafle/internal/testengines"
	"github.com/rafle/rafle/internal/testio"
	"github.com/rafle/rafle/pkg/engine"
)

// wrapper writes a wrapper script (testio.Wrapper) that runs hubfake as its own child (not
// exec), with -pid-file: the pid files of its other child and of hubfake.
func wrapper(t *testing.T) (script, sleepPID, fakePID string) {
	dir := t.TempDir()
	fakePID = filepath.Join(dir, "fake.pid")
	script, sleepPID = testio.Wrapper(t, dir, testengines.Hub(t)+" -pid-file "+fakePID+` "$@"`+"\n")
	return script, sleepPID, fakePID
}

// TestCloseEndsWrapperGroup: the engine runs in a process group of its own, and Close
// ends all of it: the wrapper's other child (which would be left to init) and, when the
// engine does not quit, the engine itself.
func TestCloseEndsWrapperGroup(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		fail bool // Start fails
	}{
		{"quits", nil, false},
		{"never answers", []string{"-no-hub"}, true},
		{"hangs", []string{"-hang-at", "1"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script, sleepPID, fakePID := wrapper(t)
			cfg := Config{Path: script, Args: tc.args, HandshakeTimeout: 300 * time.Millisecond, Grace: 200 * time.Millisecond}
			e, err := Start(context.Background(), cfg)
			if tc.fail != (err != nil) {
				t.Fatalf("Start = %v", err)
			}
			if e != nil {
				v := engine.MustLookup("international")
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				_, err := e.Think(ctx, engine.NewGame(v, v.Start()), Level{Depth: 1})
				cancel()
				if (err != nil) != (tc.args != nil) {
					t.Errorf("Think = %v", err)
				}
				e.Close()
			}
			for _, f := range []string{sleepPID, fakePID} {
				pid := testio.ReadPID(t, f)
				if !procgroup.WaitEnded(pid, 20*time.Second) {
					syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("%s: process %d still runs after Close", filepath.Base(f), pid)
				}
			}
		})
	}
}

// TestEngineInterrupted: an engine killed by SIGTERM from outside (or a wrapper that
// exits 143 because its engine was) is ErrCrash, not a crash.
func TestEngineInterrupted(t *testing.T) {
	script, _, _ := wrapper(t)
	for _, path := range []string{testengines.Hub(t), script} {
		cfg := testConfig(t, "-signal-at", "2")
		cfg.Path = path
		e := startFake(t, cfg)
		v := engine.MustLookup("international")
		g := engine.NewGame(v, v.Start())
		playOut(t, e, g, 1)
		_, err := e.Think(context.Background(), g, Level{Depth: 1})
		if !errors.Is(err, ErrInterrupted) || errors.Is(err, ErrCrash) || !strings.Contains(err.Error(), "terminated") {
			t.Errorf("%s: Think = %v, want ErrCrash naming the signal", filepath.Base(path), err)
		}
		e.Close()
	}
}
