package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// smallRun is a run of one SQLite cell, a few seconds long.
var smallRun = []string{"run", "--quick", "--db", "sqlite", "--targets", "mattn", "--workloads", "SimpleExec", "--count", "2", "--slices", "1"}

// TestOutputDashWritesTheResultsToStdout: -o - writes the results file to
// stdout (benchfmt reads every run from it), the tables to stderr, and no
// file: neither one named "-" nor a results file or report.
func TestOutputDashWritesTheResultsToStdout(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	env.Dir = t.TempDir()
	code := Main(context.Background(), append(smallRun, "--cache", cache, "-o", "-"), env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstderr:\n%s", code, stderr)
	}
	r := benchfmt.NewReader(bytes.NewReader(stdout.Bytes()), "stdout")
	runs := 0
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok && strings.HasPrefix(string(res.Name), "SimpleExec/") {
			runs++
		}
	}
	if strings.Contains(stdout.String(), "results:") {
		t.Errorf("the tables went to stdout with the results:\n%s", stdout)
	}
	if runs != 2 || r.Err() != nil {
		t.Errorf("stdout holds %d runs of SimpleExec (%v), want 2:\n%s", runs, r.Err(), stdout)
	}
	if !strings.Contains(stderr.String(), "results: standard output (2 runs)") || strings.Contains(stderr.String(), "reports:") {
		t.Errorf("stderr does not say where the results went, or names reports:\n%s", stderr)
	}
	if left, _ := os.ReadDir(env.Dir); len(left) != 0 {
		t.Errorf("-o - left files in the working directory: %v", left)
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "-")); err == nil {
		t.Error("-o - created a file named -")
	}
}

// TestQuietPrintsNoProgress: --quiet leaves stderr empty on a run that
// goes well, and the summary on stdout as it is.
func TestQuietPrintsNoProgress(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "r.txt")
	if code := Main(context.Background(), append(smallRun, "--cache", cache, "-o", out, "--quiet"), env); code != ExitOK {
		t.Fatalf("exit %d\nstderr:\n%s", code, stderr)
	}
	if stderr.Len() != 0 {
		t.Errorf("--quiet wrote to stderr:\n%s", stderr)
	}
	if !strings.Contains(stdout.String(), "results: "+out+" (2 runs)") {
		t.Errorf("--quiet lost the summary:\n%s", stdout)
	}
	// Without --quiet the same run logs its progress.
	stdout.Reset()
	if code := Main(context.Background(), append(smallRun, "--cache", cache, "-o", out, "--force"), env); code != ExitOK || stderr.Len() == 0 {
		t.Errorf("without --quiet: exit %d, %d bytes on stderr, want progress lines", code, stderr.Len())
	}
}
