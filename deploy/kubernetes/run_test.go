package kubernetes

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
)

// A short match, in place of the manifests' long one: the same flags come after them and
// win (selfplay takes the last of a flag given twice in one form).
var short = []string{"--players=depth=1,depth=2", "--games=" + strconv.Itoa(games)}

const games = 48

// pod runs a container of a Job as the kubelet would, with selfplay built from this tree in
// place of the image's and the volume in place of dir: the command with its arguments and
// the short match, and the environment the container lists (an index from the pod's
// annotation is index). It returns the standard output.
func pod(t *testing.T, bin, mount, dir string, j *batchv1.Job, index int, extra ...string) []byte {
	t.Helper()
	c := container(t, j.Name, j)
	var args []string
	for _, a := range append(append([]string(nil), c.Args...), extra...) {
		args = append(args, strings.ReplaceAll(a, mount, dir))
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	for _, e := range c.Env {
		v := e.Value
		if e.ValueFrom != nil {
			v = strconv.Itoa(index)
		}
		cmd.Env = append(cmd.Env, e.Name+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s (index %d): selfplay %q: %v\n%s", j.Name, index, args, err, stderr.Bytes())
	}
	return stdout.Bytes()
}

// TestManifestsPlayTheMatch runs the manifests' commands on this machine: every index of
// the match Job, then the merge Job; the merged results and games must equal those of the
// same match played by one process, byte for byte. Then a shard that lost games (a pod
// killed) is run again by the rerun Job and merged again, with the same results.
func TestManifestsPlayTheMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs selfplay (-short)")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "selfplay")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/rafle/rafle/cmd/selfplay").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	m := load(t)
	mount, _ := claimDir(t, "match-job.yaml", m.match)
	data := filepath.Join(tmp, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	n := int(*m.match.Spec.Completions)
	for k := range n {
		pod(t, bin, mount, data, m.match, k, short...)
	}

	// the one-process match: the match Job's flags without --shards
	match := container(t, "match-job.yaml", m.match)
	ref := filepath.Join(tmp, "ref")
	if err := os.Mkdir(ref, 0o755); err != nil {
		t.Fatal(err)
	}
	var args []string
	for _, a := range append(append([]string(nil), match.Args...), short...) {
		if !strings.HasPrefix(a, "--shards=") {
			args = append(args, strings.ReplaceAll(a, mount, ref))
		}
	}
	one := exec.Command(bin, append(args, "--json")...)
	one.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + ref}
	want, err := one.Output()
	if err != nil {
		t.Fatalf("selfplay %q: %v", args, err)
	}
	pdn := parseCommand(t, "match-job.yaml", match).flags["pdn"]
	rel, _ := filepath.Rel(mount, pdn)
	wantPDN := read(t, filepath.Join(ref, rel))
	if c := bytes.Count(wantPDN, []byte("[Event ")); c != games {
		t.Fatalf("the one-process match wrote %d games, want %d", c, games)
	}

	check := func(when string) {
		t.Helper()
		if got := pod(t, bin, mount, data, m.merge, 0); !bytes.Equal(got, want) {
			t.Errorf("%s: the merge printed\n%s\nthe one-process match\n%s", when, got, want)
		}
		if got := read(t, filepath.Join(data, rel)); !bytes.Equal(got, wantPDN) {
			t.Errorf("%s: the merged PDN differs from the one-process match's (the Date tags, if the test ran over midnight?)", when)
		}
	}
	check("first merge")

	// shard 3 keeps its header and two games, as if its pod had been killed
	journal := filepath.Join(data, shardPath(rel, 3, n)+".journal")
	lines := bytes.SplitAfter(read(t, journal), []byte("\n"))
	if err := os.WriteFile(journal, bytes.Join(lines[:3], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(data, rel)); err != nil {
		t.Fatal(err)
	}
	pod(t, bin, mount, data, m.rerun, 3, short...)
	check("merge after the rerun of shard 3")
}
