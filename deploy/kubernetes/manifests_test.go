package kubernetes

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation"
)

// decoder decodes a manifest strictly into the batch/v1 and v1 types.
var decoder = func() runtime.Decoder {
	s := runtime.NewScheme()
	if err := errors.Join(batchv1.AddToScheme(s), corev1.AddToScheme(s)); err != nil {
		panic(err)
	}
	return serializer.NewCodecFactory(s, serializer.EnableStrict).UniversalDeserializer()
}()

// decode decodes data (the manifest in file name) into a T, or fails the test.
func decode[T runtime.Object](t *testing.T, name string, data []byte) T {
	t.Helper()
	obj, gvk, err := decoder.Decode(data, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	v, ok := obj.(T)
	if !ok {
		var want T
		t.Fatalf("%s: a %s, want a %T", name, gvk.Kind, want)
	}
	return v
}

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The rerun manifest's placeholder for the index, which sed replaces (docs/cluster.md).
const placeholder = "__INDEX__"

// manifests are the decoded manifests, the rerun's for index 3.
type manifests struct {
	pvc          *corev1.PersistentVolumeClaim
	match, merge *batchv1.Job
	rerun        *batchv1.Job
}

func load(t *testing.T) manifests {
	t.Helper()
	rerun := bytes.ReplaceAll(read(t, "rerun-shard.yaml"), []byte(placeholder), []byte("3"))
	return manifests{
		pvc:   decode[*corev1.PersistentVolumeClaim](t, "pvc.yaml", read(t, "pvc.yaml")),
		match: decode[*batchv1.Job](t, "match-job.yaml", read(t, "match-job.yaml")),
		merge: decode[*batchv1.Job](t, "merge-job.yaml", read(t, "merge-job.yaml")),
		rerun: decode[*batchv1.Job](t, "rerun-shard.yaml", rerun),
	}
}

// TestStrict checks that decoding is strict: a field the API does not have, in the wrong
// case or given twice, is an error.
func TestStrict(t *testing.T) {
	files := []string{"pvc.yaml", "match-job.yaml", "merge-job.yaml", "rerun-shard.yaml"}
	for _, name := range files {
		good := read(t, name)
		for _, bad := range []struct{ what, old, new string }{
			{"unknown field", "\nspec:\n", "\nspec:\n  shards: 8\n"},
			{"wrong case", "\nspec:\n", "\nSpec:\n"},
			{"field given twice", "\nmetadata:\n", "\nmetadata:\n  name: twice\n"},
		} {
			data := strings.Replace(string(good), bad.old, bad.new, 1)
			if data == string(good) {
				t.Fatalf("%s: %q not found", name, bad.old)
			}
			if _, _, err := decoder.Decode([]byte(data), nil, nil); err == nil {
				t.Errorf("%s with a %s: decoded without error", name, bad.what)
			} else if !strings.Contains(err.Error(), "strict decoding error") {
				t.Errorf("%s with a %s: %v, want a strict decoding error", name, bad.what, err)
			}
		}
	}
	if _, _, err := decoder.Decode([]byte("apiVersion: batch/v1\nkind: Job\nspec:\n  completions: eight\n"), nil, nil); err == nil {
		t.Error("a string for completions: decoded without error")
	}
}

// command is what a container runs: its command and arguments, with the arguments read as
// selfplay reads them.
type command struct {
	path  string
	sub   string            // "merge", or "" for a match
	flags map[string]string // by long name without "--"; "" for a boolean flag
	args  []string          // the arguments after the flags
}

// The flags without a value that the manifests use.
var booleans = map[string]bool{"quiet": true, "resume": true, "json": true}

// parseCommand reads the command of c. Every flag must be --name=value or a boolean
// --name, so that the arguments say without doubt which flag has which value.
func parseCommand(t *testing.T, name string, c corev1.Container) command {
	t.Helper()
	if len(c.Command) != 1 {
		t.Fatalf("%s: command %q: want the binary alone, its arguments in args", name, c.Command)
	}
	cmd := command{path: c.Command[0], flags: map[string]string{}}
	args := c.Args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd.sub, args = args[0], args[1:]
	}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		a := args[0]
		args = args[1:]
		flag, value, hasValue := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		switch {
		case !strings.HasPrefix(a, "--"):
			t.Fatalf("%s: argument %q: want the long form --name", name, a)
		case hasValue == booleans[flag]:
			t.Fatalf("%s: argument %q: want --name=value, or --name alone for %v", name, a, booleans)
		}
		if _, dup := cmd.flags[flag]; dup {
			t.Fatalf("%s: --%s given twice", name, flag)
		}
		cmd.flags[flag] = value
	}
	cmd.args = args
	return cmd
}

