package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

// TestSpinVariantIsSeenAsSlower runs mattn beside itself slowed down by a
// 50 µs spin after each operation, in one session on a real SQLite file,
// from the same runner: every run of the variant reports a spin of at
// least 50 µs per operation, over it by no more than its time in the run
// queue (a preemption mid-spin) and 5 µs; the results file records the
// spin; and --baseline mattn calls the variant slower, its interval below
// 1 (the delay is several times the operation; ten runs, so that the
// interval leaves out one run that a load spike slowed down sixfold, as
// six once did not); and the variant, as written in --targets, is a
// baseline for report, which calls mattn faster.
func TestSpinVariantIsSeenAsSlower(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--quick", "--count", "10", "--targets", "mattn,mattn+spin=50us",
		"--workloads", "SimpleQueryRow", "--baseline", "mattn", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	const variant = "SimpleQueryRow/db=sqlite/driver=mattn+spin=50us/api=sql"
	runs := map[string]int{}
	for _, r := range set.Results {
		runs[r.Name.String()]++
		if r.Name.String() != variant {
			if _, ok := r.Value("spin-sec/op"); ok {
				t.Errorf("%s reports a spin", r.Name)
			}
			continue
		}
		spin, ok := r.Value("spin-sec/op")
		if !ok {
			t.Fatalf("%s: no spin-ns/op on its result line", variant)
		}
		spin *= 1e9
		runq, _ := r.Value("runq-sec/op")
		runq *= 1e9
		if spin < 50000 || spin-50000 > runq+5000 {
			t.Errorf("%s: spin %.0f ns/op, run queue %.0f ns/op; want 50000 and over it by no more than the run "+
				"queue and 5000", variant, spin, runq)
		}
	}
	for _, name := range []string{"SimpleQueryRow/db=sqlite/driver=mattn/api=sql", variant} {
		if runs[name] != 10 {
			t.Errorf("%s: %d runs, want 10", name, runs[name])
		}
	}
	if got := set.Results[0].GetConfig("mattn+spin=50us-spin"); !strings.HasPrefix(got, "50000 ns ") {
		t.Errorf("the results file records the spin as %q", got)
	}
	line := regexp.MustCompile(`(?m)^\s*SimpleQueryRow\s+mattn\+spin=50us\s+([0-9.]+)×\s+([0-9.]+)–([0-9.]+)×.` +
		`*\b(slower|faster|equivalent|undecided)\b.*$`).FindStringSubmatch(stdout.String())
	if line == nil {
		t.Fatalf("no ratio of the spin variant to mattn in:\n%s", stdout)
	}
	if hi, _ := strconv.ParseFloat(line[3], 64); line[4] != "slower" || hi >= 1 {
		t.Errorf("ratio %s× [%s–%s×], verdict %q; want slower, its interval below 1\n%s", line[1], line[2], line[3],
			line[4], stdout)
	}
	t.Logf("mattn+spin=50us ÷ mattn: %s× [%s–%s×]", line[1], line[2], line[3])

	// The variant, named as on the command line, is a baseline too.
	var rep, repErr bytes.Buffer
	if code := Main(context.Background(), []string{"report", "--baseline", "mattn+spin=50us", out},
		fakeEnv(&rep, &repErr)); code != ExitOK {
		t.Fatalf("report --baseline mattn+spin=50us: exit %d: %s", code, repErr.String())
	}
	if !strings.Contains(rep.String(), "mattn+spin=50us's (baseline)") ||
		!regexp.MustCompile(`(?m)^\s*SimpleQueryRow\s+mattn\s+[0-9.]+×.*\bfaster\b`).MatchString(rep.String()) {
		t.Errorf("report --baseline mattn+spin=50us: want mattn faster than its spin variant:\n%s", rep.String())
	}
}

// TestSpinVariantRefusals: a spin on a JDBC target, or a spin that is not a
// positive duration, is one line naming the element, exit 2, before
// anything runs.
func TestSpinVariantRefusals(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{"jdbc-sqlite+spin=2us", "a spin variant needs a Go runner; jdbc-sqlite runs on the JDBC runner"},
		{"mattn+spin=soon", `"soon" is not a duration`},
		{"mattn+spin=0us", "the spin must be above 0"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), []string{"run", "--targets", "mattn," + c.arg, "--dry-run"},
			fakeEnv(&out, &errb))
		msg := strings.TrimSpace(errb.String())
		if code != ExitUsage || strings.Contains(msg, "\n") || !strings.Contains(msg, c.arg) ||
			!strings.Contains(msg, c.want) {
			t.Errorf("--targets mattn,%s: exit %d, %q; want exit %d and one line naming it and saying %q", c.arg, code,
				msg, ExitUsage, c.want)
		}
	}
}
