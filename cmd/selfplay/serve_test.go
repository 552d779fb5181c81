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
	lines := hubEngine(t, []string{"--variant", "english", "--player", "depth=64:threads=1"},
		"hub\nset-param name=threads value=x\nset-param name=threads value=999\ninit\npos start\nlevel nodes=3000\ngo think\n")
	nodes := int64(-1)
	for _, line := range lines {
		if strings.HasPrefix(line, "info") {
			for _, f := range strings.Fields(line) {
				if v, ok := strings.CutPrefix(f, "nodes="); ok {
					nodes, _ = strconv.ParseInt(v, 10, 64)
				}
			}
		}
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

// hubEngine runs selfplay engine --proto hub with args, sends it input and returns the
// lines it answers up to the first "done" (all of them if none), failing unless it exits 0
// once its input ends.
func hubEngine(t *testing.T, args []string, input string) []string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"selfplay", "engine", "--proto", "hub"}, args...), inR, outW, io.Discard)
		outW.Close()
	}()
	go io.WriteString(inW, input)
	sc := bufio.NewScanner(outR)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.HasPrefix(sc.Text(), "done") {
			break
		}
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
	return lines
}
