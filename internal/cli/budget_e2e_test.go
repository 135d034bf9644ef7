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

// TestBudgetedSessionSpendsRoundsOnTheUndecided runs a budgeted session of
// two looks on real SQLite files: mattn, mattn slowed by a 500 µs spin
// after each operation (several times its ~100 µs SimpleQuery: decided
// slower at the first look) and mattn slowed by a 1 ns spin (the same
// within the noise, and a resolution of 0.1% no interval fits in:
// undecided), one slice a run. The first look comes after the first stage
// (7 runs per cell, 97.5% each), then the second round goes to mattn and
// the 1 ns variant only, to 14 runs each; the budget, generous, leaves the
// stop to the planned looks (however loaded the machine). The results file
// records the design; the summary line says what was spent; report on the
// file decides as the session did. (Look 1 calls the 1 ns variant slower
// or faster when all 7 of its per-pass ratios fall on one side of 1: about
// 2% of sessions, and this test then fails.)
func TestBudgetedSessionSpendsRoundsOnTheUndecided(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--quick", "--slices", "1",
		"--targets", "mattn,mattn+spin=500us,mattn+spin=1ns",
		"--workloads", "SimpleQuery", "--baseline", "mattn", "--resolution", "0.1%", "--budget", "2m", "--looks", "2",
		"-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	line := regexp.MustCompile(`(?m)^budget 2m0s: spent (\S+) in (\d+) rounds?; (\d+) of (\d+) comparisons decided ` +
		`\(2 looks planned, each at 97\.5%;\s+stopped: ([^)]+)\)$`).FindStringSubmatch(stdout.String())
	if line == nil {
		t.Fatalf("no summary line of the budget in:\n%s", stdout)
	}
	if rounds, _ := strconv.Atoi(line[2]); rounds != 2 || line[5] != "every planned look done" {
		t.Errorf("%d round(s), %s; want both looks done\nstderr:\n%s", rounds, line[5], stderr)
	}
	if !strings.Contains(stderr.String(), "look 1 of 2 (7 runs per cell, 97.5%): ") ||
		!strings.Contains(stderr.String(), "round 2: 2 cells, 7 more runs each") {
		t.Errorf("stderr has not the first look and the second round:\n%s", stderr)
	}
	runs, last := readRuns(t, out)
	const base = "SimpleQuery/db=sqlite/driver=mattn/api=sql"
	const slow = "SimpleQuery/db=sqlite/driver=mattn+spin=500us/api=sql"
	for name, n := range runs {
		if !slices.Contains([]int{7, 14}, n) {
			t.Errorf("%s: %d runs, want a look's size (7, 14)", name, n)
		}
	}
	if runs[slow] != 7 || runs[base] != 14 {
		t.Errorf("runs %v: want the 500 µs variant's 7 (decided at the first look), the baseline's 14", runs)
	}
	for k, want := range map[string]string{report.KeyBudget: "2m0s", report.KeyLooks: "2",
		report.KeyLookConfidence: "0.975"} {
		if got := last.GetConfig(k); got != want {
			t.Errorf("results file's %s: %q, want %q", k, got, want)
		}
	}
	if got := last.GetConfig(benchfile.KeyCount); got != "7" {
		t.Errorf("results file's count: %q, want the first stage's 7", got)
	}
	// report on the file: the looks' confidence, the session's verdicts.
	var rep, repErr bytes.Buffer
	args := []string{"report", "--baseline", "mattn", "--resolution", "0.1%", out}
	if code := Main(context.Background(), args, fakeEnv(&rep, &repErr)); code != ExitOK {
		t.Fatalf("report: exit %d: %s", code, repErr.String())
	}
	want := line[3] + " of " + line[4] + " decided"
	if !strings.Contains(rep.String(), want) || !strings.Contains(rep.String(), "paired 97.5%") {
		t.Errorf("report of the file does not say %q at the looks' confidence:\n%s", want, rep.String())
	}
}
