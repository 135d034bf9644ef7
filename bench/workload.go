package bench

import (
	"context"
	"math"
	"slices"
)

// Workload is one benchmark, written once against Conn so that it runs on
// every target. A cell is one workload on one target; a cell is set up once
// and then timed in several runs.
type Workload struct {
	// Name is the benchmark name, the first element of a result name.
	Name string
	// Family groups workloads that are reported in one table.
	Family string
	// Describe says in one line what the workload does on dialect d.
	Describe func(d Dialect) string
	// Ops is how many operations one run performs at scale 1.
	Ops int
	// Unit names the operations in reports, plural ("queries", "rows").
	Unit string
	// Setup prepares the database for the workload once per cell. It is not
	// timed.
	Setup func(ctx context.Context, c Conn, d Dialect) error
	// Begin prepares one run (prepared statements, expected values). The
	// returned Run's Op is what the harness times.
	Begin func(c Conn, d Dialect) (Run, error)
	// Teardown drops what Setup created; it runs when the cell closes.
	Teardown func(c Conn, d Dialect) error
	// Only, when set, lists the databases the workload runs on; nil means
	// every database.
	Only []DB
}

// RunsOn reports whether the workload runs on db.
func (w Workload) RunsOn(db DB) bool {
	if w.Only == nil {
		return true
	}
	return slices.Contains(w.Only, db)
}

// Run is one timed run of a workload.
type Run struct {
	// Op performs operation i of the run and checks its result. A result
	// that differs from what the workload wrote is an error: the cell fails.
	Op func(i int) error
	// End releases what Begin prepared. It may be nil.
	End func() error
}

// OpsAt returns the operation count of one run at scale s: at least 1.
func (w Workload) OpsAt(s float64) int {
	n := int(math.Round(float64(w.Ops) * s))
	if n < 1 {
		n = 1
	}
	return n
}
