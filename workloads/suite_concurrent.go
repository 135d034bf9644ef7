package workloads

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/sqlbench/sqlbench/bench"
)

// The concurrent test: 1,000,000 users read whole by N = 2, 4, 8 clients
// at once, each through a connection of its own opened in the timed round,
// one after another, as the published test does.
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
				return strconv.Itoa(conns) + " clients at once, each through a connection of its own opened in turn " +
					"(timed, as published: the next opens as the previous starts reading), run `" + suiteUsersQuery(d) +
					"` reading all 1,000,000 users (times --scale) into a slice of structs of its own and checking " +
					"each row (count, id order, year 2023, email prefix, flag) through the published MustBeEqual in " +
					"the round; one operation is one round; every value checked after the round, clock paused" +
					suiteWholeReadNote
			},
			Setup: suiteSetup(func(e bench.Env) error {
				return suiteFillUsers(e, e.Scaled(suiteConcurrentUsers), concurrentUsers())
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
	q, want, shape := suiteUsersQuery(e.Dialect), int64(e.Scaled(suiteConcurrentUsers)), concurrentUsers()
	scans := make([]*userCollect, conns)
	for k := range scans {
		scans[k] = newUserCollect()
	}
	errs := make([]error, conns)
	t, clients := &bench.Timer{}, bench.NewClients(conns)
	return bench.Run{
		Timer: t, Clients: clients,
		Op: func(int) error {
			// As published, the connections are opened one after another
			// inside the timed round (the program opens each in its main
			// goroutine, then starts the goroutine that reads through it):
			// client k opens once client k-1's open has returned, then
			// reads while the later ones open.
			opened := make([]chan struct{}, conns)
			for k := range opened {
				opened[k] = make(chan struct{})
			}
			clients.Go(func(k int) {
				if k > 0 {
					<-opened[k-1]
				}
				// Each connection has the session settings applied, and
				// is closed at the end of its client's read.
				c, err := e.Open(e.Ctx, 0)
				close(opened[k])
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
					if err := verifyUserRecs(got, want, shape); err != nil {
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
// client's rows inside its timed round, call for call: the count, then per
// row the id's place, the created time's year (2023), the email's first
// four bytes ("user") and the active flag (true), each through the
// program's MustBeEqual (suiteMustEqual), which boxes both values.
func checkUsersInRound(rows []userRec, want int64) error {
	if err := suiteMustEqual(len(rows), int(want)); err != nil {
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
		err := suiteMustEqual(i+1, int(u.id))
		if err == nil {
			err = suiteMustEqual(2023, u.created.Year())
		}
		if err == nil && len(u.email) < 4 {
			err = fmt.Errorf("email %q shorter than 4 bytes", u.email)
		}
		if err == nil {
			err = suiteMustEqual("user", u.email[0:4])
		}
		if err == nil {
			err = suiteMustEqual(true, u.active)
		}
		if err != nil {
			return fmt.Errorf("wrong user at row %d: %w", i+1, err)
		}
	}
	return nil
}
