package mattn_test

import (
	"fmt"
	"maps"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestSqinnSuiteCallsAsPublished checks the Sqinn-Go suite's database/sql
// calls on mattn against the published mattn program's
// (cvilsmeier/sqinn-go-bench, cmd/bench-mattn/mattn.go): an insert begins a
// transaction per table, prepares one statement in it, executes it once
// per row, closes it and commits; a read is one db.Query whose rows scan
// into sql.NullInt32, sql.NullString and sql.NullFloat64, all inside the
// clock (the program starts it before it begins). The calls are
// counted where sqlbench's database/sql adapter makes them, one bench call
// for one database/sql call.
func TestSqinnSuiteCallsAsPublished(t *testing.T) {
	const n = 50
	users := "*sql.NullInt32 *sql.NullString *sql.NullInt32 *sql.NullFloat64"
	cars := "*sql.NullInt32 *sql.NullString *sql.NullString"
	named := "*sql.NullInt32 *sql.NullString"
	join := "*sql.NullString *sql.NullString *sql.NullString *sql.NullInt32 *sql.NullString *sql.NullString " +
		"*sql.NullString *sql.NullInt32 *sql.NullString *sql.NullString *sql.NullInt32"
	for _, w := range bench.Workloads() {
		if w.Family != "sqinn" {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			cc := targettest.CountInClock(t, "mattn", targettest.SQLite, w, n)
			got, dests := cc.Calls, cc.Dests
			var want map[string]int
			var wantDests string
			switch w.Name {
			case "SqinnSimpleInsert":
				// The published program begins and prepares after
				// starting its clock.
				want = map[string]int{"BeginTx": 1, "Tx.Prepare": 1, "Stmt.Exec": n, "Stmt.Close": 1, "Tx.Commit": 1}
			case "SqinnComplexInsert": // 50 locations: 1 profile, 5 devices
				want = map[string]int{"BeginTx": 3, "Tx.Prepare": 3, "Stmt.Exec": 1 + 5 + n, "Stmt.Close": 3,
					"Tx.Commit": 3}
			case "SqinnConcurrent":
				var g int
				fmt.Sscanf(w.Keys, "goroutines=%d", &g)
				// One db.Query per goroutine's connection, opened in the
				// round as published (the session's settings on it not
				// counted).
				want = map[string]int{"Open": g * n, "Query": g * n}
				wantDests = named
			case "SqinnComplexQuery":
				want, wantDests = map[string]int{"Query": n}, join
			case "SqinnSimpleQuery":
				want, wantDests = map[string]int{"Query": n}, users
			case "SqinnMany":
				want, wantDests = map[string]int{"Query": n}, cars
			case "SqinnLarge":
				want, wantDests = map[string]int{"Query": n}, named
			default:
				t.Fatalf("no published call pattern for %s", w.ID())
			}
			if !maps.Equal(got, want) {
				t.Errorf("%d operations made %v, want %v", n, got, want)
			}
			if wantDests != "" && (len(dests) != 1 || dests[0] != wantDests) {
				t.Errorf("rows scanned into %v, want %s", dests, wantDests)
			}
		})
	}
}
