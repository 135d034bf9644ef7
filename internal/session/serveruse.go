package session

import (
	"cmp"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/dsn"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// useServers records this process as a user of the servers `sqlbench
// server start` started (in stateDir, "" for servers.DefaultStateDir) that
// the session's DSNs point at (the given ones and, for the databases in
// dbs, those of the environment: the plan's DSNs), so that server stop
// refuses to stop them while it runs (servers.Use). It returns the
// function that removes the records. What cannot be recorded is no reason
// not to run: it only leaves the server unguarded.
func useServers(stateDir string, dsns map[bench.DB]string) func() {
	var eps []bench.Endpoint
	for db, d := range dsns {
		if e, err := dsn.Parse(db, d); err == nil {
			eps = append(eps, e)
		}
	}
	if len(eps) == 0 {
		return func() {}
	}
	release, _ := servers.Use(cmp.Or(stateDir, servers.DefaultStateDir()), eps)
	return release
}
