package targettest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// TypedRows checks the typed family (typed rows) on target at where: a
// query run makes one plain query call per operation inside the clock and
// scans into the types of the target's API (Go's own through database/sql
// and pgx, text, bytes and integers through the native APIs) and an insert
// run is one transaction of one prepared statement executed per row with
// the values bound as those types; and a wrong value in any column of a
// row makes the value check fail, naming the row and the column. natural
// says which types: true for database/sql and pgx.
func TypedRows(t *testing.T, target string, where Where, natural bool) {
	t.Run("Calls", func(t *testing.T) { typedCalls(t, target, where, natural) })
	t.Run("DetectsWrongValues", func(t *testing.T) { typedDetectsWrongValues(t, target, where) })
}

func typedCalls(t *testing.T, target string, where Where, natural bool) {
	const n = 3
	mixed := "*int64 *string *string *[]uint8 *string *[]uint8 *sql.NullString *sql.NullInt64"
	mixedBytes := "*int64 *string *[]uint8 *[]uint8 *[]uint8 *[]uint8 *[]uint8 *sql.NullInt64"
	args := "int64 string string string string []uint8 <nil> int64"
	if natural {
		mixed = "*int64 *time.Time *string *uuid.UUID *string *[]uint8 *sql.NullString *sql.NullInt64"
		mixedBytes = "*int64 *time.Time *[]uint8 *uuid.UUID *[]uint8 *[]uint8 *[]uint8 *sql.NullInt64"
		args = "int64 time.Time string uuid.UUID string []uint8 sql.NullString sql.NullInt64"
	}
	wide := "*int64" + strings.Repeat(" *int64 *string *float64", 6) + " *int64"
	wideArgs := "int64" + strings.Repeat(" int64 string float64", 6) + " int64"
	insert := map[string]int{"BeginTx": 1, "Tx.Prepare": 1, "Stmt.Exec": n, "Stmt.Close": 1, "Tx.Commit": 1}
	for _, w := range bench.Workloads() {
		if w.Family != "typed" {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			skipUnless(t, target, where, w)
			cc := CountInClock(t, target, where, w, n)
			var want map[string]int
			var wantTypes []string
			typesOf := cc.Dests
			switch w.ID() {
			case "TypedInsert", "TypedWideInsert":
				want, typesOf = insert, cc.Args
				wantTypes = []string{wideArgs}
				if w.ID() == "TypedInsert" {
					wantTypes = typedArgsOf(args, natural, where(t).DB)
				}
			case "TypedQuery/scan=string":
				want, wantTypes = map[string]int{"Query": n}, []string{mixed}
			case "TypedQuery/scan=bytes":
				want, wantTypes = map[string]int{"Query": n}, []string{mixedBytes}
			case "TypedWideQuery":
				want, wantTypes = map[string]int{"Query": n}, []string{wide}
			default:
				t.Fatalf("no expected calls for %s", w.ID())
			}
			if !maps.Equal(cc.Calls, want) {
				t.Errorf("calls in the clock = %v, want %v", cc.Calls, want)
			}
			if !slices.Equal(typesOf, wantTypes) {
				t.Errorf("types = %q, want %q", typesOf, wantTypes)
			}
		})
	}
}

// typedArgsOf returns the insert's argument types: the rows alternate NULL
// and values in the nullable columns on the native APIs (nil for NULL),
// and SQLite binds the UUID as its 16 bytes.
func typedArgsOf(args string, natural bool, db bench.DB) []string {
	if db == bench.SQLite {
		args = strings.Replace(args, "uuid.UUID", "[]uint8", 1)
	}
	if !natural {
		f := strings.Fields(args)
		if db == bench.SQLite {
			f[3] = "[]uint8"
		}
		// Rows 1, 2, 3: note set, set, NULL; qty set, NULL, set.
		rows := map[string]bool{}
		for _, nulls := range [][2]string{{"string", "int64"}, {"string", "<nil>"}, {"<nil>", "int64"}} {
			f[6], f[7] = nulls[0], nulls[1]
			rows[strings.Join(f, " ")] = true
		}
		return slices.Sorted(maps.Keys(rows))
	}
	return []string{args}
}

// typedCorruption is one wrong value written into row 7 of a typed table,
// and the column the read must name.
type typedCorruption struct {
	col string
	set func(d bench.Dialect) string
}

func typedCorruptions() []typedCorruption {
	lit := func(pg, maria, lite string) func(d bench.Dialect) string {
		return func(d bench.Dialect) string {
			switch d.DB {
			case bench.Postgres:
				return pg
			case bench.MariaDB:
				return maria
			}
			return lite
		}
	}
	same := func(v string) func(bench.Dialect) string { return lit(v, v, v) }
	return []typedCorruption{
		{"ts", lit("ts + INTERVAL '1 microsecond'", "ts + INTERVAL 1 MICROSECOND", "'2001-02-03T04:05:06Z'")},
		{"amount", same("'1.0000'")},
		{"uid", lit("'00000000-0000-0000-0000-000000000000'", "'00000000-0000-0000-0000-000000000000'",
			"X'00000000000000000000000000000000'")},
		{"doc", same(`'{"n": 0, "ok": false, "tag": "item-7"}'`)},
		{"data", lit(`'\x00'::bytea`, "X'00'", "X'00'")},
		{"note", same("NULL")},
		{"qty", same("8")},
	}
}

func typedDetectsWrongValues(t *testing.T, target string, where Where) {
	cases := map[string][]typedCorruption{
		"TypedQuery/scan=string": typedCorruptions(),
		"TypedQuery/scan=bytes":  typedCorruptions(),
		"TypedWideQuery": {
			{"w1", func(bench.Dialect) string { return "-1" }},
			{"w5", func(bench.Dialect) string { return "'w5-8'" }},
			{"w9", func(bench.Dialect) string { return "63.5" }},
		},
	}
	for id, corrupt := range cases {
		w, ok := bench.LookupWorkload(id)
		if !ok {
			t.Fatalf("workload %s not registered", id)
		}
		for _, c := range corrupt {
			t.Run(id+"/"+c.col, func(t *testing.T) {
				skipUnless(t, target, where, w)
				e := NewEnv(t, target, where)
				setUp(t, w, e)
				base := "typed"
				if w.Name == "TypedWideQuery" {
					base = "typedwide"
				}
				q := fmt.Sprintf("UPDATE %s SET %s = %s WHERE id = 7", e.Dialect.Table(base), c.col, c.set(e.Dialect))
				if err := e.Conn.Exec(q); err != nil {
					t.Fatal(err)
				}
				e.N = 2
				r, err := w.Begin(e)
				if err != nil {
					t.Fatal(err)
				}
				if r.End != nil {
					defer r.End()
				}
				_, err = bench.Measure(r, 0, 2, bench.NewLatencyHistogram())
				// The value check's own error: the row and the column, not
				// a driver's scan error.
				if err == nil || !strings.Contains(err.Error(), "row 7: "+c.col+" = ") {
					t.Fatalf("%s on %s with a wrong %s in row 7: err = %v, want the check's error naming %s",
						id, target, c.col, err, c.col)
				}
			})
		}
	}
}
