package workloads

import (
	"fmt"

	"github.com/sqlbench/sqlbench/bench"
)

// timedStmt is the statement of a run whose published program prepares it
// inside its timed region, runs its loop on it and closes it there too (the
// SQL-Benchmark programs: `db.Prepare`, the loop, `stmt.Close()`, all
// between the two clock reads). Its start and finish are the run's Start
// and Finish, timed once per run (bench.Run.Start), and finish is its End
// too, which closes a statement a failed run left open.
type timedStmt struct {
	c bench.Conn
	q string
	s bench.Stmt
}

// newTimedStmt returns the statement q on c, not yet prepared.
func newTimedStmt(c bench.Conn, q string) *timedStmt { return &timedStmt{c: c, q: q} }

// start prepares the statement.
func (t *timedStmt) start() error {
	if t.s != nil {
		return fmt.Errorf("prepare %q: prepared already", t.q)
	}
	s, err := t.c.Prepare(t.q)
	if err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	t.s = s
	return nil
}

// finish closes the statement, if it is open.
func (t *timedStmt) finish() error {
	s := t.s
	if s == nil {
		return nil
	}
	t.s = nil
	if err := s.Close(); err != nil {
		return fmt.Errorf("close statement: %w", err)
	}
	return nil
}

// run returns a run of op on the statement: Start prepares it, Finish
// closes it, End closes it if the run failed in between.
func (t *timedStmt) run(op func(i int) error) bench.Run {
	return bench.Run{Op: op, Start: t.start, Finish: t.finish, End: t.finish}
}
