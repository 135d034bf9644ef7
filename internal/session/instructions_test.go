package session

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// TestPlanInstructions: --measure instructions needs valgrind, locks every
// Go cell's timing goroutine to its thread (auto becomes locked, free is
// refused), and skips the JDBC targets, naming why; a session measuring
// time is left as it was.
func TestPlanInstructions(t *testing.T) {
	withValgrind := fakeEnv(io.Discard)
	look := withValgrind.LookPath
	withValgrind.LookPath = func(name string) (string, error) {
		if name == "valgrind" {
			return "/usr/bin/valgrind", nil
		}
		return look(name)
	}
	plan := func(measure, thread string, env Host) (*Config, *Plan, error) {
		cfg := &Config{DBs: []bench.DB{bench.SQLite}, Targets: []string{"mattn", "jdbc-sqlite"},
			Workloads: []string{"SimpleQueryRow"}, Scale: 0.1, Measure: measure, TimingThread: thread}
		p, err := NewPlan(cfg, env)
		return cfg, p, err
	}
	cfg, p, err := plan(MeasureInstructions, "", withValgrind)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TimingThread != ThreadLocked {
		t.Errorf("timing thread %q, want %q", cfg.TimingThread, ThreadLocked)
	}
	if len(p.Runnable) != 1 || p.Runnable[0].Name != "mattn" {
		t.Errorf("runnable %v, want mattn alone", p.Runnable)
	}
	if r := p.Skipped["jdbc-sqlite"]; !strings.Contains(r, "Go runners only") {
		t.Errorf("jdbc-sqlite skipped for %q, want Go runners only", r)
	}
	var ie InputError
	if _, _, err := plan(MeasureInstructions, ThreadFree, withValgrind); !errors.As(err, &ie) ||
		!strings.Contains(err.Error(), "--timing-thread") {
		t.Errorf("--timing-thread free: %v, want an InputError naming --timing-thread", err)
	}
	if _, _, err := plan(MeasureInstructions, "", fakeEnv(io.Discard)); !errors.As(err, &ie) ||
		!strings.Contains(err.Error(), "valgrind is not installed") {
		t.Errorf("no valgrind: %v, want an InputError saying valgrind is not installed", err)
	}
	cfg, p, err = plan(MeasureTime, "", fakeEnv(io.Discard))
	if err != nil || cfg.TimingThread != "" || len(p.Runnable) != 2 {
		t.Errorf("--measure time: %v, timing thread %q, runnable %v; want no error, \"\", both", err, cfg.TimingThread,
			p.Runnable)
	}
}
