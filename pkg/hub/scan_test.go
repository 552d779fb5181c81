package hub

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

// TestScan plays a real Scan when HUB_SCAN names its executable (Scan 3.x, or Scan 2.0 for
// Hub-1), in the variant HUB_SCAN_VARIANT names (a Hub name; default normal); it runs in
// the executable's directory, where Scan finds scan.ini and data/. Scan is not part of
// rafle: build it yourself to run this test.
func TestScan(t *testing.T) {
	path := os.Getenv("HUB_SCAN")
	if path == "" {
		t.Skip("HUB_SCAN is not set: no Scan to play")
	}
	noLeak(t)
	v := engine.MustLookup("international")
	if name := os.Getenv("HUB_SCAN_VARIANT"); name != "" {
		var err error
		if v, err = LookupVariant(name); err != nil {
			t.Fatal(err)
		}
	}
	var transcript strings.Builder
	cfg := Config{Path: path, Args: []string{"hub"}, Dir: filepath.Dir(path), Transcript: &transcript,
		Options: [][2]string{{"book", "false"}}, Variant: v}
	e, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		e.Close()
		t.Logf("transcript:\n%s", transcript.String())
	}()
	t.Logf("dialect %d, id %v, params %+v", e.Dialect(), e.ID(), e.Params())
	if !strings.HasPrefix(e.ID()["name"], "Scan") {
		t.Errorf("ID() = %v", e.ID())
	}
	g := engine.NewGame(v, v.Start())
	if err := e.NewGame(context.Background()); err != nil {
		t.Fatal(err)
	}
	captures := 0
	for g.Ply() < 80 && !g.Outcome().Over {
		rep, err := e.Think(context.Background(), g, Level{Depth: 3})
		if err != nil {
			t.Fatalf("ply %d: %v", g.Ply(), err)
		}
		if rep.Move.IsCapture() {
			captures++
		}
		if err := g.Play(rep.Move); err != nil {
			t.Fatal(err)
		}
	}
	if captures == 0 {
		t.Errorf("no capture in %d plies: the capture notation was not exercised", g.Ply())
	}
	t.Logf("%d plies, %d captures, %s", g.Ply(), captures, g.Outcome())
	g = engine.NewGame(v, v.Start())
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	rep, err := e.Think(ctx, g, Level{Infinite: true})
	if err != nil {
		t.Fatalf("a stopped infinite search: %v", err)
	}
	t.Logf("stopped search: %s (%+v)", rep.Text, rep.Info)
	if err := e.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
}
