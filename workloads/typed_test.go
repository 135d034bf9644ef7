package workloads

import (
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// TestTypedValues pins the values the typed family computes from a row's id:
// the JDBC runner's twin (TypedWorkloadsTest.theValuesAreGos) computes the
// same, so that both runners write and check the same rows.
func TestTypedValues(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{string(appendTypedAmount(nil, 1)), "0.7920"},
		{string(appendTypedAmount(nil, 5)), "-3.9600"},
		{typedUUID(7).String(), "5a1be04c-937d-4e21-0000-000000000007"},
		{typedTime(7).Format(time.RFC3339Nano), "2026-01-02T03:04:12.000007Z"},
		{string(appendTypedDoc(nil, 2)), `{"n": 2, "ok": true, "tag": "item-2"}`},
		{string(appendWideText(nil, 8, 5)), "w5-8"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	if note, ok := appendTypedNote(nil, 3); ok || len(note) != 0 {
		t.Errorf("row 3's note = %q, %v: want NULL", note, ok)
	}
	if q, ok := typedQty(7); !ok || q != 49 {
		t.Errorf("row 7's qty = %d, %v: want 49", q, ok)
	}
}

// TestTypedTables pins the tables' SQL, which the JDBC twin's
// TypedWorkloadsTest.theTablesAreGos holds to the same text.
func TestTypedTables(t *testing.T) {
	d := bench.DialectOf(bench.SQLite)
	d.Scope = "t"
	want := "CREATE TABLE sqlbench_t_typed (id INTEGER PRIMARY KEY NOT NULL, ts DATETIME NOT NULL, " +
		"amount TEXT NOT NULL, uid BLOB NOT NULL, doc TEXT NOT NULL, data BLOB NOT NULL, note TEXT, qty INTEGER)"
	if got := typedCreate(d, &typedMixed{}); got != want {
		t.Errorf("typed table:\n got %s\nwant %s", got, want)
	}
	wide := (&typedWide{}).ddl(bench.SQLite)
	if !strings.HasPrefix(wide, "w1 INTEGER NOT NULL, w2 TEXT NOT NULL, w3 REAL NOT NULL, w4 INTEGER NOT NULL") ||
		!strings.HasSuffix(wide, "w19 INTEGER NOT NULL") {
		t.Errorf("wide table: %s", wide)
	}
	if pg := (&typedWide{}).ddl(bench.Postgres); !strings.HasPrefix(pg,
		"w1 BIGINT NOT NULL, w2 VARCHAR(32) NOT NULL, w3 DOUBLE PRECISION NOT NULL") {
		t.Errorf("wide table on PostgreSQL: %s", pg)
	}
}
