package mattn_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestGoSQLiteBenchCallsAsPublished checks the go-sqlite-bench suite's
// database/sql calls on mattn, inside the clock, against the published
// program's (cvilsmeier/go-sqlite-bench, app/app.go and app/sqldb.go): an
// insert begins a transaction, prepares the insert in it, executes it once
// per row, closes it and commits, all after the clock starts (the real
// test does so per user, its articles and comments each through a
// statement prepared, run once and closed; the complex one in three
// transactions, users, articles and comments); a read is one db.Query
// whose rows scan into sql.NullInt32, sql.NullInt64, sql.NullString and
// sql.NullBool; each goroutine of the concurrent test makes one db.Query.
func TestGoSQLiteBenchCallsAsPublished(t *testing.T) {
	const n = 4
	users := "*sql.NullInt32 *sql.NullInt64 *sql.NullString *sql.NullBool"
	articles := "*sql.NullInt32 *sql.NullInt64 *sql.NullInt32 *sql.NullString"
	join := users + " " + articles + " " + articles
	insert := func(rows int) map[string]int {
		return map[string]int{"BeginTx": 1, "Tx.Prepare": 1, "Stmt.Exec": rows, "Stmt.Close": 1, "Tx.Commit": 1}
	}
	for _, w := range bench.Workloads() {
		if w.Family != "suite" {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			cc := targettest.CountInClock(t, "mattn", targettest.SQLite, w, n)
			got, dests := cc.Calls, cc.Dests
			var want map[string]int
			wantDests := ""
			switch {
			case w.Name == "SuiteSimpleInsert" || w.Name == "SuiteLargeInsert":
				want = insert(n)
			case w.Name == "SuiteRealInsert": // per user: 1 + 20 articles + 20×20 comments
				const each = 1 + 20 + 20*20
				want = map[string]int{"BeginTx": n, "Tx.Prepare": each * n, "Stmt.Exec": each * n, "Stmt.Close": each * n, "Tx.Commit": n}
			case w.Name == "SuiteComplexInsert": // n articles: n/100 users (at least 1), 20 comments each
				want = map[string]int{"BeginTx": 3, "Tx.Prepare": 3, "Stmt.Exec": max(1, n/100) + n + 20*n, "Stmt.Close": 3, "Tx.Commit": 3}
			case w.Name == "SuiteRealQuery" || w.Name == "SuiteComplexQuery":
				want, wantDests = map[string]int{"Query": n}, join
			case w.Name == "SuiteConcurrent":
				var g int
				fmt.Sscanf(w.Keys, "conns=%d", &g)
				want, wantDests = map[string]int{"Query": g * n}, users
			case strings.HasSuffix(w.Name, "Query") || w.Name == "SuiteMany":
				want, wantDests = map[string]int{"Query": n}, users
			default:
				t.Fatalf("no published call pattern for %s", w.ID())
			}
			if !maps.Equal(got, want) {
				t.Errorf("%d operations made %v inside the clock, the published program %v", n, got, want)
			}
			if wantDests != "" && !slices.Equal(dests, []string{wantDests}) {
				t.Errorf("rows scanned into %q, the published program's into %q", dests, wantDests)
			}
		})
	}
}

// TestDBI2023CallsAsPublished checks the bulk-insert study's prepared path
// on mattn against the published program (eatonphil/databases-intuition,
// go-lib/lib.go, RunSQL): after the clock starts it begins a transaction,
// prepares the single-row INSERT in it, executes it once per row with
// every value a []byte, closes it and commits.
func TestDBI2023CallsAsPublished(t *testing.T) {
	const n = 50
	for _, w := range bench.Workloads() {
		if w.Family != "bulk" || !strings.Contains(w.Keys, "path=prepared/args=bytes") {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			cc := targettest.CountInClock(t, "mattn", targettest.SQLite, w, n)
			got, args := cc.Calls, cc.Args
			want := map[string]int{"BeginTx": 1, "Tx.Prepare": 1, "Stmt.Exec": n, "Stmt.Close": 1, "Tx.Commit": 1}
			if !maps.Equal(got, want) {
				t.Errorf("%d rows made %v inside the clock, the published program %v", n, got, want)
			}
			var cols int
			fmt.Sscanf(w.Keys, "shape=%dx", &cols)
			if wantArgs := strings.TrimSpace(strings.Repeat("[]uint8 ", cols)); !slices.Equal(args, []string{wantArgs}) {
				t.Errorf("rows bound as %q, the published program's as %q", args, wantArgs)
			}
		})
	}
}
