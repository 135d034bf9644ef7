package sqldb_test

import (
	"context"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite" // the "sqlite" driver, pure Go

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/sqldb"
)

// open opens a SQLite file through sqldb with cfg's pool and session.
func open(t *testing.T, cfg bench.Config) sqldb.Conn {
	t.Helper()
	cfg.DB = bench.SQLite
	c, err := sqldb.Open(context.Background(), "sqlite", "file:"+filepath.Join(t.TempDir(), "t.db"), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c.(sqldb.Conn)
}

func TestPoolRunsSessionOnEveryConnection(t *testing.T) {
	const pool = 3
	c := open(t, bench.Config{Pool: pool, Session: []string{"PRAGMA busy_timeout=1234"}})
	if got := c.DB.Stats().MaxOpenConnections; got != pool {
		t.Fatalf("pool of %d connections, want %d", got, pool)
	}
	// Hold all three connections at once, so each is a distinct one the
	// pool opened, and ask each for its setting.
	ctx := context.Background()
	for k := range pool {
		conn, err := c.DB.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var ms int
		if err := conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&ms); err != nil {
			t.Fatal(err)
		}
		if ms != 1234 {
			t.Errorf("connection %d: busy_timeout = %d, want 1234 (the session statement)", k, ms)
		}
	}
	if n := c.DB.Stats().OpenConnections; n != pool {
		t.Errorf("%d connections open, want %d", n, pool)
	}
}

func TestUnpooledHoldsOneConnection(t *testing.T) {
	c := open(t, bench.Config{})
	if got := c.DB.Stats().MaxOpenConnections; got != 1 {
		t.Fatalf("pool of %d connections, want 1", got)
	}
}

func TestTransactions(t *testing.T) {
	c := open(t, bench.Config{})
	if err := c.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"); err != nil {
		t.Fatal(err)
	}
	count := func() int64 {
		t.Helper()
		var n int64
		if err := c.QueryRow("SELECT COUNT(*) FROM t", func(r bench.Row) error { return r.Scan(&n) }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	insert := func(first, n int, commit bool) {
		t.Helper()
		tx, err := bench.Begin(c)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := tx.(sqldb.Tx); !ok {
			t.Fatalf("bench.Begin on sqldb gave %T, want sqldb.Tx (*sql.Tx)", tx)
		}
		s, err := tx.Prepare("INSERT INTO t (id, v) VALUES (?, ?)")
		if err != nil {
			t.Fatal(err)
		}
		for i := first; i < first+n; i++ {
			if err := s.Exec(i, "x"); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if err := tx.Exec("UPDATE t SET v = 'y' WHERE id = ?", first); err != nil {
			t.Fatal(err)
		}
		if commit {
			err = tx.Commit()
		} else {
			err = tx.Rollback()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	insert(0, 10, true)
	if n := count(); n != 10 {
		t.Fatalf("after commit: %d rows, want 10", n)
	}
	insert(10, 5, false)
	if n := count(); n != 10 {
		t.Fatalf("after rollback: %d rows, want 10", n)
	}
	var v string
	if err := c.QueryRow("SELECT v FROM t WHERE id = 0", func(r bench.Row) error { return r.Scan(&v) }); err != nil {
		t.Fatal(err)
	}
	if v != "y" {
		t.Fatalf("row 0 holds %q, want the committed update \"y\"", v)
	}
}