// shardPath is the file selfplay writes for shard k of n of a match whose --pdn is path
// (docs/selfplay.md, docs/cluster.md): "{shard}" replaced by k, or ".shard-K-of-N" put
// before the extension.
func shardPath(path string, k, n int) string {
	if strings.Contains(path, "{shard}") {
		return strings.ReplaceAll(path, "{shard}", strconv.Itoa(k))
	}
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s.shard-%d-of-%d%s", strings.TrimSuffix(path, ext), k, n, ext)
}

// container returns the pod's only container.
func container(t *testing.T, name string, j *batchv1.Job) corev1.Container {
	t.Helper()
	if n := len(j.Spec.Template.Spec.Containers); n != 1 {
		t.Fatalf("%s: %d containers, want 1", name, n)
	}
	return j.Spec.Template.Spec.Containers[0]
}

// claimDir returns the folder where the container mounts the claim, and the claim's name.
func claimDir(t *testing.T, name string, j *batchv1.Job) (dir, claim string) {
	t.Helper()
	c := container(t, name, j)
	for _, m := range c.VolumeMounts {
		for _, v := range j.Spec.Template.Spec.Volumes {
			if v.Name == m.Name && v.PersistentVolumeClaim != nil {
				if dir != "" {
					t.Fatalf("%s: more than one claim mounted", name)
				}
				dir, claim = m.MountPath, v.PersistentVolumeClaim.ClaimName
			}
		}
	}
	if dir == "" {
		t.Fatalf("%s: no PersistentVolumeClaim mounted", name)
	}
	return dir, claim
}

// inDir reports whether path is in the folder dir.
func inDir(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsAbs(path) && rel != "." && !strings.HasPrefix(rel, "..")
}

func TestMatchJob(t *testing.T) {
	m := load(t)
	j := m.match
	s := j.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Fatalf("completionMode %v, want Indexed", s.CompletionMode)
	}
	if s.Completions == nil || *s.Completions < 2 {
		t.Fatalf("completions %v, want 2 or more shards", s.Completions)
	}
	n := int(*s.Completions)
	if s.Parallelism == nil {
		t.Error("no parallelism")
	} else if p := int(*s.Parallelism); p < 1 || p > n {
		t.Errorf("parallelism %d, want 1 to completions (%d)", p, n)
	}
	// a retried pod resumes from its journal; retries need restartPolicy Never
	if s.BackoffLimitPerIndex == nil {
		t.Error("no backoffLimitPerIndex: a failed shard fails the whole Job at once")
	}
	if p := s.Template.Spec.RestartPolicy; p != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %q, want Never (backoffLimitPerIndex needs it)", p)
	}
	c := container(t, "match-job.yaml", j)
	cmd := parseCommand(t, "match-job.yaml", c)
	if cmd.sub != "" {
		t.Fatalf("a subcommand %q, want a match", cmd.sub)
	}
	if _, ok := cmd.flags["shard"]; ok {
		t.Error("--shard is given: every pod would play that shard, whatever its index")
	}
	if got := cmd.flags["shards"]; got != strconv.Itoa(n) {
		t.Errorf("--shards=%s, want the completions, %d", got, n)
	}
	for _, f := range []string{"seed", "resume", "pdn"} {
		if _, ok := cmd.flags[f]; !ok {
			t.Errorf("no --%s: every pod must play the same match, resume when retried, and write its games", f)
		}
	}
	if len(cmd.args) > 0 {
		t.Errorf("arguments %q after the flags", cmd.args)
	}
	if p := policyContainers(s.PodFailurePolicy); len(p) > 0 && !reflect.DeepEqual(p, []string{c.Name}) {
		t.Errorf("podFailurePolicy names containers %q, the pod has %q", p, c.Name)
	}

	// the index reaches selfplay as JOB_COMPLETION_INDEX, from the pod's annotation
	want := fmt.Sprintf("metadata.annotations['%s']", batchv1.JobCompletionIndexAnnotation)
	var found bool
	for _, e := range c.Env {
		if e.Name == "JOB_COMPLETION_INDEX" {
			found = true
			if e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != want {
				t.Errorf("JOB_COMPLETION_INDEX from %v, want the field %s", e.ValueFrom, want)
			}
		}
	}
	if !found {
		t.Error("no JOB_COMPLETION_INDEX in env")
	}

	// games at once: the CPUs the pod may use
	cpu := c.Resources.Limits.Cpu()
	if cpu.IsZero() || cpu.MilliValue()%1000 != 0 {
		t.Errorf("cpu limit %v, want a whole number of CPUs", cpu)
	} else if got := cmd.flags["concurrency"]; got != strconv.FormatInt(cpu.Value(), 10) {
		t.Errorf("--concurrency=%s, want the cpu limit, %v", got, cpu)
	}

	dir, claim := claimDir(t, "match-job.yaml", j)
	if pdn := cmd.flags["pdn"]; !inDir(pdn, dir) {
		t.Errorf("--pdn=%s is not on the volume, mounted at %s", pdn, dir)
	}
	if claim != m.pvc.Name {
		t.Errorf("claim %q, pvc.yaml is %q", claim, m.pvc.Name)
	}
	var rwx bool
	for _, mode := range m.pvc.Spec.AccessModes {
		rwx = rwx || mode == corev1.ReadWriteMany
	}
	if !rwx {
		t.Errorf("pvc.yaml: access modes %v: pods on several nodes write shards at once: want ReadWriteMany", m.pvc.Spec.AccessModes)
	}
}

