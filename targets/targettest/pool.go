package targettest

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// PoolUnderLoad holds target's pool to the pool family's promises on a
// server: a run of PoolQuery/pool=4/clients=16 never has more than 4
// connections open on the server (counted there while it runs: PostgreSQL's
// pg_stat_activity, MariaDB's process list) and keeps at least 2 of them
// open after it; its 16 goroutines wait
// for a connection (pool-waits/op and pool-wait-ns/op above zero), while one
// goroutine on the same pool never waits; and a row changed on the server
// fails the run.
func PoolUnderLoad(t *testing.T, target string, where Where) {
	t.Helper()
	e := NewEnv(t, target, where)
	count := serverConns(t, e)
	const size, n = 4, 400
	pool, err := e.Open(context.Background(), size)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	pe := e
	pe.Conn, pe.Pool = pool, size
	load := workload(t, "PoolQuery/pool=4/clients=16")
	if err := load.Setup(pe); err != nil {
		t.Fatal(err)
	}
	defer load.Teardown(pe)
	seen := 0
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			seen = max(seen, count())
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	waits := func(w bench.Workload) map[string]float64 {
		t.Helper()
		pe.Warm, pe.N = 0, n
		r, err := w.Begin(pe)
		if err != nil {
			t.Fatal(err)
		}
		s, err := bench.Measure(r, 0, n, bench.NewLatencyHistogram())
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]float64{}
		for _, v := range s.Metrics {
			m[v.Unit] = v.Value
		}
		return m
	}
	loaded := waits(load)
	close(stop)
	wg.Wait()
	if seen > size {
		t.Errorf("%d connections open on the server during the run, want at most the pool's %d", seen, size)
	}
	// The pool opens a connection when a goroutine finds none free, in
	// the background: a short run may end before it has opened them all.
	if got := count(); got < 2 || got > size {
		t.Errorf("%d connections open after 16 goroutines ran on a pool of %d, want 2 to %d kept", got, size, size)
	}
	if loaded["pool-waits/op"] <= 0 || loaded["pool-wait-ns/op"] <= 0 {
		t.Errorf("16 goroutines on a pool of %d: waits %v, want some and their time", size, loaded)
	}
	one := workload(t, "PoolQuery/pool=4/clients=1")
	alone := waits(one)
	if alone["pool-waits/op"] != 0 || alone["pool-wait-ns/op"] != 0 {
		t.Errorf("1 goroutine on a pool of %d: waits %v, want none", size, alone)
	}
	// A wrong row fails the run: row 0 (operation 0's) renamed.
	if err := pool.Exec("UPDATE " + e.Dialect.Table("pool") + " SET name = 'wrong' WHERE id = 0"); err != nil {
		t.Fatal(err)
	}
	pe.Warm, pe.N = 0, 3
	r, err := one.Begin(pe)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bench.Measure(r, 0, 3, bench.NewLatencyHistogram()); err == nil ||
		!strings.Contains(err.Error(), "wrong row") {
		t.Errorf("a renamed row read back: %v, want a wrong row", err)
	}
}

// serverConns returns a count of the connections e's server has for the
// pool opened after the call, read through e's own connection and not
// counting it: on PostgreSQL the backends whose last statement named the
// family's table (every connection of the pool has run one); on MariaDB
// the connections in its process list that were not there at the call.
// Connections of other tests still closing are not counted.
func serverConns(t *testing.T, e bench.Env) func() int {
	if e.Dialect.DB == bench.MariaDB {
		ids := func() []int64 {
			var out []int64
			err := e.Conn.Query("SELECT ID FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID()",
				func(r bench.Row) error {
					var id int64
					err := r.Scan(&id)
					out = append(out, id)
					return err
				})
			if err != nil {
				t.Error(err)
			}
			return out
		}
		before := map[int64]bool{}
		for _, id := range ids() {
			before[id] = true
		}
		return func() int {
			n := 0
			for _, id := range ids() {
				if !before[id] {
					n++
				}
			}
			return n
		}
	}
	q := "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE '%" +
		e.Dialect.Table("pool") + "%'"
	return func() int {
		var n int64
		if err := e.Conn.QueryRow(q, func(r bench.Row) error { return r.Scan(&n) }); err != nil {
			t.Error(err)
		}
		return int(n)
	}
}

// workload returns the registered workload id.
func workload(t *testing.T, id string) bench.Workload {
	t.Helper()
	for _, w := range bench.Workloads() {
		if w.ID() == id {
			return w
		}
	}
	t.Fatalf("workload %s is not registered", id)
	return bench.Workload{}
}
