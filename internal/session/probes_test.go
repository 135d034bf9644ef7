package session

import (
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/drift"
	"github.com/sqlbench/sqlbench/internal/wake"
)

// TestSmokeProbesAreShorter: a smoke session (--quick) times a tenth of
// the drift loop's work and of the wake-up round trips before each pass,
// and its results-file facts say so; a default session times them whole.
func TestSmokeProbesAreShorter(t *testing.T) {
	m, w := passProbes(&Config{Count: 2}, nil)
	if m.Probe.Work != drift.DefaultWork || w.Probe.Trips != wake.DefaultTrips || m.Count != 2 || w.Count != 2 {
		t.Errorf("default probes: work %d, trips %d", m.Probe.Work, w.Probe.Trips)
	}
	m, w = passProbes(&Config{Count: 2, Smoke: true}, nil)
	if m.Probe.Work != drift.DefaultWork/SmokeProbeShare || w.Probe.Trips != wake.DefaultTrips/SmokeProbeShare {
		t.Fatalf("smoke probes: work %d, trips %d", m.Probe.Work, w.Probe.Trips)
	}
	m.Pass(0)
	w.Pass(0)
	if _, v, ok := m.Fact(); !ok || !strings.Contains(v, "(15000000 steps, median of 1 passes)") {
		t.Errorf("smoke drift fact %q", v)
	}
	if f := w.Facts(); len(f) == 0 || !strings.Contains(f[0][1], "30 before each of 1 passes") {
		t.Errorf("smoke wake-up facts %q", f)
	}
}
