package session

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/launcher"
)

// TestRunnerBuildsCountsWhatTheCacheLacks: a dry run's "would it build?"
// counts one build per group (modernc and zombiezen share purego's
// runner), none for a runner the cache has for this source, and estimates
// only once every build it counts has a recorded time.
func TestRunnerBuildsCountsWhatTheCacheLacks(t *testing.T) {
	cfg := Config{Targets: []string{"mattn", "modernc", "zombiezen"}, Workloads: []string{"SimpleQuery"}, Scale: 1,
		Cache: t.TempDir()}
	p, err := NewPlan(&cfg, fakeEnv(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := RunnerBuilds(ctx, &cfg, p, ".") // the source tree this test is in
	if err != nil || got.Runners != 2 || got.Known || got.Variants != 0 {
		t.Fatalf("empty cache: %+v, %v; want 2 runners, no estimate", got, err)
	}
	launcher.RecordBuild(cfg.Cache, "mattn", 2*time.Minute)
	if got, _ := RunnerBuilds(ctx, &cfg, p, "."); got.Known {
		t.Errorf("estimated %+v without purego's time", got)
	}
	launcher.RecordBuild(cfg.Cache, "purego", time.Minute)
	if got, _ := RunnerBuilds(ctx, &cfg, p, "."); !got.Known || got.Took != 2*time.Minute {
		t.Errorf("both recorded: %+v; want 2m0s, the two side by side", got)
	}
	src, err := launcher.FindSource(".")
	if err != nil {
		t.Fatal(err)
	}
	bin, _, err := (&launcher.Builder{Src: src, Cache: cfg.Cache}).Cached(ctx, "mattn")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := RunnerBuilds(ctx, &cfg, p, "."); got.Runners != 1 || got.Took != time.Minute {
		t.Errorf("mattn's runner in the cache: %+v; want purego's build alone, 1m0s", got)
	}
}
