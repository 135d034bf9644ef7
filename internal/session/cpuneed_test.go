package session

import (
	"runtime"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/targets"
)

func TestCPUShortfall(t *testing.T) {
	one := bench.Workload{Name: "SimpleExec"}
	four := bench.Workload{Name: "SuiteConcurrent", Keys: "conns=4"}
	pg, _ := targets.Lookup("pgx")
	lite, _ := targets.Lookup("mattn")
	same := pin.Layout{Mode: pin.Same, Server: []int{1}, Runner: []int{1}}
	for _, c := range []struct {
		name      string
		ws        []bench.Workload
		ts        []targets.Spec
		placement pin.Layout
		short     bool
	}{
		{"one client and a server on one CPU", []bench.Workload{one}, []targets.Spec{pg}, same, true},
		{"one client of SQLite on one CPU", []bench.Workload{one}, []targets.Spec{lite}, same, false},
		{"four clients and a server unpinned", []bench.Workload{one, four}, []targets.Spec{pg},
			pin.Layout{Mode: pin.None}, runtime.NumCPU() < 5},
	} {
		p := &Plan{Workloads: c.ws, Runnable: c.ts}
		got := cpuShortfall(p, c.placement)
		if (got != "") != c.short {
			t.Errorf("%s: %q, want a shortfall %v", c.name, got, c.short)
		}
		if c.short && !strings.Contains(got, "needed") {
			t.Errorf("%s: %q", c.name, got)
		}
	}
}
