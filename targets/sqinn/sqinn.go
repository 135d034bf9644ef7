// Package sqinn registers the "sqinn" target: github.com/cvilsmeier/sqinn-go,
// which runs SQLite in a separate sqinn process and speaks to it over the
// process's stdin and stdout, one request and response per call. The
// pinned sqinn-go v1.2.0 speaks sqinn's protocol 1, that of the sqinn 1.x
// programs; its own CI tests it against sqinn v1.1.27 (sqinn 2 speaks
// another protocol, that of sqinn-go 2).
//
// sqinn-go has two levels. Its whole-statement calls are those the
// published Sqinn-Go benchmark (cvilsmeier/sqinn-go-bench) uses, and the
// target offers them to the workloads that reproduce it:
//
//   - ExecRows (bench.RowsExecer) is one Exec request for all the rows:
//     sqinn prepares the statement, binds, steps and resets it per row,
//     and finalizes it;
//   - QueryWhole (bench.WholeQuerier) is one Query request that returns
//     every row, each column read as the type its destination names.
//
// bench.Conn's calls map onto the low-level requests, since sqinn holds
// one compiled statement at a time and returns a column only when asked
// for it with its type:
//
//   - Exec is one Exec request (prepare, bind, step, finalize inside sqinn);
//   - Query and QueryRow are one whole-result Query request once the
//     query's column types are known; its first use on the connection
//     sends Prepare, a Bind per argument, Step per row, a Column per
//     scanned column (its type taken from the Scan destination) and
//     Finalize, and records the types (learned.go);
//   - a prepared statement's Query and QueryRow stay on those per-row
//     requests (sqinn-go's whole calls take SQL, not a statement);
//   - a prepared statement stays compiled in sqinn, and is reset and
//     rebound per use, until another statement runs on the connection; its
//     next use compiles it again.
package sqinn

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/cvilsmeier/sqinn-go/sqinn"

	"github.com/sqlbench/sqlbench/bench"
)

// PathEnv is the environment variable that names the sqinn executable;
// without it, sqinn is looked up on PATH.
const PathEnv = "SQINN_PATH"

// ErrNoExecutable says that no sqinn executable was found.
var ErrNoExecutable = errors.New("needs the sqinn program: set " + PathEnv + " or put it on PATH")

// Executable returns the sqinn executable to start: $SQINN_PATH or sqinn
// on PATH, checked to be an executable file.
func Executable() (string, error) {
	name := os.Getenv(PathEnv)
	if name == "" {
		name = "sqinn"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w (%v)", ErrNoExecutable, err)
	}
	return path, nil
}

func init() {
	bench.RegisterOpener("sqinn", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		path, err := Executable()
		if err != nil {
			return nil, err
		}
		sq, err := sqinn.Launch(sqinn.Options{SqinnPath: path})
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", path, err)
		}
		c := &conn{sq: &client{sq: sq}, path: path}
		if err := c.sq.Open(cfg.DSN); err != nil {
			return nil, errors.Join(fmt.Errorf("open %s with %s: %w", cfg.DSN, path, err), sq.Terminate())
		}
		c.row.c = c
		return c, nil
	})
}

// conn is bench.Conn over one sqinn process.
type conn struct {
	sq     *client
	path   string // the sqinn program
	active *stmt  // the prepared statement compiled in sqinn now, if any
	args   []any  // the arguments converted to the types sqinn binds
	types  []byte // QueryWhole's column types
	row    row
	// learned holds, per one-off query's SQL, the column types its first
	// use scanned into (learned.go).
	learned map[string][]byte
}

// values converts args to the types sqinn binds: int and int32 widen to
// int64 (sqinn sends an int as 32 bits), a bool becomes 0 or 1.
func (c *conn) values(args []any) ([]any, error) {
	c.args = c.args[:0]
	for i, a := range args {
		switch v := a.(type) {
		case nil, int64, float64, string, []byte:
			c.args = append(c.args, v)
		case int:
			c.args = append(c.args, int64(v))
		case int32:
			c.args = append(c.args, int64(v))
		case bool:
			var n int64
			if v {
				n = 1
			}
			c.args = append(c.args, n)
		default:
			return nil, fmt.Errorf("bind: unsupported argument type %T for parameter %d", a, i+1)
		}
	}
	return c.args, nil
}

// evict finalizes the prepared statement compiled in sqinn, if any, so
// that another can be compiled.
func (c *conn) evict() error {
	if c.active == nil {
		return nil
	}
	c.active = nil
	return c.sq.Finalize()
}

// bind binds args to the statement compiled in sqinn.
func (c *conn) bind(args []any) error {
	vals, err := c.values(args)
	if err != nil {
		return err
	}
	for i, v := range vals {
		if err := c.sq.Bind(i+1, v); err != nil {
			return fmt.Errorf("bind parameter %d: %w", i+1, err)
		}
	}
	return nil
}

