package main

import (
	"context"
	"strings"
	"testing"

	"github.com/rafle/rafle/benchmarks/bench"
)

// TestSignatures fails when the bench signatures differ from benchmarks/signatures.json:
// the search, the evaluation or the move generator behaves differently. If that is
// intended, run "go run ./benchmarks signature --update" and commit the file.
func TestSignatures(t *testing.T) {
	want, err := bench.ReadSignatures("signatures.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := bench.ComputeSignatures(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := want.Diff(got); len(diff) > 0 {
		t.Errorf("bench signatures differ from benchmarks/signatures.json (search or evaluation behaviour changed;\n"+
			"if intended, run: go run ./benchmarks signature --update):\n  %s", strings.Join(diff, "\n  "))
	}
}
