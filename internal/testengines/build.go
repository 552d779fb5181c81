package testengines

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var built struct {
	sync.Mutex
	dir   string
	paths map[string]string
}

// Build builds the package pkg (an import path, or a folder such as ".") once per test
// binary and returns the path of its executable. Call Main from the package's TestMain so
// that the folder it builds into is removed.
func Build(pkg string) (string, error) {
	built.Lock()
	defer built.Unlock()
	if p, ok := built.paths[pkg]; ok {
		return p, nil
	}
	if built.dir == "" {
		dir, err := os.MkdirTemp("", "rafle-testengines-")
		if err != nil {
			return "", err
		}
		built.dir, built.paths = dir, map[string]string{}
	}
	name := path.Base(pkg)
	if name == "." {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		name = filepath.Base(wd)
	}
	exe := filepath.Join(built.dir, fmt.Sprintf("%d-%s", len(built.paths), name))
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	if out, err := exec.Command(goTool, "build", "-o", exe, pkg).CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
	}
	built.paths[pkg] = exe
	return exe, nil
}

// Hub returns the path of hubfake, built once; a failure to build fails t.
func Hub(t testing.TB) string { return must(t, "github.com/rafle/rafle/internal/testengines/hubfake") }

// DXP returns the path of dxpfake, built once; a failure to build fails t.
func DXP(t testing.TB) string { return must(t, "github.com/rafle/rafle/internal/testengines/dxpfake") }

func must(t testing.TB, pkg string) string {
	t.Helper()
	p, err := Build(pkg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Main runs the tests of m, removes what Build built, and exits with the tests' code.
func Main(m *testing.M) {
	code := m.Run()
	built.Lock()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	built.Unlock()
	os.Exit(code)
}
