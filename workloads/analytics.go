package workloads

import (
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// The analytics family runs one aggregate query over a bulk-insert-shaped
// table: the server reads every row and the driver receives one number, so
// the drivers of a database should converge on the server's speed. It is
// the database/sql overhead study's SELECT COUNT over its 3x8 table of
// 10,000,000 rows: the table holds that many rows times --scale (100,000
// at --quick), filled once per cell, untimed; a run is 10 queries at
// --scale 1 (the study timed ten runs of one query).
const (
	analyticsFamily = "analytics"
	analyticsTable  = "facts"
	analyticsCols   = 3
	analyticsWidth  = 8
	analyticsOps    = 10
	analyticsRows   = 10_000_000
)

func init() {
	bench.RegisterWorkload(bench.Workload{
		Name: "AggregateCount", Family: analyticsFamily, Ops: analyticsOps, Unit: "queries", ScaledData: true,
		NoWarmup: true, // the study timed its ten queries with none before
		Describe: func(d bench.Dialect) string {
			return fmt.Sprintf("`%s` over a table of 10,000,000 generated rows (times --scale) of %d TEXT columns of "+
				"%d random letters and digits, no index, filled once per cell; one number comes back",
				analyticsSQL(d), analyticsCols, analyticsWidth)
		},
		Setup: func(e bench.Env) error {
			table := e.Dialect.Table(analyticsTable)
			if err := createBulkTable(e.Conn, table, analyticsCols); err != nil {
				return err
			}
			return insertGenerated(e.Conn, e.Dialect, table, analyticsCols, analyticsWidth, e.Scaled(analyticsRows))
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

// analyticsBegin returns the query, which checks its count against the
// generator.
func analyticsBegin(e bench.Env) (bench.Run, error) {
	c, d := e.Conn, e.Dialect
	rows := e.Scaled(analyticsRows)
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
