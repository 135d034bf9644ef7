package script

import (
	"errors"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

const tpcb = `-- a comment
\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE accounts SET abalance = abalance + :delta
  WHERE aid = :aid;
SELECT abalance FROM accounts WHERE aid = :aid;
INSERT INTO history (bid, aid, delta, note) VALUES (:bid, :aid, :delta, 'it''s :not; a var');
END;
`

func TestParseCommands(t *testing.T) {
	sc, err := Parse("tpcb.sql", tpcb, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(sc.Commands), 8; got != want {
		t.Fatalf("%d commands, want %d", got, want)
	}
	type want struct {
		line   int
		class  Class
		params int
	}
	wants := []want{{5, TxControl, 0}, {6, Exec, 2}, {8, Rows, 1}, {9, Exec, 3}, {10, TxControl, 0}}
	if len(sc.Stmts) != len(wants) {
		t.Fatalf("%d statements, want %d", len(sc.Stmts), len(wants))
	}
	for i, w := range wants {
		st := sc.Stmts[i]
		if st.Line != w.line || st.Class != w.class || st.Params() != w.params {
			t.Errorf("statement %d: line %d class %d params %d, want %+v (%q)", i, st.Line, st.Class, st.Params(), w,
				st.SQL)
		}
	}
	if got := sc.Stmts[3].SQL; !strings.Contains(got, "'it''s :not; a var'") {
		t.Errorf("the literal was cut or changed: %q", got)
	}
}

func TestPlaceholdersPerDialect(t *testing.T) {
	sc, err := Parse("p.sql", `\set a 1
\set b 2
SELECT x::int, ':a', "c:a", :b FROM t WHERE a = :a AND b = :b -- :zz
  /* :zz */ AND s = $$ :zz $$;`, 1)
	if err != nil {
		t.Fatal(err)
	}
	st := sc.Stmts[0]
	for _, c := range []struct {
		db   bench.DB
		want string
	}{
		{bench.SQLite, `SELECT x::int, ':a', "c:a", ? FROM t WHERE a = ? AND b = ? -- :zz
  /* :zz */ AND s = $$ :zz $$`},
		{bench.MariaDB, `SELECT x::int, ':a', "c:a", ? FROM t WHERE a = ? AND b = ? -- :zz
  /* :zz */ AND s = $$ :zz $$`},
		{bench.Postgres, `SELECT x::int, ':a', "c:a", $1 FROM t WHERE a = $2 AND b = $3 -- :zz
  /* :zz */ AND s = $$ :zz $$`},
	} {
		if got := st.Text(bench.DialectOf(c.db).Param); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.db, got, c.want)
		}
	}
	// The parameters are bound in order of appearance: b, a, b.
	if want := []int{3, 2, 3}; len(st.params) != 3 || st.params[0] != want[0] || st.params[1] != want[1] ||
		st.params[2] != want[2] {
		t.Errorf("parameter slots %v, want %v", st.params, want)
	}
}

func TestBadScripts(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"SELECT :nope;", "bad.sql:1: unknown variable :nope"},
		{"\n\n\\set x random(1, \nSELECT 1;", "bad.sql:3: \\set x: expression ends too soon"},
		{"\\set x :y + 1\nSELECT 1;", "bad.sql:1: \\set x: unknown variable :y"},
		{"\\set x foo(1)\nSELECT 1;", `bad.sql:1: \set x: unknown function "foo"`},
		{"\\set x random(1)\nSELECT 1;", `bad.sql:1: \set x: random takes 2 arguments, got 1`},
		{"\\setshell x echo 1\nSELECT 1;",
			`bad.sql:1: unsupported meta-command \setshell (sqlbench has \set and \sleep)`},
		{"SELECT 1;\nSELECT 'open;\n", "bad.sql:2: unterminated quoted text (')"},
		{"\\sleep 10 min\nSELECT 1;", `bad.sql:1: \sleep: unknown unit "min" (us, ms, s)`},
		{"-- nothing\n", "bad.sql:2: no SQL statement in the script"},
		{"\\set scale 3\nSELECT 1;", `bad.sql:1: \set: :scale is set by sqlbench`},
		{"SELECT 1;\n\n  INSERT INTO t VALUES (:late);\n\\set late 1", "bad.sql:3: unknown variable :late"},
	} {
		_, err := Parse("bad.sql", c.text, 1)
		var se *Error
		if !errors.As(err, &se) || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.text, err, c.want)
		}
	}
}

func TestEval(t *testing.T) {
	vars := newVars()
	vars.define("x")
	vals := []Value{Int(10), Int(3), Int(7)}
	for _, c := range []struct{ expr, want string }{
		{"1 + 2 * 3", "7"},
		{"(1 + 2) * 3", "9"},
		{"-:x + 1", "-6"},
		{"7 / 2", "3"},
		{"-7 / 2", "-3"},
		{"7 % 3", "1"},
		{"7.0 / 2", "3.5"},
		{"100000 * :scale", "1000000"},
		{":client_id", "3"},
		{"abs(-4) + least(3, 1, 2) + greatest(1, 2.5)", "7.5"},
		{"int(3.9) + double(1)", "4"},
		{"-9223372036854775808", "-9223372036854775808"},
	} {
		e, err := ParseExpr(c.expr, vars)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		v, err := e.Eval(vals, newRand(1, 2))
		if err != nil || v.String() != c.want {
			t.Errorf("%s = %v, %v; want %s", c.expr, v, err, c.want)
		}
	}
	for _, c := range []struct{ expr, want string }{
		{"1 / 0", "division by zero"},
		{"9223372036854775807 + 1", "integer out of range in addition"},
		{"1.5 % 2", "% takes integers, not doubles"},
		{"random(5, 1)", "random: empty range [5, 1]"},
		{"random_zipfian(1, 10, 1)", "random_zipfian: parameter must be in [1.001, 1000], got 1"},
		{"random_exponential(1, 10, 0)", "random_exponential: parameter must be greater than 0, got 0"},
	} {
		e, err := ParseExpr(c.expr, vars)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if _, err := e.Eval(vals, newRand(1, 2)); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.expr, err, c.want)
		}
	}
}
