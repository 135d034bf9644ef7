package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/report"
)

// TestBudgetedSessionSpendsRoundsOnTheUndecided runs a budgeted session of
// two looks on real SQLite files: mattn, mattn slowed by a 500 µs spin
// after each operation (several times its ~100 µs SimpleQuery: decided
// slower at the first look) and mattn slowed by a 1 ns spin (the same
// within the noise), one slice a run. The first look comes after the first
// stage (6 runs per cell: --count 5 raised); the second round, if any, goes
// to mattn and the 1 ns variant only, to 9 runs each (whether it runs depends on how near a
// verdict the 1 ns variant's interval is: the round goes only to a
// comparison it may decide). The results file records the design; the
// summary line says what was spent; report on the file decides as the
// session did.
func TestBudgetedSessionSpendsRoundsOnTheUndecided(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--quick", "--slices", "1",
		"--targets", "mattn,mattn+spin=500us,mattn+spin=1ns",
		"--workloads", "SimpleQuery", "--baseline", "mattn", "--resolution", "10%", "--budget", "2m", "--looks", "2",
		"-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	line := regexp.MustCompile(`budget 2m0s: spent (\S+) in (\d+) rounds?; (\d+) of (\d+) comparisons decided ` +
		`\(2 looks planned, 95% over all; stopped: ([^)]+)\)`).
		FindStringSubmatch(strings.Join(strings.Fields(stdout.String()), " "))
	if line == nil {
		t.Fatalf("no summary line of the budget in:\n%s", stdout)
	}
	if !strings.Contains(stderr.String(), "look 1 of 2 (6 runs per cell, intervals at 96.8%): ") {
		t.Errorf("stderr has not the first look:\n%s", stderr)
	}
	runs, last := readRuns(t, out)
	const base = "SimpleQuery/db=sqlite/driver=mattn/api=sql"
	const slow = "SimpleQuery/db=sqlite/driver=mattn+spin=500us/api=sql"
	const same = "SimpleQuery/db=sqlite/driver=mattn+spin=1ns/api=sql"
	for name, n := range runs {
		if !slices.Contains([]int{6, 9}, n) {
			t.Errorf("%s: %d runs, want a look's size (6, 9)", name, n)
		}
	}
	if runs[slow] != 6 || runs[base] != runs[same] {
		t.Errorf("runs %v: want the 500 µs variant's 6 (decided at the first look), the baseline's as the 1 ns one's",
			runs)
	}
	bounds := report.FormatLookBounds([]int{6, 9}, report.LookBounds([]int{6, 9}))
	for k, want := range map[string]string{report.KeyBudget: "2m0s", report.KeyLooks: "2",
		report.KeyLookBounds: bounds} {
		if got := last.GetConfig(k); got != want {
			t.Errorf("results file's %s: %q, want %q", k, got, want)
		}
	}
	if got := last.GetConfig(benchfile.KeyCount); got != "6" {
		t.Errorf("results file's count: %q, want the first stage's 6", got)
	}
	// report on the file: the looks' intervals, the session's verdicts.
	var rep, repErr bytes.Buffer
	args := []string{"report", "--baseline", "mattn", "--resolution", "10%", out}
	if code := Main(context.Background(), args, fakeEnv(&rep, &repErr)); code != ExitOK {
		t.Fatalf("report: exit %d: %s", code, repErr.String())
	}
	want := line[3] + " of " + line[4] + " decided"
	if !strings.Contains(rep.String(), want) || !strings.Contains(rep.String(), "paired 96.8%") {
		t.Errorf("report of the file does not say %q at the first look's interval:\n%s", want, rep.String())
	}
}

// TestDefaultRunIsBudgeted runs the default design (no --count, no
// --budget; a small one: SQLite, two targets, one workload, --scale 0.01,
// one slice a run): mattn and mattn slowed by a 500 µs spin after each
// operation (decided slower at the first look). The session says its
// design and the budget it set from its first stage (twice a fixed design
// of 6 runs: the first stage's time × 2 × 6/7), and ends with what it
// spent; the results file records the looks.
func TestDefaultRunIsBudgeted(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--scale", "0.01", "--slices", "1",
		"--targets", "mattn,mattn+spin=500us", "--workloads", "SimpleQuery", "--baseline", "mattn",
		"-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	errs := strings.Join(strings.Fields(stderr.String()), " ")
	for _, want := range []string{
		"budgeted session (default budget: 2 × a fixed design's measuring time (6 runs per cell)",
		"look 1 of 5 (7 runs per cell, intervals at 98.4%): 1 of 1 decided: 0 faster, 1 slower",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	set := regexp.MustCompile(
		`budget: (\S+), 2 × a fixed design's (\S+) \(6 runs per cell; the first stage of 7 took ` +
			`(\S+)\)`).FindStringSubmatch(errs)
	if set == nil {
		t.Fatalf("stderr does not say the budget it set:\n%s", stderr)
	}
	if b, err := time.ParseDuration(set[1]); err != nil || b <= 0 {
		t.Errorf("budget %q", set[1])
	}
	line := regexp.MustCompile(`default budget (\S+) \(2 × the fixed design's time\): spent (\S+) in 1 round; ` +
		`1 of 1 comparisons decided \(5 looks planned, 95% over all; stopped: every comparison decided\)`).
		FindStringSubmatch(strings.Join(strings.Fields(stdout.String()), " "))
	if line == nil || line[1] != set[1] {
		t.Errorf("no summary line of the default budget (%v) in:\n%s", set, stdout)
	}
	runs, last := readRuns(t, out)
	if len(runs) != 2 {
		t.Errorf("runs %v, want 2 cells", runs)
	}
	for name, n := range runs {
		if n != 7 {
			t.Errorf("%s: %d runs, want the first stage's 7", name, n)
		}
	}
	sizes := report.LookSizes(7, 5)
	want := report.FormatLookBounds(sizes, report.LookBounds(sizes))
	if got := last.GetConfig(report.KeyLookBounds); got != want {
		t.Errorf("results file's look-bounds %q, want %q", got, want)
	}
	if got := last.GetConfig(report.KeyBudget); got != "default, 2 × a fixed design of 6 runs per cell" {
		t.Errorf("results file's budget line %q", got)
	}
}