// transient compiles query, binds args, hands the statement to run and
// finalizes it.
func (c *conn) transient(query string, args []any, run func() error) error {
	if err := c.evict(); err != nil {
		return err
	}
	if err := c.sq.Prepare(query); err != nil {
		return err
	}
	err := c.bind(args)
	if err == nil {
		err = run()
	}
	return errors.Join(err, c.sq.Finalize())
}

func (c *conn) Exec(query string, args ...any) error {
	if err := c.evict(); err != nil {
		return err
	}
	vals, err := c.values(args)
	if err != nil {
		return err
	}
	_, err = c.sq.Exec(query, 1, len(vals), vals)
	return err
}

func (c *conn) Query(query string, fn bench.RowFunc, args ...any) error {
	return c.oneOff(query, fn, false, args)
}

func (c *conn) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	return c.oneOff(query, fn, true, args)
}

func (c *conn) Prepare(query string) (bench.Stmt, error) {
	s := &stmt{c: c, query: query}
	if err := s.compile(); err != nil {
		return nil, err
	}
	return s, nil
}

func (c *conn) Close() error {
	err := c.evict()
	return errors.Join(err, c.sq.Close(), c.sq.Terminate())
}

func (c *conn) drain() error {
	for {
		more, err := c.sq.Step()
		if err != nil || !more {
			return err
		}
	}
}

func (c *conn) each(fn bench.RowFunc) error { return c.eachWith(&c.row, fn) }

func (c *conn) first(fn bench.RowFunc) error { return c.firstWith(&c.row, fn) }

// stmt is a prepared statement, compiled in sqinn while it is the
// connection's active one.
type stmt struct {
	c     *conn
	query string
}

// compile makes s the statement compiled in sqinn.
func (s *stmt) compile() error {
	if s.c.active == s {
		return nil
	}
	if err := s.c.evict(); err != nil {
		return err
	}
	if err := s.c.sq.Prepare(s.query); err != nil {
		return err
	}
	s.c.active = s
	return nil
}

// use binds args to s, runs it and resets it.
func (s *stmt) use(args []any, run func() error) error {
	if err := s.compile(); err != nil {
		return err
	}
	err := s.c.bind(args)
	if err == nil {
		err = run()
	}
	return errors.Join(err, s.c.sq.Reset())
}

func (s *stmt) Exec(args ...any) error { return s.use(args, s.c.drain) }

func (s *stmt) Query(fn bench.RowFunc, args ...any) error {
	return s.use(args, func() error { return s.c.each(fn) })
}

func (s *stmt) QueryRow(fn bench.RowFunc, args ...any) error {
	return s.use(args, func() error { return s.c.first(fn) })
}

func (s *stmt) Close() error {
	if s.c.active != s {
		return nil
	}
	return s.c.evict()
}

// row is the current row of the statement compiled in sqinn: each scanned
// column is one Column request, of the type its destination asks for.
type row struct{ c *conn }

// Scan implements bench.Row.
func (r *row) Scan(dest ...any) error {
	sq := r.c.sq
	for i, d := range dest {
		var typ byte
		switch d.(type) {
		case *int64, *int, *bool, *sql.NullInt64, *sql.NullInt32, *sql.NullBool:
			typ = sqinn.ValInt64
		case *float64, *sql.NullFloat64:
			typ = sqinn.ValDouble
		case *string, *any, *sql.NullString:
			typ = sqinn.ValText
		case *[]byte, *sql.RawBytes:
			typ = sqinn.ValBlob
		default:
			return fmt.Errorf("scan: unsupported destination %T for column %d", d, i)
		}
		v, err := sq.Column(i, typ)
		if err != nil {
			return fmt.Errorf("column %d: %w", i, err)
		}
		switch d := d.(type) {
		case *int64:
			*d = v.Int64.Value
		case *int:
			*d = int(v.Int64.Value)
		case *bool:
			*d = v.Int64.Value != 0
		case *float64:
			*d = v.Double.Value
		case *string:
			*d = v.String.Value
		case *any:
			if v.String.Set {
				*d = v.String.Value
			} else {
				*d = nil
			}
		case *[]byte:
			*d = v.Blob.Value
		case *sql.RawBytes:
			*d = v.Blob.Value
		case *sql.NullInt64:
			*d = sql.NullInt64{Int64: v.Int64.Value, Valid: v.Int64.Set}
		case *sql.NullInt32:
			*d = sql.NullInt32{Int32: int32(v.Int64.Value), Valid: v.Int64.Set}
		case *sql.NullFloat64:
			*d = sql.NullFloat64{Float64: v.Double.Value, Valid: v.Double.Set}
		case *sql.NullBool:
			*d = sql.NullBool{Bool: v.Int64.Value != 0, Valid: v.Int64.Set}
		case *sql.NullString:
			*d = sql.NullString{String: v.String.Value, Valid: v.String.Set}
		}
	}
	return nil
}
