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
// 5 raised to 8 runs per cell for 98.75% looks), says the design, and
// bounds the estimate of every look's runs (8 times the first stage's) by
// the budget.
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
		"2 cells x 8 runs",
		"budgeted session (--budget 1m0s): a first stage of 8 runs per cell " +
			"(--count 5 raised to the fewest runs a 98.75% interval needs)",
		"to 16, 32, 64 runs per cell; 4 looks, each at 98.75% confidence",
		"bounded by the budget: at most 1m0s",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out.String())
		}
	}
}
