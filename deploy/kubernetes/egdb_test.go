package kubernetes

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// egdbJob returns egdb-job.yaml for the stage of n pieces and m men, decoded strictly.
func egdbJob(t *testing.T, n, m int) *batchv1.Job {
	t.Helper()
	data := read(t, "egdb-job.yaml")
	data = bytes.ReplaceAll(data, []byte("__PIECES__"), []byte(strconv.Itoa(n)))
	data = bytes.ReplaceAll(data, []byte("__MEN__"), []byte(strconv.Itoa(m)))
	return decode[*batchv1.Job](t, "egdb-job.yaml", data)
}

// egdbArg returns the value of --name=value in the container's arguments ("" if none).
func egdbArg(c corev1.Container, name string) string {
	for _, a := range c.Args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v
		}
	}
	return ""
}

// TestEgdbJob checks the endgame database Job against what egdb reads: an Indexed Job
// whose completions are egdb's --shards, the index in JOB_COMPLETION_INDEX, one stage
// (--pieces and --men from the placeholders), a --dir on the claim of egdb-pvc.yaml, a
// valid name for every stage, exit status 2 failing the index, and the image's user.
func TestEgdbJob(t *testing.T) {
	pvc := decode[*corev1.PersistentVolumeClaim](t, "egdb-pvc.yaml", read(t, "egdb-pvc.yaml"))
	if !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Errorf("egdb-pvc.yaml: access modes %v, want ReadWriteMany (shards on several nodes)", pvc.Spec.AccessModes)
	}
	for n := 2; n <= 8; n++ {
		for m := 0; m <= n; m++ {
			j := egdbJob(t, n, m)
			if errs := validation.IsDNS1123Subdomain(j.Name); len(errs) > 0 {
				t.Errorf("stage %d/%d: job name %q: %v", n, m, j.Name, errs)
			}
			c := container(t, j.Name, j)
			if got := egdbArg(c, "pieces") + "/" + egdbArg(c, "men"); got != strconv.Itoa(n)+"/"+strconv.Itoa(m) {
				t.Errorf("stage %d/%d: --pieces/--men %s", n, m, got)
			}
		}
	}
	j := egdbJob(t, 5, 2)
	s := j.Spec
	c := container(t, j.Name, j)
	if len(c.Command) != 1 || c.Command[0] != "/usr/local/bin/egdb" || len(c.Args) == 0 || c.Args[0] != "build" {
		t.Errorf("command %q %q, want /usr/local/bin/egdb build ...", c.Command, c.Args)
	}
	shards, err := strconv.Atoi(egdbArg(c, "shards"))
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion || s.Completions == nil || err != nil || int(*s.Completions) != shards {
		t.Errorf("want an Indexed Job whose completions equal --shards (%q)", egdbArg(c, "shards"))
	}
	var index bool
	for _, e := range c.Env {
		index = index || e.Name == "JOB_COMPLETION_INDEX" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil &&
			e.ValueFrom.FieldRef.FieldPath == "metadata.annotations['batch.kubernetes.io/job-completion-index']"
	}
	if !index {
		t.Error("no JOB_COMPLETION_INDEX from the pod's completion-index annotation")
	}
	dir, claim := claimDir(t, j.Name, j)
	if claim != pvc.Name || !inDir(egdbArg(c, "dir"), dir) {
		t.Errorf("--dir %q on claim %q mounted at %q; want a folder of %q (egdb-pvc.yaml)", egdbArg(c, "dir"), claim, dir, pvc.Name)
	}
	if p := s.PodFailurePolicy; p == nil || !slices.Contains(policyContainers(p), c.Name) {
		t.Error("no pod failure policy failing the index on exit status 2 of the egdb container")
	}
	sc := s.Template.Spec.SecurityContext
	if sc == nil || sc.RunAsUser == nil || *sc.RunAsUser != 65532 || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
		t.Error("want runAsNonRoot and runAsUser 65532 (the image's USER)")
	}
	var copied bool
	for _, in := range dockerfile(t) {
		copied = copied || in.op == "COPY" && strings.Contains(in.args, "/out/egdb ") && strings.HasSuffix(in.args, " /usr/local/bin/")
	}
	if !copied {
		t.Error("the Dockerfile does not copy egdb to /usr/local/bin/, where the Job runs it")
	}
}

// TestEgdbJobBuilds runs the Job's pods on this machine, stage after stage (english up to 3
// pieces, every index of each stage), and compares the slice files with one build's, byte
// for byte; then egdb verify passes on them.
func TestEgdbJobBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs egdb (-short)")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "egdb")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/rafle/rafle/cmd/egdb").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	vol := filepath.Join(tmp, "vol")
	for n := 2; n <= 3; n++ {
		for m := 0; m <= n; m++ {
			j := egdbJob(t, n, m)
			mount, _ := claimDir(t, j.Name, j)
			for k := range int(*j.Spec.Completions) {
				pod(t, bin, mount, vol, j, k)
			}
		}
	}
	one := filepath.Join(tmp, "one")
	if out, err := exec.Command(bin, "build", "--variant=english", "--pieces=3", "-j", "1", "--dir", one).CombinedOutput(); err != nil {
		t.Fatalf("egdb build: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(one, "*.egdb"))
	if len(files) != 16 {
		t.Fatalf("one build wrote %d slices, want 16", len(files))
	}
	j := egdbJob(t, 2, 0)
	mount, _ := claimDir(t, j.Name, j)
	dbDir := strings.ReplaceAll(egdbArg(container(t, j.Name, j), "dir"), mount, vol)
	for _, f := range files {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(dbDir, filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the Job's file differs from one build's (%v)", filepath.Base(f), err)
		}
	}
	if out, err := exec.Command(bin, "verify", "--variant=english", "--dir", dbDir).CombinedOutput(); err != nil {
		t.Errorf("egdb verify: %v\n%s", err, out)
	}
}
