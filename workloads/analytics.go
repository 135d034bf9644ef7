package workloads

import (
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// The analytics family runs one aggregate query over a bulk-insert-shaped
// table: the server reads every row and the driver receives one number, so
// the drivers of a database should converge on the server's speed.
const (
	analyticsFamily = "analytics"
	analyticsTable  = "facts"
	analyticsCols   = 3
	analyticsWidth  = 8
	analyticsOps    = 5_000
	// analyticsRowsPerQuery sizes the table by the run: 100,000 rows at
	// --scale 1 (5,000 queries), 1,000 at --quick.
	analyticsRowsPerQuery = 20
)

func init() {
	bench.RegisterWorkload(bench.Workload{
		Name: "AggregateCount", Family: analyticsFamily, Ops: analyticsOps, Unit: "queries", ScaledData: true,
		Describe: func(d bench.Dialect) string {
			return fmt.Sprintf("`%s` over a table of %d generated rows per timed query (100,000 at --scale 1) of %d TEXT columns of %d random letters and digits, no index; one number comes back",
				analyticsSQL(d), analyticsRowsPerQuery, analyticsCols, analyticsWidth)
		},
		Setup: func(e bench.Env) error {
			return createBulkTable(e.Conn, e.Dialect.Table(analyticsTable), analyticsCols)
		},
		Begin: analyticsBegin,
		Teardown: func(e bench.Env) error {
			return e.Conn.Exec("DROP TABLE IF EXISTS " + e.Dialect.Table(analyticsTable))
		},
	})
}

// analyticsSQL is the query.
func analyticsSQL(d bench.Dialect) string {
	return "SELECT COUNT(*) FROM " + d.Table(analyticsTable) + " WHERE c0 <> c1"
}

// analyticsBegin fills the table for the run's size (untimed; runs of a cell
// share one size, so only the first fills it) and returns the query, which
// checks its count against the generator.
func analyticsBegin(e bench.Env) (bench.Run, error) {
	c, d := e.Conn, e.Dialect
	table := d.Table(analyticsTable)
	rows := max(1, e.N) * analyticsRowsPerQuery
	var have int64
	if err := c.QueryRow("SELECT COUNT(*) FROM "+table, func(r bench.Row) error { return r.Scan(&have) }); err != nil {
		return bench.Run{}, fmt.Errorf("count %s: %w", table, err)
	}
	if have != int64(rows) {
		if err := createBulkTable(c, table, analyticsCols); err != nil {
			return bench.Run{}, err
		}
		if err := insertGenerated(c, d, table, analyticsCols, analyticsWidth, rows); err != nil {
			return bench.Run{}, err
		}
	}
	// The expected count. MariaDB compares text under the server's collation,
	// case-insensitive by default; with 8 random characters two values equal
	// but for case are all but impossible, so either count is right there.
	want, wantFolded := analyticsExpected(rows)
	folds := d.DB == bench.MariaDB
	q := analyticsSQL(d)
	var got int64
	dest := []any{&got}
	scan := func(r bench.Row) error { return r.Scan(dest...) }
	return bench.Run{Op: func(int) error {
		if err := c.QueryRow(q, scan); err != nil {
			return err
		}
		if got != want && (!folds || got != wantFolded) {
			return fmt.Errorf("count %d, want %d", got, want)
		}
		return nil
	}}, nil
}

// analyticsExpected returns how many of the generated rows [0, rows) have c0
// different from c1: exactly, and ignoring ASCII case.
func analyticsExpected(rows int) (exact, folded int64) {
	g := bench.NewRowGen(analyticsCols, analyticsWidth)
	for r := range rows {
		a, b := g.Value(r, 0), g.Value(r, 1)
		if a != b {
			exact++
		}
		if !strings.EqualFold(a, b) {
			folded++
		}
	}
	return exact, folded
}
