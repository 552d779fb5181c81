//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/procgroup"
	"github.com/rafle/rafle/internal/testengines"
	"github.com/rafle/rafle/internal/testio"
	"github.com/rafle/rafle/pkg/match"
)

// freePort returns a port nothing listens on, for a DXP engine.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// TestDXPProcess: a DXP engine started with cmd= gets a standard input that stays open
// (an engine that exits when it ends, as one that reads commands there may, plays the
// match), runs in a process group of its own, and the whole group is ended after the
// match: here a wrapper script whose other child would outlive it.
func TestDXPProcess(t *testing.T) {
	fake := testengines.DXP(t)
	dir := t.TempDir()
	port := freePort(t)
	script, pids := testio.Wrapper(t, dir, "exec 3<&0\n"+fake+" -need-stdin -listen 127.0.0.1:"+port+" <&3 &\nwait\n")
	code, _, stderr := runArgs(t, "-v", "international", "--players", "x,depth=1", "--games", "2", "--max-plies", "10", "-q",
		"--engine-start", "60s", "--engine", "name=x,proto=dxp,cmd="+script+",port="+port+",tc=600", "--pdn", filepath.Join(dir, "m.pdn"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	recs := games(t, filepath.Join(dir, "m.pdn.journal"))
	for i, r := range recs {
		if r.Reason != match.ReasonMaxPlies {
			t.Errorf("game %d: %s (%s), want max-plies", i+1, r.Reason, r.Detail)
		}
	}
	pid := testio.ReadPID(t, pids)
	if !procgroup.WaitEnded(pid, 20*time.Second) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the wrapper's child %d still runs after the match", pid)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the engine still listens after the match")
		}
	}
}

// TestDXPProcessInterrupted: a DXP engine that rafle started and that is killed by SIGTERM
// from outside (as by a Ctrl-C to the process group, timeout(1) or Slurm) makes no result:
// the match stops without recording the game as a crash.
func TestDXPProcessInterrupted(t *testing.T) {
	fake := testengines.DXP(t)
	dir := t.TempDir()
	port := freePort(t)
	code, _, stderr := runArgs(t, "-v", "international", "--players", "x,depth=1", "--games", "2", "--max-plies", "30", "-q", "-j", "1",
		"--engine-start", "60s", "--engine", "name=x,proto=dxp,cmd="+fake+`,args="-signal-at 3 -listen 127.0.0.1:`+port+`",port=`+port+",tc=600",
		"--pdn", filepath.Join(dir, "m.pdn"))
	if code != 1 || !strings.Contains(stderr, "stopped by a signal") || !strings.Contains(stderr, "not recorded") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and the interruption", code, stderr)
	}
	if recs := games(t, filepath.Join(dir, "m.pdn.journal")); len(recs) != 0 {
		t.Errorf("%d games recorded (%+v), want none", len(recs), recs)
	}
}

// TestDXPFollowerLogsDrops: the DXP follower says on stderr why it closed a connection (here
// a malformed message), not only in its transcript.
func TestDXPFollowerLogsDrops(t *testing.T) {
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"selfplay", "engine", "--proto", "dxp", "--player", "depth=1", "--listen", "127.0.0.1:" + port},
			strings.NewReader(""), &out, &errb)
	}()
	var conn net.Conn
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var err error
		if conn, err = net.Dial("tcp", "127.0.0.1:"+port); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	conn.SetDeadline(time.Now().Add(20 * time.Second)) // a failure bound
	conn.Write([]byte("Xjunk\x00"))
	io.Copy(io.Discard, conn) // until the follower closes it
	conn.Close()
	cancel()
	if code := <-done; code != 130 && code != 0 {
		t.Errorf("exit %d", code)
	}
	if want := `] dxp: protocol error: unknown message type 'X' (message "Xjunk"); closing the connection`; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errb.String())
	}
}
