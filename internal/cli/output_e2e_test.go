package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"
)

// smallRun is a run of one SQLite cell, a few seconds long.
var smallRun = []string{"run", "--quick", "--db", "sqlite", "--targets", "mattn", "--workloads", "SimpleExec",
	"--count", "2", "--slices", "1"}

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
	if !strings.Contains(stderr.String(), "results: standard output (2 runs)") ||
		strings.Contains(stderr.String(), "reports:") {
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
	if code := Main(context.Background(), append(smallRun, "--cache", cache, "-o", out, "--quiet"),
		env); code != ExitOK {
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
	if code := Main(context.Background(), append(smallRun, "--cache", cache, "-o", out, "--force"),
		env); code != ExitOK || stderr.Len() == 0 {
		t.Errorf("without --quiet: exit %d, %d bytes on stderr, want progress lines", code, stderr.Len())
	}
}

// TestRunPrintsWhatAPersonReads: a session of four SQLite targets on the
// classic workloads prints, within 80 lines, stdout and stderr together,
// and 80 columns (its terminal's width), the ops/s tables, the
// verdicts (how many ratios decided, the leaders of each workload), one
// line of the machine's noise and what to do next, and no detail table;
// --details adds the memory-and-latency table and the machine's facts.
func TestRunPrintsWhatAPersonReads(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	env.Dir, env.StdoutWidth = t.TempDir(), 80 // a terminal 80 columns wide
	// as the default results/sqlbench-<time>.txt, said relative to the directory
	out := filepath.Join("results", "r.txt")
	args := []string{"run", "--quick", "--db", "sqlite", "--targets", "mattn,modernc,zombiezen,ncruces", "--count", "3",
		"--slices", "2", "--cache", cache, "-o", out}
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	all := stdout.String() + stderr.String()
	if n := strings.Count(all, "\n"); n > 80 {
		t.Errorf("%d lines, want at most 80:\n%s", n, all)
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
	got := stdout.String()
	words := strings.Join(strings.Fields(got), " ")
	for _, want := range []string{
		"verdicts of ops/s ÷ mattn's (paired ", " of 21 decided: ",
		"noise: ops/s varied run to run by ", "the machine alone ",
		"results: " + out + " (", "next: open the HTML report", "\n  " + strings.TrimSuffix(out, ".txt") + ".html\n",
		"\n  sqlbench compare " + out + " NEW.txt\n", "\n  sqlbench compare --fail-over 5% " + out + " NEW.txt\n",
	} {
		if !strings.Contains(words, want) && !strings.Contains(got, want) {
			t.Errorf("the output lacks %q:\n%s", want, got)
		}
	}
	for _, w := range []string{"SimpleQuery", "PreparedQuery", "AutoQueryRow", "SimpleQueryRow", "PreparedQueryRow",
		"SimpleExec", "PreparedExec"} {
		if !regexp.MustCompile(`(?m)^  ` + w + `\s+(best: |tie: )`).MatchString(got) {
			t.Errorf("no leader of %s:\n%s", w, got)
		}
	}
	if !strings.Contains(got, "where the time goes · classic · sqlite: CPU-bound") &&
		!strings.Contains(got, "where the time goes (ns per") {
		t.Errorf("nothing of where the time goes:\n%s", got)
	}
	for _, detail := range []string{"memory and latency", "ops/s ÷ mattn's (baseline)", "machine drift:", "wake-ups:"} {
		if strings.Contains(got, detail) {
			t.Errorf("the output has the detail %q:\n%s", detail, got)
		}
	}
	if strings.Contains(stderr.String(), " runs\n") {
		t.Errorf("progress has a line per cell:\n%s", stderr)
	}

	// --details prints the detail tables and the machine's facts.
	stdout.Reset()
	stderr.Reset()
	if code := Main(context.Background(), append(args, "--force", "--details"), env); code != ExitOK {
		t.Fatalf("--details: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, detail := range []string{"memory and latency", "ops/s ÷ mattn's (baseline)", "machine drift:", "wake-ups:",
		"next:"} {
		if !strings.Contains(stdout.String(), detail) {
			t.Errorf("--details lacks %q:\n%s", detail, stdout)
		}
	}
}
