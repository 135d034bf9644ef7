package mattn_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

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
// The inserts bind what the published program binds: a user's id as an
// int, created as an int64, the email as a string and active as a bool;
// an article's or a comment's id and parent as ints.
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
			var wantArgs []string
			userArgs, childArgs := "int int64 string bool", "int int64 int string"
			switch {
			case w.Name == "SuiteSimpleInsert" || w.Name == "SuiteLargeInsert":
				want, wantArgs = insert(n), []string{userArgs}
			case w.Name == "SuiteRealInsert": // per user: 1 + 20 articles + 20×20 comments
				const each = 1 + 20 + 20*20
				want = map[string]int{"BeginTx": n, "Tx.Prepare": each * n, "Stmt.Exec": each * n,
					"Stmt.Close": each * n, "Tx.Commit": n}
				wantArgs = []string{childArgs, userArgs}
			case w.Name == "SuiteComplexInsert": // n articles: n/100 users (at least 1), 20 comments each
				want = map[string]int{"BeginTx": 3, "Tx.Prepare": 3, "Stmt.Exec": max(1, n/100) + n + 20*n,
					"Stmt.Close": 3, "Tx.Commit": 3}
				wantArgs = []string{childArgs, userArgs}
			case w.Name == "SuiteRealQuery" || w.Name == "SuiteComplexQuery":
				want, wantDests = map[string]int{"Query": n}, join
			case w.Name == "SuiteConcurrent":
				var g int
				fmt.Sscanf(w.Keys, "conns=%d", &g)
				// Each client opens its connection in the round, as
				// published (its session settings not counted).
				want, wantDests = map[string]int{"Open": g * n, "Query": g * n}, users
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
			if !slices.Equal(cc.Args, wantArgs) {
				t.Errorf("rows bound as %q, the published program's as %q", cc.Args, wantArgs)
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
			if wantArgs := strings.TrimSpace(strings.Repeat("[]uint8 ", cols)); !slices.Equal(args,
				[]string{wantArgs}) {
				t.Errorf("rows bound as %q, the published program's as %q", args, wantArgs)
			}
		})
	}
}

// TestGoSQLiteBenchRowsAsPublished runs every go-sqlite-bench workload on
// mattn and reads back what its tables hold, every row against the rows
// the published program makes (cvilsmeier/go-sqlite-bench at 91b73d7,
// app/app.go), written out here again from its literals: the base time
// 2023-10-01 10:00 (UTC here), created a minute (simple, many, complex) or
// a second (large, concurrent, real) apart, the emails' formats, the
// active flags, the texts.
func TestGoSQLiteBenchRowsAsPublished(t *testing.T) {
	base := time.Date(2023, 10, 1, 10, 0, 0, 0, time.UTC)
	realBase := time.Date(2025, 8, 17, 0, 0, 0, 0, time.UTC)
	realText := "text text text text text text text text text text text text"
	type row struct {
		id, created, ref int64 // ref: active (users), userId, articleId
		text             string
	}
	userOf := func(id int64, created time.Time, email string, active bool) row {
		r := row{id: id, created: created.UnixMilli(), text: email}
		if active {
			r.ref = 1
		}
		return r
	}
	// want returns row id of table as the published test makes it.
	want := func(w bench.Workload, table string, id int64) row {
		i := time.Duration(id - 1)
		switch {
		case w.Name == "SuiteSimpleInsert" || w.Name == "SuiteSimpleQuery" || w.Name == "SuiteMany":
			return userOf(id, base.Add(i*time.Minute), fmt.Sprintf("user%08d@example.com", id), true)
		case strings.HasPrefix(w.Name, "SuiteLarge"):
			var size int
			fmt.Sscanf(w.Keys, "size=%d", &size)
			return userOf(id, base.Add(i*time.Second), strings.Repeat("a", size), true)
		case w.Name == "SuiteConcurrent":
			return userOf(id, base.Add(i*time.Second), fmt.Sprintf("user%d@example.com", id), true)
		case strings.HasPrefix(w.Name, "SuiteComplex"):
			at := base.Add(time.Duration(id) * time.Minute).UnixMilli()
			switch table {
			case "users":
				return userOf(id, base.Add(time.Duration(id)*time.Minute), fmt.Sprintf("user%08d@example.com", id),
					id%2 == 0)
			case "articles":
				return row{id, at, (id-1)/100 + 1, "article text"}
			default:
				return row{id, at, (id-1)/20 + 1, "comment text"}
			}
		case strings.HasPrefix(w.Name, "SuiteReal"):
			// The published loop: a user, then per article the article
			// and its 20 comments, each a second after the row before.
			const perUser = 1 + 20*21
			switch table {
			case "users":
				return userOf(id, realBase.Add(time.Duration((id-1)*perUser)*time.Second),
					fmt.Sprintf("user%08d@example.com", id), true)
			case "articles":
				uid, k := (id-1)/20+1, (id-1)%20
				return row{id, realBase.Add(time.Duration((uid-1)*perUser+1+k*21) * time.Second).UnixMilli(), uid,
					realText}
			default:
				aid, j := (id-1)/20+1, (id-1)%20
				uid, k := (aid-1)/20+1, (aid-1)%20
				return row{id, realBase.Add(time.Duration((uid-1)*perUser+1+k*21+1+j) * time.Second).UnixMilli(), aid,
					realText}
			}
		}
		t.Fatalf("no published rows for %s", w.ID())
		return row{}
	}
	for _, w := range bench.Workloads() {
		if w.Family != "suite" {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			e := targettest.NewEnv(t, "mattn", targettest.SQLite)
			if err := w.Setup(e); err != nil {
				t.Fatal(err)
			}
			e.Warm, e.N = 0, 3
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := bench.Measure(r, 0, e.N, bench.NewLatencyHistogram()); err != nil {
				t.Fatal(err)
			}
			if r.End != nil {
				if err := r.End(); err != nil {
					t.Fatal(err)
				}
			}
			tables := []string{"users"}
			if strings.HasPrefix(w.Name, "SuiteComplex") || strings.HasPrefix(w.Name, "SuiteReal") {
				tables = append(tables, "articles", "comments")
			}
			for _, table := range tables {
				q := "SELECT id, created, active, email FROM " + e.Dialect.Table(table) + " ORDER BY id"
				if table != "users" {
					ref := map[string]string{"articles": "userId", "comments": "articleId"}[table]
					q = "SELECT id, created, " + ref + ", text FROM " + e.Dialect.Table(table) + " ORDER BY id"
				}
				var n int64
				var got row
				err := e.Conn.Query(q, func(r bench.Row) error {
					n++
					if err := r.Scan(&got.id, &got.created, &got.ref, &got.text); err != nil {
						return err
					}
					if wr := want(w, table, got.id); got != wr {
						return fmt.Errorf("%s row %d is %+v, the published program's %+v", table, n, clipRow(got),
							clipRow(wr))
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					t.Fatalf("%s holds no rows", table)
				}
			}
			if err := w.Teardown(e); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// clipRow shortens a row's text for a message.
func clipRow[R any](r R) string {
	s := fmt.Sprintf("%+v", r)
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return s
}
