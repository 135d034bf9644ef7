package session

import (
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// TestNoWarmupWhereTheStudyHadNone: a workload marked NoWarmup is run cold
// unless the session warms up every workload; the others get the session's
// fraction.
func TestNoWarmupWhereTheStudyHadNone(t *testing.T) {
	cold, warm := bench.Workload{Name: "Cold", NoWarmup: true}, bench.Workload{Name: "Warm"}
	for _, c := range []struct {
		all              bool
		wantCold, wantWm int
	}{{false, 0, 100}, {true, 100, 100}} {
		cfg := &Config{Warmup: 0.1, WarmupAll: c.all}
		if got := int(1000 * cfg.WarmupOf(cold)); got != c.wantCold {
			t.Errorf("WarmupAll=%v: NoWarmup workload warms up %d operations, want %d", c.all, got, c.wantCold)
		}
		if got := int(1000 * cfg.WarmupOf(warm)); got != c.wantWm {
			t.Errorf("WarmupAll=%v: other workload warms up %d operations, want %d", c.all, got, c.wantWm)
		}
	}
}