// policyContainers returns the containers that a pod failure policy's rules name.
func policyContainers(p *batchv1.PodFailurePolicy) []string {
	var names []string
	for _, r := range p.Rules {
		if r.OnExitCodes != nil && r.OnExitCodes.ContainerName != nil {
			names = append(names, *r.OnExitCodes.ContainerName)
		}
	}
	return names
}

func TestMergeJob(t *testing.T) {
	m := load(t)
	match := parseCommand(t, "match-job.yaml", container(t, "match-job.yaml", m.match))
	n := int(*m.match.Spec.Completions)
	c := container(t, "merge-job.yaml", m.merge)
	cmd := parseCommand(t, "merge-job.yaml", c)
	if cmd.path != match.path || cmd.sub != "merge" {
		t.Fatalf("runs %s %s, want %s merge", cmd.path, cmd.sub, match.path)
	}
	var want []string
	for k := range n {
		want = append(want, shardPath(match.flags["pdn"], k, n))
	}
	if !reflect.DeepEqual(cmd.args, want) {
		t.Errorf("merges %q, want the %d shards of match-job.yaml %q", cmd.args, n, want)
	}
	if out := cmd.flags["pdn"]; out != match.flags["pdn"] {
		t.Errorf("--pdn=%s, want the match's file %s", out, match.flags["pdn"])
	}
	if _, ok := cmd.flags["json"]; !ok {
		t.Error("no --json")
	}
	if c.Image != container(t, "match-job.yaml", m.match).Image {
		t.Errorf("image %s, the match's is another", c.Image)
	}
	dir, claim := claimDir(t, "merge-job.yaml", m.merge)
	mdir, mclaim := claimDir(t, "match-job.yaml", m.match)
	if dir != mdir || claim != mclaim {
		t.Errorf("mounts claim %s at %s; the match mounts %s at %s", claim, dir, mclaim, mdir)
	}
	// merge refuses to overwrite its --pdn: a retry would fail on the file the first wrote
	if b := m.merge.Spec.BackoffLimit; b == nil || *b != 0 {
		t.Errorf("backoffLimit %v, want 0", b)
	}
}

func TestRerunShard(t *testing.T) {
	raw := string(read(t, "rerun-shard.yaml"))
	if strings.Count(raw, placeholder) < 2 {
		t.Fatalf("rerun-shard.yaml has %s %d times, want it in the name and the index", placeholder, strings.Count(raw, placeholder))
	}
	m := load(t)
	if errs := validation.IsDNS1123Subdomain(m.rerun.Name); len(errs) > 0 {
		t.Errorf("name %q: %v", m.rerun.Name, errs)
	}
	s := m.rerun.Spec
	if s.CompletionMode != nil && *s.CompletionMode != batchv1.NonIndexedCompletion ||
		s.Completions != nil && *s.Completions != 1 {
		t.Errorf("completionMode %v, completions %v: want one pod", s.CompletionMode, s.Completions)
	}
	match, rerun := container(t, "match-job.yaml", m.match), container(t, "rerun-shard.yaml", m.rerun)
	if !reflect.DeepEqual(match.Command, rerun.Command) || !reflect.DeepEqual(match.Args, rerun.Args) {
		t.Errorf("runs %q %q, the match %q %q", rerun.Command, rerun.Args, match.Command, match.Args)
	}
	if match.Image != rerun.Image || !reflect.DeepEqual(match.VolumeMounts, rerun.VolumeMounts) ||
		!reflect.DeepEqual(m.match.Spec.Template.Spec.Volumes, s.Template.Spec.Volumes) {
		t.Error("another image or volumes than the match")
	}
	if len(rerun.Env) != 1 || rerun.Env[0].Name != "JOB_COMPLETION_INDEX" || rerun.Env[0].Value != "3" {
		t.Errorf("env %v, want JOB_COMPLETION_INDEX=3 alone", rerun.Env)
	}
	if p := policyContainers(s.PodFailurePolicy); len(p) > 0 && !reflect.DeepEqual(p, []string{rerun.Name}) {
		t.Errorf("podFailurePolicy names containers %q, the pod has %q", p, rerun.Name)
	}
}

