package workloads

import (
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/sqlbench/sqlbench/bench"
)

// The concurrent test: 1,000,000 users read whole by N = 2, 4, 8 clients
// at once, each opening a connection of its own in the timed round, as the
// published test does.
//
// One operation is one round: every client reads the whole table once and
// the round ends when the last one is done — the published test's measure.
// (A Parallel run hands operations out from a shared counter, which neither
// makes every client read once per round nor keeps all clients busy when a
// run has fewer operations than clients, as every run at --quick has.)
const suiteConcurrentUsers = 1_000_000

func suiteConcurrent() []bench.Workload {
	var ws []bench.Workload
	for _, conns := range []int{2, 4, 8} {
		ws = append(ws, bench.Workload{
			Name: "SuiteConcurrent", Keys: "conns=" + strconv.Itoa(conns), Ops: 2, Unit: "rounds", ScaledData: true,
			Describe: func(d bench.Dialect) string {
				return strconv.Itoa(conns) + " clients at once each open a connection of their own (timed, as published), run `" + suiteUsersQuery(d) +
					"` reading all 1,000,000 users (times --scale) into a slice of structs of its own; one operation is one round; every row checked after the round, clock paused"
			},
			Setup: suiteSetup(func(e bench.Env) error {
				return suiteFillUsers(e, e.Scaled(suiteConcurrentUsers), suiteEmailCol, suiteEmailWidth)
			}),
			Teardown: suiteDrop,
			Begin: func(e bench.Env) (bench.Run, error) {
				return suiteConcurrentRun(e, conns)
			},
		})
	}
	return ws
}

func suiteConcurrentRun(e bench.Env, conns int) (bench.Run, error) {
	q, want := suiteUsersQuery(e.Dialect), int64(e.Scaled(suiteConcurrentUsers))
	scans := make([]*userCollect, conns)
	for k := range scans {
		scans[k] = newUserCollect()
	}
	errs := make([]error, conns)
	t := &bench.Timer{}
	return bench.Run{
		Timer: t,
		Op: func(int) error {
			var wg sync.WaitGroup
			for k, s := range scans {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// As published, each client opens its connection (the
					// session settings applied) inside the timed round and
					// closes it at the end.
					c, err := e.Open(e.Ctx, 0)
					if err != nil {
						errs[k] = fmt.Errorf("client %d: open: %w", k, err)
						return
					}
					err = errors.Join(c.Query(q, s.row), c.Close())
					if err != nil {
						errs[k] = fmt.Errorf("client %d: %w", k, err)
					}
				}()
			}
			wg.Wait()
			t.Stop()
			defer t.Start()
			for k, s := range scans {
				if got := s.take(); errs[k] == nil {
					if err := verifyUserRecs(got, want, suiteEmailCol, suiteEmailWidth); err != nil {
						errs[k] = fmt.Errorf("client %d: %w", k, err)
					}
				}
			}
			err := errors.Join(errs...)
			clear(errs)
			return err
		},
	}, nil
}
