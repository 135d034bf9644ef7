package pq_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"sync"
	"testing"

	libpq "github.com/lib/pq"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servertest"
	"github.com/sqlbench/sqlbench/targets/pq"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// recorder is a database/sql driver that hands everything to lib/pq and
// notes the Go type of every argument pq's statements are given.
type recorder struct {
	mu    sync.Mutex
	types map[string]int
}

func (r *recorder) note(args []driver.Value) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range args {
		r.types[fmt.Sprintf("%T", a)]++
	}
}

func (r *recorder) take() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.types
	r.types = map[string]int{}
	return t
}

func (r *recorder) Open(dsn string) (driver.Conn, error) {
	c, err := libpq.Driver{}.Open(dsn)
	if err != nil {
		return nil, err
	}
	return recConn{c, r}, nil
}

type recConn struct {
	driver.Conn
	r *recorder
}

func (c recConn) Prepare(q string) (driver.Stmt, error) {
	s, err := c.Conn.Prepare(q)
	if err != nil {
		return nil, err
	}
	return recStmt{s, c.r}, nil
}

type recStmt struct {
	driver.Stmt
	r *recorder
}

func (s recStmt) Exec(args []driver.Value) (driver.Result, error) {
	s.r.note(args)
	return s.Stmt.Exec(args) //nolint:staticcheck // the interface every pq statement has, COPY's included
}

func (s recStmt) Query(args []driver.Value) (driver.Rows, error) {
	s.r.note(args)
	return s.Stmt.Query(args) //nolint:staticcheck
}

var registerRecorder = sync.OnceValue(func() *recorder {
	r := &recorder{types: map[string]int{}}
	sql.Register("pq-recording", r)
	return r
})

// TestArgsReachPqAsAsked runs the prepared and COPY paths of BulkInsert
// through lib/pq wrapped in a recording driver, on a real PostgreSQL:
// args=bytes hands pq a []byte per value and args=string a string, and
// pq's COPY stores a []byte as its bytea hex text (\x and two digits a
// byte: the doubled wire bytes of the study's lib/pq figure), which the
// workload's check still accepts.
func TestArgsReachPqAsAsked(t *testing.T) {
	rec := registerRecorder()
	where := servertest.Where(t, srv, bench.Postgres, "tcp")
	for _, c := range []struct {
		path, args, typ string
		stored          int // octet_length of a stored 8-byte value
	}{
		{"prepared", "bytes", "[]uint8", 8},
		{"prepared", "string", "string", 8},
		{"copy", "bytes", "[]uint8", 2 + 2*8},
		{"copy", "string", "string", 8},
	} {
		id := "BulkInsert/shape=3x8/path=" + c.path + "/args=" + c.args
		t.Run(id, func(t *testing.T) {
			w, ok := bench.LookupWorkload(id)
			if !ok {
				t.Fatalf("%s is not registered", id)
			}
			e := targettest.NewEnv(t, "pq", where)
			cfg := where(t)
			conn, err := pq.OpenWithDriver(context.Background(), cfg, "pq-recording")
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			e.Conn = conn
			rec.take()
			const n = 50
			e.Warm, e.N = 0, n
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			_, err = bench.Measure(r, 0, n, bench.NewLatencyHistogram())
			got := rec.take()
			var width int
			if err == nil {
				err = conn.QueryRow("SELECT octet_length(c0) FROM "+e.Dialect.Table("bulk")+" LIMIT 1",
					func(row bench.Row) error { return row.Scan(&width) })
			}
			if eerr := r.End(); err == nil {
				err = eerr
			}
			w.Teardown(e)
			if err != nil {
				t.Fatal(err)
			}
			if got[c.typ] != 3*n || len(got) != 1 {
				t.Errorf("pq was given %v, want %d values of type %s only", got, 3*n, c.typ)
			}
			if width != c.stored {
				t.Errorf("a stored value is %d bytes, want %d", width, c.stored)
			}
		})
	}
}
