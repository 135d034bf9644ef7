package script

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// recConn is a fake bench.Conn for the unit tests of the executor (the
// real targets run the scripts in internal/cli's end-to-end tests): it
// records every call with its SQL and arguments, and answers queries with
// one row of two columns.
type recConn struct {
	calls []string
	txer  bool
}

type recRow struct{}

func (recRow) Scan(dest ...any) error {
	*dest[0].(*any) = int64(7)
	*dest[1].(*any) = []byte("x")
	return nil
}
func (recRow) ColumnCount() int { return 2 }

func (c *recConn) log(what, q string, args []any) {
	c.calls = append(c.calls, fmt.Sprintf("%s %s %v", what, q, args))
}
func (c *recConn) Exec(q string, args ...any) error { c.log("exec", q, args); return nil }
func (c *recConn) Query(q string, fn bench.RowFunc, args ...any) error {
	c.log("query", q, args)
	return fn(recRow{})
}
func (c *recConn) QueryRow(q string, fn bench.RowFunc, args ...any) error {
	return c.Query(q, fn, args...)
}
func (c *recConn) Prepare(q string) (bench.Stmt, error) {
	c.log("prepare", q, nil)
	return &recStmt{c, q}, nil
}
func (c *recConn) Close() error { return nil }

type recStmt struct {
	c *recConn
	q string
}

func (s *recStmt) Exec(args ...any) error { s.c.log("stmt-exec", s.q, args); return nil }
func (s *recStmt) Query(fn bench.RowFunc, args ...any) error {
	s.c.log("stmt-query", s.q, args)
	return fn(recRow{})
}
func (s *recStmt) QueryRow(fn bench.RowFunc, args ...any) error { return s.Query(fn, args...) }
func (s *recStmt) Close() error                                 { s.c.log("stmt-close", s.q, nil); return nil }

// txConn is a recConn with a transaction API of its own, as database/sql's.
type txConn struct{ *recConn }

func (c txConn) BeginTx() (bench.Tx, error) { c.log("tx-begin", "", nil); return recTx{c.recConn}, nil }

type recTx struct{ c *recConn }

func (t recTx) Exec(q string, args ...any) error { t.c.log("tx-exec", q, args); return nil }
func (t recTx) Prepare(q string) (bench.Stmt, error) {
	t.c.log("tx-prepare", q, nil)
	return &recStmt{t.c, q}, nil
}
func (t recTx) Query(q string, fn bench.RowFunc, args ...any) error {
	t.c.log("tx-query", q, args)
	return fn(recRow{})
}
func (t recTx) Stmt(s bench.Stmt) (bench.Stmt, error) {
	t.c.log("tx-stmt", s.(*recStmt).q, nil)
	return s, nil
}
func (t recTx) Commit() error   { t.c.log("tx-commit", "", nil); return nil }
func (t recTx) Rollback() error { t.c.log("tx-rollback", "", nil); return nil }

const txScript = "\\set a 5\n\\set b :a * 2\nBEGIN;\nUPDATE t SET v = :b WHERE id = :a;\nSELECT v, w FROM t WHERE id " +
	"= :a;\nCOMMIT;\n"

