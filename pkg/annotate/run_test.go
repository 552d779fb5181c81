package annotate

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/engine"
)

const runGames = `[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 *

[GameType "20"]
1. 33-28 18-23 *

[GameType "20"]
1. 34-29 17-21 *

[GameType "20"]
1. 31-27 16-21 *
`

// countingAnalyser is nullAnalyser counting the games it starts.
type countingAnalyser struct {
	nullAnalyser
	games *atomic.Int32
}

func (a countingAnalyser) StartGame(context.Context, *engine.Variant) error {
	a.games.Add(1)
	return nil
}

func runJob() archive.Job {
	return archive.Job{Inputs: []archive.Input{{Name: "g.pdn", Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(runGames)), nil
	}}}}
}

// TestRunStopAndResume: a run cancelled after its first game hands on that game only; a
// run given it as recorded analyses the three others only and hands on all four in order,
// the first as not fresh.
func TestRunStopAndResume(t *testing.T) {
	var started atomic.Int32
	factory := func() (Analyser, error) { return countingAnalyser{games: &started}, nil }
	ctx, cancel := context.WithCancel(context.Background())
	var first []*Record
	_, err := Run(ctx, runJob(), RunOptions{Analyser: factory, Workers: 2, Emit: func(r *Record, fresh bool) error {
		first = append(first, r)
		cancel()
		return nil
	}})
	if !errors.Is(err, context.Canceled) || len(first) != 1 || first[0].Index != 0 || first[0].PDN == "" {
		t.Fatalf("cancelled run: %v, %d records; want context.Canceled and game 0 only", err, len(first))
	}
	started.Store(0)
	var got []int
	var fresh []bool
	games, err := Run(context.Background(), runJob(), RunOptions{Analyser: factory, Workers: 2,
		Recorded: map[int]*Record{0: first[0]}, Emit: func(r *Record, f bool) error {
			got, fresh = append(got, r.Index), append(fresh, f)
			return nil
		}})
	if err != nil || games != 4 {
		t.Fatalf("resumed run: %v, %d games", err, games)
	}
	if n := started.Load(); n != 3 {
		t.Errorf("resumed run analysed %d games, want 3 (the recorded one not again)", n)
	}
	if want := []int{0, 1, 2, 3}; !slices.Equal(got, want) || fresh[0] || !fresh[1] || !fresh[2] || !fresh[3] {
		t.Errorf("resumed run handed on %v (fresh %v), want %v with the first not fresh", got, fresh, want)
	}
}

// blockingAnalyser searches until its context ends, saying when it starts.
type blockingAnalyser struct {
	nullAnalyser
	started chan<- struct{}
}

func (a blockingAnalyser) Analyse(ctx context.Context, _ *engine.Game) (Eval, error) {
	select {
	case a.started <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return Eval{}, ctx.Err()
}

// TestRunCancelBusy: cancelled while its worker searches and the reader waits to hand it
// more games, Run returns (it once waited for a game that no worker would take).
func TestRunCancelBusy(t *testing.T) {
	for range 20 {
		started := make(chan struct{}, 1)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := Run(ctx, runJob(), RunOptions{Workers: 1, Analyser: func() (Analyser, error) {
				return blockingAnalyser{started: started}, nil
			}, Emit: func(*Record, bool) error { return nil }})
			done <- err
		}()
		<-started
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("Run cancelled: %v, want context.Canceled", err)
		}
	}
}

// TestRunJournal: a journal run stopped after its first game keeps that game; resumed, it
// analyses the three others only, hands on all four, and a shard's run ends the journal
// with the counts, which ReadShards then accepts.
func TestRunJournal(t *testing.T) {
	var started atomic.Int32
	factory := func() (Analyser, error) { return countingAnalyser{games: &started}, nil }
	path := t.TempDir() + "/g.jsonl"
	h := Header{Format: JournalFormat, Settings: []string{"--depth=1"}, Shard: "0/1"}
	j, recs, err := OpenJournal(path, h, false)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = RunJournal(ctx, runJob(), RunOptions{Analyser: factory, Workers: 2, Emit: func(*Record, bool) error {
		cancel()
		return nil
	}}, j, recs, true)
	j.Close()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	if _, _, err := ReadShards([]string{path}); err == nil {
		t.Errorf("a cancelled shard's journal was ended")
	}

	started.Store(0)
	j, recs, err = OpenJournal(path, h, true)
	if err != nil || len(recs) != 1 || recs[0].Index != 0 {
		t.Fatalf("resumed journal: %v, %d records; want game 0", err, len(recs))
	}
	var got []int
	games, err := RunJournal(context.Background(), runJob(), RunOptions{Analyser: factory, Workers: 2, Emit: func(r *Record, fresh bool) error {
		got = append(got, r.Index)
		return nil
	}}, j, recs, true)
	j.Close()
	if err != nil || games != 4 || started.Load() != 3 || !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Fatalf("resumed run: %v, %d games, %d analysed, handed on %v", err, games, started.Load(), got)
	}
	if _, all, err := ReadShards([]string{path}); err != nil || len(all) != 4 {
		t.Errorf("the ended journal: %v, %d records; want 4", err, len(all))
	}
}
