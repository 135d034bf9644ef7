package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/testenv"
)

// TestMeasureInstructions runs a tiny session of mattn's point query under
// callgrind (--measure instructions): every run has a positive count of
// instructions per operation, the runs' counts are within 5% of each other
// (docs/methodology.md measures how much closer), the results file says
// how they were counted, and compare gates on the unit by its short name.
func TestMeasureInstructions(t *testing.T) {
	testenv.Programs(t, "valgrind")
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--quick", "--count", "4", "--slices", "1",
		"--targets", "mattn", "--workloads", "SimpleQueryRow", "--measure", "instructions",
		"-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var counts []float64
	for _, r := range set.Results {
		v, ok := r.Value("instructions/op")
		if !ok || v <= 0 {
			t.Errorf("%s: instructions/op %v (present %v), want a positive count", r.Name, v, ok)
			continue
		}
		counts = append(counts, v)
	}
	if len(counts) != 4 {
		t.Fatalf("%d runs counted, want 4", len(counts))
	}
	lo, hi := counts[0], counts[0]
	for _, v := range counts {
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi > lo*1.05 {
		t.Errorf("instructions/op from %.0f to %.0f over 4 runs, want within 5%%", lo, hi)
	}
	t.Logf("instructions/op: %v", counts)
	if got := set.Results[0].GetConfig("measure"); !strings.Contains(got, "callgrind") {
		t.Errorf("measure line %q, want one naming callgrind", got)
	}
	var cmp, cmpErr bytes.Buffer
	if code := Main(context.Background(), []string{"compare", "--fail-over", "instructions=1%", out, out},
		fakeEnv(&cmp, &cmpErr)); code != ExitOK || !strings.Contains(cmp.String(), "instructions/op") {
		t.Errorf("compare --fail-over instructions=1%% of the file with itself: exit %d\n%s%s", code, &cmp, &cmpErr)
	}
}
