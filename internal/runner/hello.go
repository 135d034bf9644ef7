package runner

import (
	"github.com/sqlbench/sqlbench/workloads/script"
	"sort"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
)

// goHello is the declaration of this binary: the targets registered with
// bench.RegisterOpener and their capabilities, and every registered
// workload.
func goHello() protocol.Hello {
	h := protocol.Hello{Protocol: protocol.ProtocolVersion, Targets: map[string][]bench.Cap{}}
	for _, name := range bench.Openers() {
		h.Targets[name], _ = bench.TargetCaps(name)
	}
	for _, w := range bench.Workloads() {
		h.Workloads = append(h.Workloads, w.ID())
	}
	h.Workloads = append(h.Workloads, script.WorkloadName) // built from each request's spec
	sort.Strings(h.Workloads)
	return h
}
