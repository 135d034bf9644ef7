package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/report"
)

// TestBudgetedSessionSpendsRoundsOnTheUndecided runs a budgeted session on
// real SQLite files: mattn, mattn slowed by a 500 µs spin after each
// operation (several times its ~100 µs SimpleQuery: decided slower at the
// first look) and mattn slowed by a 1 ns spin (the same within the noise,
// and a resolution of 0.1% no interval fits in: undecided), one slice a
// run. The first look comes after the first stage (8 runs per
// cell, 98.75% each), then rounds go to mattn and its spin variant only:
// every cell's runs are one of the looks' sizes, the 500 µs variant's
// fewer than the baseline's; the results file records the design; the summary line says
// what was spent; and report on the file decides as the session did.
// (Look 1 calls the spin variant slower when all 8 of its per-pass ratios
// fall below 1: about 2% of sessions here, and this test then fails.)
func TestBudgetedSessionSpendsRoundsOnTheUndecided(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--quick", "--slices", "1",
		"--targets", "mattn,mattn+spin=500us,mattn+spin=1ns",
		"--workloads", "SimpleQuery", "--baseline", "mattn", "--resolution", "0.1%", "--budget", "40s",
		"-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	line := regexp.MustCompile(`(?m)^budget 40s: spent (\S+) in (\d+) rounds?; (\d+) of (\d+) comparisons decided ` +
		`\(4 looks planned, each at 98\.75%; stopped: [^)]+\)$`).FindStringSubmatch(stdout.String())
	if line == nil {
		t.Fatalf("no summary line of the budget in:\n%s", stdout)
	}
	if rounds, _ := strconv.Atoi(line[2]); rounds < 2 {
		t.Errorf("%d round(s), want more than the first stage\nstderr:\n%s", rounds, stderr)
	}
	if !strings.Contains(stderr.String(), "look 1 of 4 (8 runs per cell, 98.75%): ") ||
		!strings.Contains(stderr.String(), "round 2: 2 cells, 8 more runs each") {
		t.Errorf("stderr has not the first look and the second round:\n%s", stderr)
	}
	runs, last := readRuns(t, out)
	const base = "SimpleQuery/db=sqlite/driver=mattn/api=sql"
	const slow = "SimpleQuery/db=sqlite/driver=mattn+spin=500us/api=sql"
	for name, n := range runs {
		if !slices.Contains([]int{8, 16, 32, 64}, n) {
			t.Errorf("%s: %d runs, want a look's size (8, 16, 32, 64)", name, n)
		}
	}
	if runs[slow] != 8 || runs[base] <= 8 {
		t.Errorf("runs %v: want the 500 µs variant's 8 (decided at the first look), the baseline's more", runs)
	}
	for k, want := range map[string]string{report.KeyBudget: "40s", report.KeyLooks: "4",
		report.KeyLookConfidence: "0.9875"} {
		if got := last.GetConfig(k); got != want {
			t.Errorf("results file's %s: %q, want %q", k, got, want)
		}
	}
	if got := last.GetConfig(benchfile.KeyCount); got != "8" {
		t.Errorf("results file's count: %q, want the first stage's 8", got)
	}
	// report on the file: the looks' confidence, the session's verdicts.
	var rep, repErr bytes.Buffer
	args := []string{"report", "--baseline", "mattn", "--resolution", "0.1%", out}
	if code := Main(context.Background(), args, fakeEnv(&rep, &repErr)); code != ExitOK {
		t.Fatalf("report: exit %d: %s", code, repErr.String())
	}
	want := line[3] + " of " + line[4] + " decided"
	if !strings.Contains(rep.String(), want) || !strings.Contains(rep.String(), "paired 98.7%") {
		t.Errorf("report of the file does not say %q at the looks' confidence:\n%s", want, rep.String())
	}
}
