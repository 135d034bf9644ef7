package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

// TestInstallAnywhere does what a new user does: go install the command,
// then run it from an empty directory outside the source tree with no
// SQLBENCH_SRC. The runners must come from the sources embedded in the
// binary, and the quick run must write results.
func TestInstallAnywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: installs sqlbench and runs it (a minute or more)")
	}
	gobin := t.TempDir()
	install := exec.Command("go", "install", ".")
	install.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	bin := filepath.Join(gobin, "sqlbench")
	work := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SQLBENCH_SRC=") {
			env = append(env, kv)
		}
	}
	sqlbench := func(args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = work, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("sqlbench %s: %v", strings.Join(args, " "), err)
		}
		return stdout.String(), stderr.String(), code
	}

	version, _, code := sqlbench("version")
	lines := strings.Split(strings.TrimSpace(version), "\n")
	if code != 0 || len(lines) != 3 || lines[0] == "sqlbench devel" ||
		!strings.HasPrefix(lines[1], "embedded runner sources: key ") || !strings.Contains(lines[2], "the embedded sources") {
		t.Errorf("sqlbench version: exit %d, output:\n%s", code, version)
	}
	key := strings.TrimPrefix(lines[1], "embedded runner sources: key ")

	// The runner cache is shared with the other tests: it is keyed by the
	// sources' content, so what is in it was built from these sources.
	cache := filepath.Join(os.TempDir(), "sqlbench-test-runners")
	_, stderr, code := sqlbench("run", "--quick", "-o", "results.txt", "--cache", cache)
	// Exit 1 is a run with skipped targets (no JDK, no sqinn here); a
	// runner that could not be built is a failure whatever the status.
	if (code != 0 && code != 1) || strings.Contains(stderr, "source tree") || strings.Contains(stderr, "build runner") {
		t.Fatalf("sqlbench run --quick: exit %d\n%s", code, stderr)
	}
	f, err := os.Open(filepath.Join(work, "results.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := benchfile.Read(f, "results.txt")
	if err != nil {
		t.Fatal(err)
	}
	drivers := map[string]bool{}
	for _, r := range set.Results {
		if v := r.GetConfig("runner-source"); v != "embedded "+key {
			t.Fatalf("runner-source %q, want %q", v, "embedded "+key)
		}
		for _, part := range strings.Split(string(r.Name), "/") {
			if d, ok := strings.CutPrefix(part, "driver="); ok {
				drivers[d] = true
			}
		}
	}
	// The pure-Go runner's drivers run everywhere; the cgo ones need a C
	// compiler, which a Go user may lack.
	for _, d := range []string{"modernc", "ncruces", "zombiezen"} {
		if !drivers[d] {
			t.Errorf("no results from %s (results from %v)\n%s", d, drivers, stderr)
		}
	}
}
