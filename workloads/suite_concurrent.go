package workloads

import (
	"errors"
	"fmt"
	"strconv"
	"time"

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
					"` reading all 1,000,000 users (times --scale) into a slice of structs of its own and checking each row (count, id order, year, email, flag) in the round, as published; one operation is one round; every value checked after the round, clock paused"
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
	t, clients := &bench.Timer{}, bench.NewClients(conns)
	return bench.Run{
		Timer: t, Clients: clients,
		Op: func(int) error {
			clients.Go(func(k int) {
				// As published, each client opens its connection (the
				// session settings applied) inside the timed round and
				// closes it at the end.
				c, err := e.Open(e.Ctx, 0)
				if err != nil {
					errs[k] = fmt.Errorf("client %d: open: %w", k, err)
					return
				}
				err = errors.Join(scans[k].read(c, q), c.Close())
				if err == nil {
					// As published, each client checks its rows inside
					// the timed round: the same light checks per row.
					err = checkUsersInRound(scans[k].rows, want)
				}
				if err != nil {
					errs[k] = fmt.Errorf("client %d: %w", k, err)
				}
			})
			// Then every value, off the clock.
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

// checkUsersInRound is what the published concurrent test checks of each
// client's rows inside its timed round: the count, and per row the id's
// place, the created time's year, the email and the active flag, each a
// plain comparison (the published checks compare the year to 2023, the
// email's first four bytes to "user" and active to true; this table's
// emails and flags are generated per row, so the email's length and the
// flag's parity stand in for them at the same cost).
func checkUsersInRound(rows []userRec, want int64) error {
	year := time.UnixMilli(suiteEpoch + 1).Year()
	if int64(len(rows)) != want {
		// Off the published path (it stops at the count): name the first
		// row out of place, for the error.
		for i, u := range rows {
			if u.id != int64(i+1) {
				return fmt.Errorf("read %d users, want %d: row %d has id %d", len(rows), want, i+1, u.id)
			}
		}
		return fmt.Errorf("read %d users, want %d", len(rows), want)
	}
	for i, u := range rows {
		if u.id != int64(i+1) || u.created.Year() != year || len(u.email) != suiteEmailWidth || u.active != (u.id%2 == 1) {
			return fmt.Errorf("wrong user at row %d: id %d, created %v, email of %d bytes, active %v", i+1, u.id, u.created, len(u.email), u.active)
		}
	}
	return nil
}
