package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDryRunOfABudgetedSession: the dry run plans the first stage (--count
// 5 raised to 7 runs per cell, the fewest whose first look has an
// interval), says the design, and bounds the estimate of every look's runs
// (23/7 times the first stage's) by the budget; without --count and
// --budget the run has the default budget, twice the fixed design's time.
func TestDryRunOfABudgetedSession(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "results"), 0o755)
	os.WriteFile(filepath.Join(dir, "results", "sqlbench-1.txt"), []byte("scale: 0.1\n\n"+
		"BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 10 1000000 ns/op\n"+
		"BenchmarkSimpleQuery/db=sqlite/driver=modernc/api=sql 10 1000000 ns/op\n"),
		0o644)
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir
	args := []string{"run", "--dry-run", "--targets", "mattn,modernc", "--workloads", "SimpleQuery", "--count", "5",
		"--budget", "1m"}
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s := strings.Join(strings.Fields(out.String()), " ")
	for _, want := range []string{
		"2 cells x 7 runs",
		"budgeted session (--budget 1m0s): a first stage of 7 runs per cell " +
			"(--count 5 raised to the fewest runs whose first look has an interval)",
		"to 11, 15, 19, 23 runs per cell; 5 looks, their intervals at 98.4%, ",
		"Pocock-type alpha spending",
		"bounded by the budget (1m0s): at most",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	args = []string{"run", "--dry-run", "--targets", "mattn,modernc", "--workloads", "SimpleQuery"}
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	s = strings.Join(strings.Fields(out.String()), " ")
	for _, want := range []string{
		"2 cells x 7 runs",
		"budgeted session (default budget: 2 × a fixed design's measuring time (6 runs per cell), set from the " +
			"first stage's): a first stage of 7 runs per cell, then",
		"the budget, 2 × the fixed design's",
		"is set from the first stage's measured time",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("default dry run lacks %q:\n%s", want, out.String())
		}
	}
}
