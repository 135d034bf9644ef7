package session

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/pin"
)

// cpuShortfall says, for the run summary, when the session's cells needed
// more CPUs than the placement gave them: a client per connection a
// workload drives at once (its conns= key; one otherwise) plus one for a
// server, against the CPUs the runner and the server could use together.
// It returns "" when every cell fit.
func cpuShortfall(p *Plan, placement pin.Layout) string {
	server := 0
	for _, db := range bench.AllDBs() {
		if db != bench.SQLite && p.Uses(db) {
			server = 1
		}
	}
	have := runtime.NumCPU()
	if placement.Mode != pin.None {
		cpus := slices.Clone(placement.Runner)
		for _, c := range placement.Server {
			if !slices.Contains(cpus, c) {
				cpus = append(cpus, c)
			}
		}
		have = len(cpus)
	}
	worst, need := "", 0
	for _, w := range p.Workloads {
		n := clientsOf(w) + server
		if n > need {
			worst, need = w.ID(), n
		}
	}
	if need <= have {
		return ""
	}
	return fmt.Sprintf("%s needed %d CPUs (its clients and the server) but had %d (--pin %s on %d CPUs): those "+
		"results include waiting for a CPU (runq-ns/op)",
		worst, need, have, placement.Mode, runtime.NumCPU())
}

// clientsOf returns how many connections w drives at once: its conns= key,
// else 1.
func clientsOf(w bench.Workload) int {
	for _, kv := range strings.Split(w.Keys, "/") {
		if v, ok := strings.CutPrefix(kv, "conns="); ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				return n
			}
		}
	}
	return 1
}
