package session

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/golden"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/targets"
)

// TestPlannedCellsGolden pins the cells a representative run plans: every
// database, every workload, every target this machine could build, both
// transports. A change to planning that changes what runs shows here; the
// golden file was written by the planner before it moved out of the
// command line, and the moved one plans the same cells.
func TestPlannedCellsGolden(t *testing.T) {
	cfg := Config{DBs: []bench.DB{bench.SQLite, bench.MariaDB, bench.Postgres}, Workloads: []string{"all"}, Scale: 0.2}
	p, err := NewPlan(&cfg, fakeEnv(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	// What each runner declares in its hello: a Go runner every workload
	// of the catalogue, the JDBC runner those of the families it has Java
	// twins of (targets' TestEveryGoWorkloadOfAJDBCFamilyHasAJavaTwin and
	// TestRunnersDeclareTheirCatalogueTargets hold the real runners to
	// this).
	declared := func(tg targets.Spec) protocol.Hello {
		h := protocol.Hello{Protocol: protocol.ProtocolVersion, Targets: map[string][]bench.Cap{tg.Name: tg.Caps}}
		for _, w := range bench.Workloads() {
			// The JDBC runner's COPY has no args=bytes variant (targets'
			// javaTwinExclusions).
			jdbcExcluded := strings.HasSuffix(w.ID(), "/path=copy/args=bytes")
			if !tg.JVM || slices.Contains([]string{"classic", "insert", "bulk", "typed", "batch"}, w.Family) &&
				!jdbcExcluded {
				h.Workloads = append(h.Workloads, w.ID())
			}
		}
		slices.Sort(h.Workloads)
		return h
	}
	var places []Placement
	for _, tg := range p.Runnable {
		nets := []string{""}
		if tg.DB.Server() {
			nets = []string{"tcp", "unix"}
		}
		for _, n := range nets {
			if tg.RunsOver(n) {
				places = append(places, Placement{Target: tg, Net: n, Runner: declared(tg)})
			}
		}
	}
	var b strings.Builder
	// The fake family is this test binary's own (loop_test.go).
	ws := slices.DeleteFunc(slices.Clone(p.Workloads), func(w bench.Workload) bool { return w.Family == "fake" })
	for _, st := range Schedule(ws, places, 1, 1) {
		fmt.Fprintln(&b, st.Cell.Name())
	}
	golden.Check(t, "planned-cells.golden", []byte(b.String()))
}
