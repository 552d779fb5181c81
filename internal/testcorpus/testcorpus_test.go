package testcorpus

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestSample: a large file is cut to windows of whole games from its start, middle and
// end; a small one, or any with RAFLE_FULL_CORPUS set, is left whole.
func TestSample(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 8*Limit; i++ {
		fmt.Fprintf(&b, "[Event \"game %d\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 1-0\n\n", i)
	}
	data := []byte(b.String())
	t.Setenv(FullEnv, "")
	s := Sample(data)
	games := bytes.Split(s, []byte("\n\n[")) // "[Event ...]\n[Result ...]\n\n1. ... 1-0"
	if len(s) < Limit*9/10 || len(s) > Limit*11/10 || !bytes.HasPrefix(s, []byte("[Event \"game 0\"]")) ||
		!bytes.HasSuffix(data, s[len(s)-200:]) {
		t.Fatalf("sample of %d bytes: %d bytes, starting %.30q, ending %q", len(data), len(s), s, s[len(s)-40:])
	}
	jumps, last := 0, 0 // games[0] is game 0
	for _, g := range games[1:] {
		var n int
		if _, err := fmt.Sscanf(string(g), "Event \"game %d\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 1-0", &n); err != nil ||
			strings.TrimRight(string(g), "\n") != fmt.Sprintf("Event \"game %d\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 1-0", n) {
			t.Fatalf("a game cut: %q", g)
		}
		if n != last+1 {
			jumps++
		}
		last = n
	}
	if jumps != windows-1 {
		t.Errorf("%d jumps between windows, want %d", jumps, windows-1)
	}
	if small := data[:Limit]; !bytes.Equal(Sample(small), small) {
		t.Error("a file of Limit bytes is cut")
	}
	t.Setenv(FullEnv, "1")
	if !bytes.Equal(Sample(data), data) {
		t.Errorf("%s=1: the file is cut", FullEnv)
	}
}
