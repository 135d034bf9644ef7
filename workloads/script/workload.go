package script

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/sqlbench/sqlbench/bench"
)

// The script workload's names: its ID (and benchmark name), family and
// unit.
const (
	WorkloadName = "Script"
	Family       = "script"
	Unit         = "executions"
)

// Ops is the executions of one run at scale 1 when the run is not for a
// time; TimedOps bounds a run for a time (--time), whatever the scale: a
// billion executions, more than a run of a microsecond an execution does
// in a quarter of an hour.
const (
	Ops      = 10_000
	TimedOps = 1_000_000_000
)

// StmtUnit returns the unit of statement n's (from 1) latency percentile
// p ("p50", "p99") on a result line.
func StmtUnit(n int, p string) string { return "stmt" + strconv.Itoa(n) + "-" + p + "-ns/op" }

// Workload returns the set as a workload: Setup creates the cell's own
// namespace and runs the setup script in it; a run's executions are shared
// out to Clients connections; Teardown drops the namespace.
func (set *Set) Workload() bench.Workload {
	w := bench.Workload{
		Name: WorkloadName, Family: Family, Unit: Unit, Ops: Ops, Whole: true,
		Describe: func(bench.Dialect) string { return set.describe() },
		Setup:    set.setup,
		Begin:    set.begin,
		Teardown: func(e bench.Env) error { return dropNamespace(e.Conn, e.Dialect) },
	}
	if set.Time > 0 {
		w.Ops, w.NoWarmup, w.Timed = TimedOps, true, true
	}
	return w
}

func (set *Set) describe() string {
	s := fmt.Sprintf("%d script(s), %d statement(s), %s mode, %d client(s)", len(set.Scripts), len(set.Statements()),
		set.Mode, set.Clients)
	if set.Time > 0 {
		s += fmt.Sprintf(", %v per run", set.Time)
	}
	return s
}

// Namespace returns the name of the cell's own schema (PostgreSQL) or
// database (MariaDB) the scripts run in: sqlbench's prefix and the cell's
// scope, so that sqlbench never touches a user's objects.
func Namespace(d bench.Dialect) string { return d.Table("script") }

// enterNamespace makes c run in the cell's namespace.
func enterNamespace(c bench.Conn, d bench.Dialect) error {
	switch d.DB {
	case bench.Postgres:
		return c.Exec("SET search_path TO " + Namespace(d))
	case bench.MariaDB:
		return c.Exec("USE " + Namespace(d))
	}
	return nil // SQLite: the cell's own file
}

func createNamespace(c bench.Conn, d bench.Dialect) error {
	switch d.DB {
	case bench.Postgres:
		return c.Exec("CREATE SCHEMA " + Namespace(d))
	case bench.MariaDB:
		return c.Exec("CREATE DATABASE " + Namespace(d))
	}
	return nil
}

func dropNamespace(c bench.Conn, d bench.Dialect) error {
	switch d.DB {
	case bench.Postgres:
		return c.Exec("DROP SCHEMA IF EXISTS " + Namespace(d) + " CASCADE")
	case bench.MariaDB:
		return c.Exec("DROP DATABASE IF EXISTS " + Namespace(d))
	}
	return nil
}

// setup creates the namespace and runs the setup script in it, once, in
// simple mode.
func (set *Set) setup(e bench.Env) error {
	if err := createNamespace(e.Conn, e.Dialect); err != nil {
		return fmt.Errorf("create %s: %w", Namespace(e.Dialect), err)
	}
	if err := enterNamespace(e.Conn, e.Dialect); err != nil {
		return fmt.Errorf("enter %s: %w", Namespace(e.Dialect), err)
	}
	if set.Setup == nil {
		return nil
	}
	one := &Set{Spec: Spec{Mode: Simple, Clients: 1}, Scripts: []*Script{set.Setup}, total: 1}
	k, err := newConn(one, e.Conn, e.Dialect, 0, scaleOf(e))
	if err != nil {
		return err
	}
	k.rng.Seed(Seed, 0)
	return k.runScript(0, set.Setup)
}

func scaleOf(e bench.Env) float64 {
	if e.Scale <= 0 {
		return 1
	}
	return e.Scale
}

// begin opens the run's clients (the cell's connection is the first) and
// prepares their statements.
func (set *Set) begin(e bench.Env) (bench.Run, error) {
	var conns []*conn
	var extra []bench.Conn
	release := func() error {
		var errs []error
		for _, k := range conns {
			errs = append(errs, k.close())
		}
		for _, c := range extra {
			errs = append(errs, c.Close())
		}
		return errors.Join(errs...)
	}
	for client := range set.Clients {
		c := e.Conn
		if client > 0 {
			var err error
			if c, err = e.Open(context.WithoutCancel(e.Ctx), 1); err != nil {
				return bench.Run{}, errors.Join(fmt.Errorf("open client %d: %w", client, err), release())
			}
			extra = append(extra, c)
			if err := enterNamespace(c, e.Dialect); err != nil {
				return bench.Run{}, errors.Join(fmt.Errorf("client %d: %w", client, err), release())
			}
		}
		k, err := newConn(set, c, e.Dialect, client, scaleOf(e))
		if err != nil {
			return bench.Run{}, errors.Join(err, release())
		}
		k.hists = make([][]*hdrhistogram.Histogram, len(set.Scripts))
		for s, sc := range set.Scripts {
			for range sc.Stmts {
				k.hists[s] = append(k.hists[s], newStmtHistogram())
			}
		}
		conns = append(conns, k)
	}
	warm := e.Warm
	ops := make([]func(int) error, len(conns))
	for i, k := range conns {
		ops[i] = func(op int) error {
			k.record = op >= warm
			return k.exec(op)
		}
	}
	return bench.Run{
		Parallel: ops,
		Duration: set.Time,
		Metrics:  func() []bench.Metric { return set.metrics(conns) },
		End:      release,
	}, nil
}

// metrics returns every statement's p50 and p99 latency over the clients.
func (set *Set) metrics(conns []*conn) []bench.Metric {
	var out []bench.Metric
	n := 0
	for s, sc := range set.Scripts {
		for i := range sc.Stmts {
			n++
			h := newStmtHistogram()
			for _, k := range conns {
				h.Merge(k.hists[s][i])
			}
			if h.TotalCount() == 0 {
				continue // a script no execution drew
			}
			out = append(out,
				bench.Metric{Value: float64(h.ValueAtQuantile(50)), Unit: StmtUnit(n, "p50")},
				bench.Metric{Value: float64(h.ValueAtQuantile(99)), Unit: StmtUnit(n, "p99")})
		}
	}
	return out
}
