package cli

import (
	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/dsn"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// useServers records this process as a user of the servers `sqlbench
// server start` started (in stateDir) that the session's DSNs point at, so
// that server stop refuses to stop them while it runs (servers.Use); the
// DSNs are the given ones and, for the databases in dbs, those of the
// environment. It returns the function that removes the records. What
// cannot be recorded is no reason not to run: it only leaves the server
// unguarded.
func useServers(stateDir string, dsns map[bench.DB]string, dbs []bench.DB, env Env) func() {
	var eps []bench.Endpoint
	add := func(db bench.DB, d string) {
		if e, err := dsn.Parse(db, d); err == nil {
			eps = append(eps, e)
		}
	}
	for db, d := range dsns {
		add(db, d)
	}
	for _, db := range dbs {
		if v := env.Getenv(dsn.EnvVar(db)); v != "" && dsns[db] == "" && db.Server() {
			add(db, v)
		}
	}
	if len(eps) == 0 {
		return func() {}
	}
	release, _ := servers.Use(stateDir, eps)
	return release
}
