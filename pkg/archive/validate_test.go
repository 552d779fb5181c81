package archive

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/pdn"
)

// stringInput is an input read from text.
func stringInput(name, text string) Input {
	return Input{Name: name, Size: int64(len(text)), Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(text)), nil
	}}
}

// roundGames returns n short english games, numbered by their Round tag from 1.
func roundGames(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[GameType \"21\"]\n[Round \"%d\"]\n\n1. 11-15 23-19 *\n\n", i+1)
	}
	return b.String()
}

// TestReadInOrder: the reading stage alone, in one goroutine, cuts each input into
// batches of batchSize games, numbered in reading order, each with the number of its
// first game in its input, and keeps every game once.
func TestReadInOrder(t *testing.T) {
	job := Job{Inputs: []Input{stringInput("a", roundGames(2*batchSize+3)), stringInput("b", roundGames(5))}}
	var seen int
	opt := ValidateOptions{Jobs: 1, game: func(*pdn.Game, error) { seen++ }} // (games kept whole)
	v := newValidation(context.Background(), job, opt)
	v.tokens = make(chan struct{}, 10) // no reporting stage to take them back
	go v.read()
	type batch struct{ seq, input, first, games int }
	var got []batch
	for b := range v.work {
		got = append(got, batch{b.seq, b.input, b.first, len(b.games)})
		for k, g := range b.games {
			if r := g.Get("Round"); r != fmt.Sprint(b.first+k) {
				t.Errorf("batch %d, game %d: Round %s", b.seq, k, r)
			}
		}
	}
	want := []batch{{0, 0, 1, batchSize}, {1, 0, batchSize + 1, batchSize}, {2, 0, 2*batchSize + 1, 3}, {3, 1, 1, 5}}
	if fmt.Sprint(got) != fmt.Sprint(want) || seen != 2*batchSize+8 {
		t.Errorf("batches %v, games %d; want %v, %d", got, seen, want, 2*batchSize+8)
	}
	for i, err := range v.errs {
		if err != nil {
			t.Errorf("input %d: %v", i, err)
		}
	}
}

// TestReportInOrder: the reporting stage alone reports batches that arrive out of order
// in the order they were read, and adds them to their input's summary.
func TestReportInOrder(t *testing.T) {
	job := Job{Inputs: []Input{{Name: "a"}, {Name: "b"}}}
	var order []int
	v := newValidation(context.Background(), job, ValidateOptions{Jobs: 2, Problem: func(p Problem) { order = append(order, p.Game) }})
	v.done = make(chan *gameBatch, 4)
	for _, seq := range []int{2, 0, 3, 1} {
		v.tokens <- struct{}{}
		b := &gameBatch{seq: seq, input: seq / 2}
		b.sum = newSummary(job.Inputs[b.input].Name)
		b.sum.Games = 10 + seq
		b.probs = []Problem{{Game: seq}}
		v.done <- b
	}
	close(v.done)
	v.reportInOrder()
	if fmt.Sprint(order) != "[0 1 2 3]" {
		t.Errorf("problems reported in the order %v, want [0 1 2 3]", order)
	}
	if v.sums[0].Games != 21 || v.sums[1].Games != 25 {
		t.Errorf("games %d and %d, want 21 and 25", v.sums[0].Games, v.sums[1].Games)
	}
}
