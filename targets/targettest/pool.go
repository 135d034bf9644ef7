package targettest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// PoolUnderLoad holds target's pool to the pool family's promises on a
// server: a run of PoolQuery/pool=4/clients=16 never has more than 4
// connections open on the server (counted there while it runs: PostgreSQL's
// pg_stat_activity, MariaDB's Threads_connected, against the count before
// the pool opened) and keeps the 4 open after it; its 16 goroutines wait
// for a connection (waits/op and wait-ns/op above zero), while one
// goroutine on the same pool never waits.
func PoolUnderLoad(t *testing.T, target string, where Where) {
	t.Helper()
	e := NewEnv(t, target, where)
	count := serverConns(t, e)
	base := count()
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
	seen := base
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
	if seen-base > size {
		t.Errorf("%d connections open on the server during the run, want at most the pool's %d", seen-base, size)
	}
	if got := count() - base; got != size {
		t.Errorf("%d connections open after 16 goroutines ran on a pool of %d, want %d kept", got, size, size)
	}
	if loaded["waits/op"] <= 0 || loaded["wait-ns/op"] <= 0 {
		t.Errorf("16 goroutines on a pool of %d: waits %v, want some and their time", size, loaded)
	}
	alone := waits(workload(t, "PoolQuery/pool=4/clients=1"))
	if alone["waits/op"] != 0 || alone["wait-ns/op"] != 0 {
		t.Errorf("1 goroutine on a pool of %d: waits %v, want none", size, alone)
	}
}

// serverConns returns a count of the client connections open on e's
// server, read through e's own connection (which it counts too).
func serverConns(t *testing.T, e bench.Env) func() int {
	q := "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'"
	if e.Dialect.DB == bench.MariaDB {
		q = "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'THREADS_CONNECTED'"
	}
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