func TestExecutorModes(t *testing.T) {
	for _, c := range []struct {
		db   bench.DB
		mode Mode
		txer bool
		want []string
	}{
		{bench.Postgres, Simple, false, []string{
			"exec BEGIN []", "exec UPDATE t SET v = $1 WHERE id = $2 [10 5]",
			"query SELECT v, w FROM t WHERE id = $1 [5]", "exec COMMIT []"}},
		{bench.MariaDB, Extended, false, []string{
			"exec BEGIN []", "prepare UPDATE t SET v = ? WHERE id = ? []",
			"stmt-exec UPDATE t SET v = ? WHERE id = ? [10 5]",
			"stmt-close UPDATE t SET v = ? WHERE id = ? []", "prepare SELECT v, w FROM t WHERE id = ? []",
			"stmt-query SELECT v, w FROM t WHERE id = ? [5]", "stmt-close SELECT v, w FROM t WHERE id = ? []",
			"exec COMMIT []"}},
		{bench.SQLite, Simple, true, []string{
			"tx-begin  []", "tx-exec UPDATE t SET v = ? WHERE id = ? [10 5]",
			"tx-query SELECT v, w FROM t WHERE id = ? [5]", "tx-commit  []"}},
		{bench.SQLite, Prepared, true, []string{
			"tx-begin  []", "tx-stmt UPDATE t SET v = ? WHERE id = ? []",
			"stmt-exec UPDATE t SET v = ? WHERE id = ? [10 5]",
			"tx-stmt SELECT v, w FROM t WHERE id = ? []", "stmt-query SELECT v, w FROM t WHERE id = ? [5]",
			"tx-commit  []"}},
	} {
		set, err := Compile(Spec{Scripts: []Source{{Name: "tx.sql", Text: txScript}}, Mode: c.mode})
		if err != nil {
			t.Fatal(err)
		}
		rec := &recConn{}
		var conn bench.Conn = rec
		if c.txer {
			conn = txConn{rec}
		}
		k, err := newConn(set, conn, bench.DialectOf(c.db), 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		rec.calls = nil // the preparations
		k.digest = newDigest(set)
		if err := k.exec(0); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(rec.calls, "\n"); got != strings.Join(c.want, "\n") {
			t.Errorf("%s %s txer=%v:\n got %s\nwant %s", c.db, c.mode, c.txer, got, strings.Join(c.want, "\n"))
		}
		if d := k.digest.Stmts[2]; d.Runs != 1 || d.Rows != 1 || d.Sum != rowHash([]any{int64(7), []byte("x")}) {
			t.Errorf("digest of the SELECT: %+v", d)
		}
	}
}

func TestExecutorTransactionErrors(t *testing.T) {
	set, err := Compile(Spec{Scripts: []Source{{Name: "open.sql", Text: "BEGIN;\nSELECT 1;\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recConn{}
	k, err := newConn(set, txConn{rec}, bench.DialectOf(bench.SQLite), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	err = k.exec(0)
	if err == nil || err.Error() != "open.sql:2: the script ends inside a transaction (BEGIN without COMMIT)" {
		t.Errorf("error %v", err)
	}
	if last := rec.calls[len(rec.calls)-1]; last != "tx-rollback  []" {
		t.Errorf("the transaction was not rolled back: %v", rec.calls)
	}
}

func TestDigestRoundTripAndCompare(t *testing.T) {
	set, err := Compile(Spec{Scripts: []Source{{Name: "d.sql", Text: "SELECT 1;\nSELECT now();\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	a := newDigest(set)
	a.add(0, set.Scripts[0].Stmts[0], 3, 0xabc)
	a.add(1, set.Scripts[0].Stmts[1], 1, 0) // not hashed: now() is volatile
	back, err := ParseDigest(append([]string{"other: line"}, a.Lines()...))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(back.Stmts) != fmt.Sprint(a.Stmts) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back.Stmts, a.Stmts)
	}
	if back.Stmts[1].Compared {
		t.Error("SELECT now() is compared value for value")
	}
	b := *back
	b.Stmts = append([]StmtDigest(nil), back.Stmts...)
	b.Stmts[1].Sum = 0x2 // now() differs: not compared
	if err := Compare(a, &b, "ref"); err != nil {
		t.Errorf("a volatile statement's values were compared: %v", err)
	}
	b.Stmts[0].Sum = 0xabd
	if err := Compare(a, &b, "ref"); err == nil ||
		!strings.Contains(err.Error(), "statement d.sql:1 returned other values than on ref") {
		t.Errorf("a changed value: %v", err)
	}
	b.Stmts[0].Rows = 4
	if err := Compare(a, &b, "ref"); err == nil ||
		!strings.Contains(err.Error(), "statement d.sql:1 returned 4 rows over 1 executions, ref 3") {
		t.Errorf("a changed row count: %v", err)
	}
}

func TestCanon(t *testing.T) {
	// What different drivers give for one value hashes alike.
	for _, same := range [][]any{
		{int64(5), int32(5), []byte("5"), "5", float64(5)},
		{1.5, "1.5", []byte("1.5")},
		{true, int64(1)},
	} {
		want := string(canon(nil, same[0]))
		for _, v := range same[1:] {
			if got := string(canon(nil, v)); got != want {
				t.Errorf("%T %v canonical %q, %T %v %q", same[0], same[0], want, v, v, got)
			}
		}
	}
	if string(canon(nil, nil)) == string(canon(nil, "")) {
		t.Error("NULL and the empty string hash alike")
	}
}

func TestBeginWithOptionsOnATransactionAPI(t *testing.T) {
	set, err := Compile(Spec{Scripts: []Source{{Name: "imm.sql", Text: "BEGIN IMMEDIATE;\nSELECT 1;\nCOMMIT;\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	k, err := newConn(set, txConn{&recConn{}}, bench.DialectOf(bench.SQLite), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.exec(0); err == nil || !strings.HasPrefix(err.Error(), "imm.sql:1: BEGIN IMMEDIATE: the target "+
		"starts transactions through database/sql's BeginTx") {
		t.Errorf("error %v", err)
	}
	// Without a transaction API of its own, the target is sent it as SQL.
	rec := &recConn{}
	if k, err = newConn(set, rec, bench.DialectOf(bench.SQLite), 0, 1); err != nil {
		t.Fatal(err)
	}
	if err := k.exec(0); err != nil || rec.calls[0] != "exec BEGIN IMMEDIATE []" {
		t.Errorf("%v, %v", err, rec.calls)
	}
}
