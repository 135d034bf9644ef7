package workloads

import (
	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
)

// The floor family is the transport floor's (package floor, a kind of
// target of its own: it runs on db=loopback only). It is registered here,
// among the catalogue's other families, so that it keeps its place in
// listings and in --workloads all.
func init() {
	for _, w := range floor.Workloads() {
		bench.RegisterWorkload(w)
	}
}
