package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestEngineThreads: the Hub engine declares the threads parameter (the player's threads,
// at most the machine's CPUs), refuses a value that is not a positive integer, bounds a
// large one by the CPUs, and searches with that many threads: with more than one, the
// helpers' nodes count beside the main thread's level of nodes.
func TestEngineThreads(t *testing.T) {
	cpus := runtime.NumCPU()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"selfplay", "engine", "--proto", "hub", "--variant", "english", "--player", "depth=64:threads=1"},
			inR, outW, io.Discard)
		outW.Close()
	}()
	go io.WriteString(inW, "hub\nset-param name=threads value=x\nset-param name=threads value=999\ninit\npos start\nlevel nodes=3000\ngo think\n")
	sc := bufio.NewScanner(outR)
	var lines []string
	nodes := int64(-1)
	for sc.Scan() {
		line := sc.Text()
		lines = append(lines, line)
		if strings.HasPrefix(line, "info") {
			for _, f := range strings.Fields(line) {
				if v, ok := strings.CutPrefix(f, "nodes="); ok {
					nodes, _ = strconv.ParseInt(v, 10, 64)
				}
			}
		}
		if strings.HasPrefix(line, "done") {
			break
		}
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{fmt.Sprintf("param name=threads value=1 type=int min=1 max=%d", cpus),
		`error message="threads: 'x': want a positive integer"`} {
		if !strings.Contains(text, want) {
			t.Errorf("no line %q in\n%s", want, text)
		}
	}
	if cpus == 1 && nodes != 3000 || cpus > 1 && nodes <= 3000 {
		t.Errorf("%d CPUs, threads=999, nodes=3000: %d nodes counted\n%s", cpus, nodes, text)
	}
}
