package targettest

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// DetectsCorruptedResults runs the echo, large-value and single-insert
// workloads through a Conn that corrupts what the target returns or
// writes, and expects each workload to fail: a driver that mangles a value,
// or writes a wrong or missing row, must never be timed.
func DetectsCorruptedResults(t *testing.T, target string, where Where) {
	spec := lookup(t, target, where)
	type tc struct {
		id string
		c  corruption
	}
	var cases []tc
	for col := range 5 { // each of EchoMixed5's values alone
		cases = append(cases, tc{"EchoMixed5", corruption{col: col}})
	}
	for _, id := range []string{
		"PreparedQueryRowParam",
		"SelectLargeString", "SelectPreparedLargeString",
		"SelectLargeBytes", "SelectPreparedLargeBytes",
		"SelectLargeRaw", "SelectPreparedLargeRaw",
		"PreparedQueryConcurrent/conns=2",
	} {
		cases = append(cases, tc{id, corruption{col: -1}})
	}
	for _, id := range []string{"SingleInsert/data=fixed/conns=2/prepare=each",
		"SingleInsert/data=random/conns=1/prepare=each", "SingleInsert/data=random/conns=1/prepare=once"} {
		cases = append(cases, tc{id, corruption{write: writeWrong, execs: new(atomic.Int64)}},
			tc{id, corruption{write: writeNone, execs: new(atomic.Int64)}})
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s", c.id, c.c), func(t *testing.T) {
			w, ok := bench.LookupWorkload(c.id)
			if !ok {
				t.Fatalf("workload %s not registered", c.id)
			}
			if !spec.Runs(w) { // as a session plans: never a pool-less connection shared by two goroutines
				t.Skipf("%s does not run %s (it needs %q)", target, c.id, w.Needs)
			}
			e := NewEnv(t, target, where)
			e.Conn = corruptConn{e.Conn, c.c}
			open := e.Open
			e.Open = func(ctx context.Context, pool int) (bench.Conn, error) {
				cc, err := open(ctx, pool)
				if err != nil {
					return nil, err
				}
				return corruptConn{cc, c.c}, nil
			}
			if err := Run(e, w, 50); err == nil {
				t.Fatalf("%s on %s with %s: no error", c.id, target, c.c)
			} else {
				t.Logf("failed as expected: %v", err)
			}
		})
	}
}

// write corruptions.
const (
	writeNone  = 1 // execution corruptID is not made
	writeWrong = 2 // execution corruptID writes another first value
)

// corruptID is the prepared-statement execution a write corruption
// touches, counted over every statement of the case's connections: a
// timed one.
const corruptID = 20

// corruption says what corruptConn changes: column col of every row read
// (-1: every column), or, when write is set, one row written.
type corruption struct {
	col   int
	write int
	// execs counts the executions of every statement of the case (write
	// corruptions), shared by its connections.
	execs *atomic.Int64
}

func (c corruption) String() string {
	switch c.write {
	case writeNone:
		return "row-dropped"
	case writeWrong:
		return "row-changed"
	}
	if c.col < 0 {
		return "read-changed"
	}
	return fmt.Sprintf("column-changed=%d", c.col)
}

// corruptConn is a bench.Conn that corrupts results as its corruption says.
type corruptConn struct {
	bench.Conn
	c corruption
}

func (cc corruptConn) Query(q string, fn bench.RowFunc, args ...any) error {
	return cc.Conn.Query(q, cc.c.rows(fn), args...)
}

func (cc corruptConn) QueryRow(q string, fn bench.RowFunc, args ...any) error {
	return cc.Conn.QueryRow(q, cc.c.rows(fn), args...)
}

func (cc corruptConn) Prepare(q string) (bench.Stmt, error) {
	s, err := cc.Conn.Prepare(q)
	if err != nil {
		return nil, err
	}
	return corruptStmt{s, cc.c}, nil
}

type corruptStmt struct {
	bench.Stmt
	c corruption
}

func (s corruptStmt) Exec(args ...any) error {
	if s.c.write == 0 || len(args) == 0 || s.c.execs.Add(1) != corruptID {
		return s.Stmt.Exec(args...)
	}
	if s.c.write == writeNone {
		return nil
	}
	wrong := append([]any(nil), args...)
	wrong[0] = "corrupted"
	return s.Stmt.Exec(wrong...)
}

func (s corruptStmt) Query(fn bench.RowFunc, args ...any) error {
	return s.Stmt.Query(s.c.rows(fn), args...)
}

func (s corruptStmt) QueryRow(fn bench.RowFunc, args ...any) error {
	return s.Stmt.QueryRow(s.c.rows(fn), args...)
}

// rows wraps fn so that the rows it scans are corrupted; write corruptions
// leave reads alone.
func (c corruption) rows(fn bench.RowFunc) bench.RowFunc {
	if c.write != 0 {
		return fn
	}
	return func(r bench.Row) error { return fn(corruptRow{r, c.col}) }
}

// corruptRow changes column col (every column if col < 0) after scanning.
type corruptRow struct {
	r   bench.Row
	col int
}

func (r corruptRow) Scan(dest ...any) error {
	if err := r.r.Scan(dest...); err != nil {
		return err
	}
	for i, d := range dest {
		if r.col >= 0 && i != r.col {
			continue
		}
		switch d := d.(type) {
		case *int64:
			*d++
		case *int:
			*d++
		case *float64:
			*d += 1e-9
		case *bool:
			*d = !*d
		case *string:
			*d = (*d)[:len(*d)-1] + "B"
		case *[]byte:
			*d = append((*d)[:len(*d)-1:len(*d)-1], 'B')
		case *sql.RawBytes:
			*d = (*d)[:len(*d)-1]
		case *any:
			if *d == nil {
				*d = "not NULL"
			} else {
				*d = nil
			}
		case *sql.NullInt64:
			d.Int64++
		case *sql.NullInt32:
			d.Int32++
		case *sql.NullBool:
			d.Bool = !d.Bool
		case *sql.NullString:
			d.String = d.String[:len(d.String)-1] + "B"
		}
	}
	return nil
}
