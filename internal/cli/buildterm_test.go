package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench"
	"github.com/sqlbench/sqlbench/internal/launcher"
)

// TestDryRunCountsABuildOnlyWhereItWouldHappen: a results file's start-up
// leaves out the runner builds it records (runner-build); the dry run
// adds the builds of the runners the cache lacks, estimated from their
// last builds where the cache records them, said but not counted where
// it does not, and nothing once the cache has them.
func TestDryRunCountsABuildOnlyWhereItWouldHappen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results", "sqlbench-20261128-050000.txt")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	// As in TestEstimateCountsTheStepsAndTheStartUp, but 10 s of the 12 s
	// of start-up were the runners' builds.
	file := "count: 2\nslices: 5\nscale: 0.01\nwarmup: 0.1\nwarmup-all: false\n" +
		"# began: 2026-11-26T05:00:00.000Z\n# started: 2026-11-26T05:00:12.000Z\n# finished: " +
		"2026-11-26T05:00:32.440Z\n" +
		"# runner-build: 10s\n\n" +
		"BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 10 1000000 ns/op\n" +
		"BenchmarkSimpleQuery/db=sqlite/driver=modernc/api=sql 10 1000000 ns/op\n"
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	est, err := estimateFrom(path)
	if err != nil {
		t.Fatal(err)
	}
	if est.setUp != 2*time.Second {
		t.Fatalf("start-up %v, want 2s: the 12s less the 10s of builds", est.setUp)
	}
	cache := t.TempDir()
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir // no source tree: the runners come from the sources embedded in sqlbench
	args := []string{"run", "--dry-run", "--targets", "mattn,modernc", "--workloads", "SimpleQuery", "--count", "2",
		"--slices", "5", "--scale", "0.01", "--cache", cache}
	dry := func() string {
		t.Helper()
		out.Reset()
		if code := Main(context.Background(), args, env); code != ExitOK {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		return strings.Join(strings.Fields(out.String()), " ")
	}
	// 0.44 s timed + 20 steps x 1 s + 2 s start-up; two runners to build,
	// nothing recorded.
	if s := dry(); !strings.Contains(s, "estimated time: 22s: <1s timed,") ||
		!strings.Contains(s, "+ 2s start-up (servers, runners); "+
			"2 runners the cache lacks for this source are built first (one-time; no build of them is recorded in "+
			"the cache "+
			"to estimate from, not counted)") {
		t.Errorf("dry run, empty cache:\n%s", out.String())
	}
	// Their last builds: mattn 3 min, purego (modernc) 1 min, side by side.
	launcher.RecordBuild(cache, "mattn", 3*time.Minute)
	launcher.RecordBuild(cache, "purego", time.Minute)
	if s := dry(); !strings.Contains(s, "estimated time: 3m22s: <1s timed,") ||
		!strings.Contains(s,
			"+ 2s start-up (servers, runners) + 3m0s building 2 runners the cache lacks for this source "+
				"(one-time; from their last builds here)") {
		t.Errorf("dry run, builds recorded:\n%s", out.String())
	}
	// Both runners in the cache for these sources: no build.
	src, err := launcher.Extract(sqlbench.RunnerSource(), cache)
	if err != nil {
		t.Fatal(err)
	}
	b := &launcher.Builder{Src: src.Dir, Cache: cache}
	for _, g := range []string{"mattn", "purego"} {
		bin, _, err := b.Cached(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if s := dry(); !strings.Contains(s, "estimated time: 22s: <1s timed,") || strings.Contains(s, "build") {
		t.Errorf("dry run, runners cached:\n%s", out.String())
	}
}
