package workloads

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/sqlbench/sqlbench/bench"
)

// The pool family: N goroutines share one connection pool and each runs a
// point query through it, the pool's own one-row call with the id bound
// (database/sql's db.QueryRow(q, id).Scan, pgxpool's pool.QueryRow(ctx, q,
// id).Scan, HikariCP's getConnection, prepareStatement, executeQuery and
// close on the JDBC runner), so that a goroutine holds a connection for
// one query and gives it back. The pool is the cell's own (Workload.Pool),
// open for the cell's life as an application's, with at most pool=
// connections (database/sql SetMaxOpenConns and SetMaxIdleConns, pgxpool
// MaxConns, HikariCP maximumPoolSize): 4, fewer than most of the client
// counts, and 64, as many as the most clients, a cap no run reaches, which
// database/sql's default (no cap) behaves as once it keeps its idle
// connections. Clients above the pool size wait for a connection; the
// result line says how often and how long, from the pool's own counters
// (bench.PoolWaiter): pool-waits/op and pool-wait-ns/op.
const (
	poolFamily  = "pool"
	poolRows    = 1000   // rows of the table the point query reads
	poolQueries = 50_000 // queries per run at scale 1
	poolSmoke   = 0.02   // --quick: 1,000 queries per run
)

// PoolSizes and poolClients are the family's sweep: the pool's cap and the
// goroutines sharing it.
var (
	poolSizes   = [...]int{4, 64}
	poolClients = [...]int{1, 4, 16, 64}
)

func init() {
	for _, size := range poolSizes {
		for _, n := range poolClients {
			bench.RegisterWorkload(poolWorkload(size, n))
		}
	}
}

// PoolWorkloadIDs returns the IDs of the pool family, in registration order.
func PoolWorkloadIDs() []string {
	var ids []string
	for _, size := range poolSizes {
		for _, n := range poolClients {
			ids = append(ids, poolWorkload(size, n).ID())
		}
	}
	return ids
}

// poolQuery is the point query: one row by its primary key.
func poolQuery(d bench.Dialect) string {
	return "SELECT id, name FROM " + d.Table("pool") + " WHERE id = " + d.Param(1)
}

// poolName is row id's name.
func poolName(id int64) string { return "pool-row-" + strconv.FormatInt(id, 10) }

func poolWorkload(size, n int) bench.Workload {
	return bench.Workload{
		Name: "PoolQuery", Keys: fmt.Sprintf("pool=%d/clients=%d", size, n), Family: poolFamily,
		Ops: poolQueries, Unit: "queries", Smoke: poolSmoke, Pool: size, Needs: bench.CapPool,
		Only: []bench.DB{bench.MariaDB, bench.Postgres},
		Describe: func(d bench.Dialect) string {
			who := fmt.Sprintf("%d goroutines sharing", n)
			if n == 1 {
				who = "1 goroutine on"
			}
			return fmt.Sprintf("`%s` (%d rows, the ids scattered) through the pool's one-row call, "+
				"%s the cell's pool of at most %d connections, open for the whole cell; "+
				"each row checked; the waits for a connection (pool-waits/op, pool-wait-ns/op) from the pool's "+
				"counters",
				poolQuery(d), poolRows, who, size)
		},
		Setup:    poolSetup,
		Teardown: func(e bench.Env) error { return e.Conn.Exec("DROP TABLE IF EXISTS " + e.Dialect.Table("pool")) },
		Begin:    func(e bench.Env) (bench.Run, error) { return poolRun(e, n) },
	}
}

// poolSetup creates the table and fills it in statements of 100 rows, on
// the pool itself (autocommit: a transaction's statements would need one
// connection).
func poolSetup(e bench.Env) error {
	t := e.Dialect.Table("pool")
	if err := e.Conn.Exec("DROP TABLE IF EXISTS " + t); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	create := "CREATE TABLE " + t + " (id BIGINT PRIMARY KEY NOT NULL, name VARCHAR(32) NOT NULL)"
	if err := e.Conn.Exec(create); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	for first := int64(0); first < poolRows; first += 100 {
		var b strings.Builder
		b.WriteString("INSERT INTO " + t + " (id, name) VALUES ")
		for id := first; id < first+100; id++ {
			if id > first {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(%d, '%s')", id, poolName(id))
		}
		if err := e.Conn.Exec(b.String()); err != nil {
			return fmt.Errorf("fill: %w", err)
		}
	}
	return nil
}

// poolRun returns a run of n clients sharing the cell's pool. Operation i
// reads the row of a pseudo-random id drawn from i, so that every client
// reads all over the table. Start reads the pool's wait counters (untimed
// work: a lock and a copy), Metrics reports their growth per query since.
func poolRun(e bench.Env, n int) (bench.Run, error) {
	pw, ok := e.Conn.(bench.PoolWaiter)
	if !ok {
		return bench.Run{}, fmt.Errorf("the target's pool does not report its waits for a connection (%T)", e.Conn)
	}
	q := poolQuery(e.Dialect)
	names := make([]string, poolRows)
	for id := range names {
		names[id] = poolName(int64(id))
	}
	var done atomic.Int64
	var count0 int64
	var wait0 int64
	ops := make([]func(int) error, n)
	for k := range ops {
		c := &poolCheck{names: names}
		ops[k] = func(i int) error {
			c.want = poolID(i)
			if err := e.Conn.QueryRow(q, c.row, c.want); err != nil {
				return err
			}
			done.Add(1)
			return nil
		}
	}
	start := func() error {
		cnt, d := pw.PoolWaits()
		count0, wait0 = cnt, int64(d)
		done.Store(0)
		return nil
	}
	metrics := func() []bench.Metric {
		cnt, d := pw.PoolWaits()
		ops := float64(max(1, done.Load()))
		return []bench.Metric{
			{Value: float64(cnt-count0) / ops, Unit: "pool-waits/op"},
			{Value: float64(int64(d)-wait0) / ops, Unit: "pool-wait-ns/op"},
		}
	}
	return bench.Run{Parallel: ops, Start: start, Metrics: metrics}, nil
}

// poolID is the id operation i reads: i scattered over the table by a
// multiplier prime to its size.
func poolID(i int) int64 { return int64(i) * 7919 % poolRows }

// poolCheck checks one row of the point query: its id and name.
type poolCheck struct {
	want, got int64
	name      string
	names     []string // every row's name, by id
	dest      []any
}

func (c *poolCheck) row(r bench.Row) error {
	if c.dest == nil {
		c.dest = []any{&c.got, &c.name}
	}
	c.got, c.name = -1, ""
	if err := r.Scan(c.dest...); err != nil {
		return err
	}
	if c.got != c.want || c.name != c.names[c.want] {
		return fmt.Errorf("wrong row (%d, %q), want (%d, %q)", c.got, c.name, c.want, c.names[c.want])
	}
	return nil
}
