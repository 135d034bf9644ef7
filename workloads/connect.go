package workloads

import (
	"fmt"

	"github.com/sqlbench/sqlbench/bench"
)

// The connect family measures what a connection costs to make: the TCP (or
// socket) connect, the TLS handshake when the endpoint asks for one (run
// --tls), the login, the dialect's session settings, the first query and
// the close. It is what a program pays that opens a connection per request,
// and what a pool saves.
const (
	connectFamily = "connect"
	connectOps    = 2000 // connections per run at scale 1
)

func init() {
	bench.RegisterWorkload(bench.Workload{
		Name: "Connect", Family: connectFamily, Ops: connectOps, Unit: "connections",
		Only: []bench.DB{bench.MariaDB, bench.Postgres},
		Describe: func(bench.Dialect) string {
			return "a new connection of the cell's target per operation (the driver's own open, the session " +
				"settings, `SELECT 1` read and checked, then closed): connect, TLS handshake under --tls, login"
		},
		Setup:    func(bench.Env) error { return nil },
		Teardown: func(bench.Env) error { return nil },
		Begin: func(e bench.Env) (bench.Run, error) {
			if e.Open == nil {
				return bench.Run{}, fmt.Errorf("connect: the target cannot open another connection")
			}
			return bench.Run{Op: func(int) error { return connectOnce(e) }}, nil
		},
	})
}

// connectOnce opens a connection, reads SELECT 1 from it and closes it.
func connectOnce(e bench.Env) error {
	c, err := e.Open(e.Ctx, 1)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	var got int64
	err = c.QueryRow("SELECT 1", func(r bench.Row) error { return r.Scan(&got) })
	if cerr := c.Close(); err == nil {
		err = cerr
	}
	if err == nil && got != 1 {
		err = fmt.Errorf("connect: SELECT 1 returned %d", got)
	}
	return err
}