// instruction is one line of a Dockerfile, its continuation lines joined.
type instruction struct {
	op, args string
}

func dockerfile(t *testing.T) []instruction {
	t.Helper()
	var out []instruction
	text := strings.ReplaceAll(string(read(t, "Dockerfile")), "\\\n", " ")
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		op, args, _ := strings.Cut(line, " ")
		out = append(out, instruction{strings.ToUpper(op), strings.TrimSpace(args)})
	}
	return out
}

// TestDockerfile checks the image against go.mod and the manifests: its Go is the module's,
// it builds static binaries of the commands, puts selfplay where the manifests run it, and
// runs as the user the pods run as.
func TestDockerfile(t *testing.T) {
	ins := dockerfile(t)
	var froms []string
	var build, user string
	var copies []string
	for _, in := range ins {
		switch in.op {
		case "FROM":
			froms = append(froms, in.args)
		case "RUN":
			if strings.Contains(in.args, "go build") {
				build = in.args
			}
		case "USER":
			user = in.args
		case "COPY":
			if len(froms) > 1 {
				copies = append(copies, in.args)
			}
		}
	}
	if len(froms) != 2 {
		t.Fatalf("%d stages, want a build stage and a final one", len(froms))
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(read(t, "../../go.mod"))
	if goVersion == nil {
		t.Fatal("go.mod has no go line")
	}
	if want := "golang:" + string(goVersion[1]); !strings.HasPrefix(froms[0], want+" ") && !strings.HasPrefix(froms[0], want+"-") {
		t.Errorf("build stage FROM %s, want %s (go.mod)", froms[0], want)
	}
	if !strings.Contains(froms[1], "distroless/static") && !strings.HasPrefix(froms[1], "scratch") {
		t.Errorf("final stage FROM %s, want distroless static or scratch", froms[1])
	}
	if !strings.Contains(build, "CGO_ENABLED=0") {
		t.Errorf("build %q: want CGO_ENABLED=0 (static binaries; the final stage has no C library)", build)
	}
	for _, cmd := range []string{"selfplay", "perft", "pdn"} {
		if !strings.Contains(build, "./cmd/"+cmd) {
			t.Errorf("build %q does not build ./cmd/%s", build, cmd)
		}
		if _, err := os.Stat("../../cmd/" + cmd); err != nil {
			t.Error(err)
		}
	}
	m := load(t)
	path := container(t, "match-job.yaml", m.match).Command[0]
	var copied bool
	for _, c := range copies {
		f := strings.Fields(c)
		dest := f[len(f)-1]
		for _, src := range f[1 : len(f)-1] {
			copied = copied || filepath.Join(dest, filepath.Base(src)) == path
		}
	}
	if !copied {
		t.Errorf("no COPY puts selfplay at %s, where the manifests run it (%q)", path, copies)
	}
	uid, _, _ := strings.Cut(user, ":")
	if u, err := strconv.ParseInt(uid, 10, 64); err != nil || u == 0 {
		t.Fatalf("USER %q: want a numeric user other than root", user)
	} else {
		for name, j := range map[string]*batchv1.Job{"match": m.match, "merge": m.merge, "rerun": m.rerun} {
			sc := j.Spec.Template.Spec.SecurityContext
			if sc == nil || sc.RunAsUser == nil || *sc.RunAsUser != u || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
				t.Errorf("%s job: want runAsNonRoot and runAsUser %d (the image's USER) in the pod's security context", name, u)
			}
		}
	}
}
