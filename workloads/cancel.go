package workloads

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// The cancel family measures each driver's cancellation path: queries
// issued with a per-query deadline (context.WithTimeout), one in
// cancelEvery of them a slow query that the deadline cuts short. What a
// driver does then differs (TestCancelPaths, internal/servertest, reads it
// from the server's session ids): lib/pq sends a cancel request on a side
// connection and then discards its own, pgx closes its connection, and
// go-sql-driver/mysql closes its connection and leaves the query to run on
// the server; database/sql opens another connection for the next query,
// while pgx's native connection must be replaced by the program. The run
// reports, beside ns/op (a cancel's first query after it counts toward the
// per-cancel values that follow it; a run's last cancel may have none):
//
//   - cancel-ns/cancel: the mean time from a deadline to the cancelled
//     call's return;
//   - recover-ns/cancel: the mean time of the first query after a cancel
//     (a new connection's handshake and login when the old one is gone);
//   - newconn/cancel: the share of cancels after which the query ran on
//     another server session (its backend id changed);
//   - reopen/cancel: the share of cancels after which the target's own
//     connection was unusable and the workload had to open another (pgx's
//     native connection).
const (
	cancelFamily   = "cancel"
	cancelOps      = 1000                    // queries per run at scale 1
	cancelEvery    = 10                      // one query in cancelEvery is slow and cancelled
	cancelDeadline = 20 * time.Millisecond   // a slow query's deadline
	cancelFastWait = 5 * time.Second         // a fast query's deadline: not meant to be hit
	cancelSleep    = 3                       // seconds the slow query would sleep
	cancelBound    = 1500 * time.Millisecond // the longest a cancelled call may take after its deadline
)

func init() {
	bench.RegisterWorkload(bench.Workload{
		Name: "Cancel", Family: cancelFamily, Ops: cancelOps, Unit: "queries",
		Only: []bench.DB{bench.MariaDB, bench.Postgres}, Needs: bench.CapContext,
		Describe: func(d bench.Dialect) string {
			return fmt.Sprintf("each query with its own deadline (context.WithTimeout): `%s` (the session's id, "+
				"checked) within %v, and one in %d `%s` cut short by a %v deadline, the call checked to fail "+
				"within %v of it; on a connection of its own; reports cancel-ns, recover-ns, newconn and "+
				"reopen per cancel", sessionIDQuery(d), cancelFastWait, cancelEvery, sleepQuery(d),
				cancelDeadline, cancelBound)
		},
		Setup:    func(bench.Env) error { return nil },
		Teardown: func(bench.Env) error { return nil },
		Begin:    beginCancel,
	})
}

// sessionIDQuery returns the query of the server session's id on d.
func sessionIDQuery(d bench.Dialect) string {
	if d.DB == bench.Postgres {
		return "SELECT pg_backend_pid()"
	}
	return "SELECT CONNECTION_ID()"
}

// sleepQuery returns the slow query on d.
func sleepQuery(d bench.Dialect) string {
	if d.DB == bench.Postgres {
		return fmt.Sprintf("SELECT pg_sleep(%d)", cancelSleep)
	}
	return fmt.Sprintf("SELECT SLEEP(%d)", cancelSleep)
}

// cancelRun is one run's connection and tallies.
type cancelRun struct {
	e        bench.Env
	c        bench.ContextQuerier
	conn     bench.Conn
	id       int64 // the server session of the last query
	after    bool  // the last operation was a cancel
	cancels  int
	cancelNs time.Duration
	recovers int // first queries after a cancel
	recover  time.Duration
	newConns int
	reopens  int
}

func beginCancel(e bench.Env) (bench.Run, error) {
	r := &cancelRun{e: e}
	if err := r.open(); err != nil {
		return bench.Run{}, err
	}
	fast, slow := sessionIDQuery(e.Dialect), sleepQuery(e.Dialect)
	return bench.Run{
		Op: func(i int) error {
			if i%cancelEvery == cancelEvery-1 {
				return r.cancel(slow)
			}
			return r.fast(fast)
		},
		End: func() error { return r.conn.Close() },
		Metrics: func() []bench.Metric {
			if r.cancels == 0 || r.recovers == 0 {
				return nil
			}
			n, m := float64(r.cancels), float64(r.recovers)
			return []bench.Metric{
				{Value: float64(r.cancelNs) / n, Unit: "cancel-ns/cancel"},
				{Value: float64(r.recover) / m, Unit: "recover-ns/cancel"},
				{Value: float64(r.newConns) / m, Unit: "newconn/cancel"},
				{Value: float64(r.reopens) / m, Unit: "reopen/cancel"},
			}
		},
	}, nil
}

// open opens the run's own connection (a cancel may break it, and the
// cell's connection is for the cell's other runs).
func (r *cancelRun) open() error {
	c, err := r.e.Open(r.e.Ctx, 1)
	if err != nil {
		return fmt.Errorf("cancel: open: %w", err)
	}
	cq, ok := c.(bench.ContextQuerier)
	if !ok {
		c.Close()
		return errors.New("cancel: the target's connection takes no context (CapContext)")
	}
	r.conn, r.c = c, cq
	return nil
}

// cancel runs the slow query under a short deadline and checks that the
// call failed, after its deadline and within cancelBound of it.
func (r *cancelRun) cancel(q string) error {
	ctx, stop := context.WithTimeout(r.e.Ctx, cancelDeadline)
	defer stop()
	deadline, _ := ctx.Deadline()
	var v any
	err := r.c.QueryRowContext(ctx, q, func(row bench.Row) error { return row.Scan(&v) })
	late := time.Since(deadline)
	switch {
	case err == nil:
		return fmt.Errorf("cancel: %s returned within its %v deadline", q, cancelDeadline)
	case late < 0:
		return fmt.Errorf("cancel: %s failed %v before its deadline: %w", q, -late, err)
	case late > cancelBound:
		return fmt.Errorf("cancel: %s returned %v after its deadline (bound %v)", q, late, cancelBound)
	}
	r.cancels++
	r.cancelNs += late
	r.after = true
	return nil
}

// fast reads the session id under a generous deadline; the first query
// after a cancel is timed as the recovery, and a connection the cancel
// left unusable is replaced (counted as a reopen).
func (r *cancelRun) fast(q string) error {
	t0 := time.Now()
	id, err := r.sessionID(q)
	if err != nil && r.after {
		r.conn.Close()
		if err = r.open(); err == nil {
			r.reopens++
			id, err = r.sessionID(q)
		}
	}
	if err != nil {
		return fmt.Errorf("cancel: %s: %w", q, err)
	}
	if id <= 0 {
		return fmt.Errorf("cancel: %s returned %d", q, id)
	}
	switch {
	case r.after:
		r.recovers++
		r.recover += time.Since(t0)
		if r.id != 0 && id != r.id {
			r.newConns++
		}
	case r.id != 0 && id != r.id:
		return fmt.Errorf("cancel: the server session changed from %d to %d with no cancel between", r.id, id)
	}
	r.id, r.after = id, false
	return nil
}

func (r *cancelRun) sessionID(q string) (int64, error) {
	ctx, stop := context.WithTimeout(r.e.Ctx, cancelFastWait)
	defer stop()
	var id int64
	err := r.c.QueryRowContext(ctx, q, func(row bench.Row) error { return row.Scan(&id) })
	return id, err
}
