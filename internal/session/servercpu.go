package session

import (
	"fmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/dsn"
	"github.com/sqlbench/sqlbench/internal/procs"
)

// givenServerPID returns the main process of the server a DSN names when
// it runs on this machine and this user may read it (found by the socket
// it listens on), else 0: its CPU then goes unmeasured.
func givenServerPID(db bench.DB, e bench.Endpoint) int {
	if dsn.CheckLocal(db, e, false) != nil {
		return 0
	}
	pid, err := procs.Listener(e.Net, e.Addr)
	if err != nil {
		return 0
	}
	return pid
}

// serverCPULines are the configuration lines that say whose CPU the
// server-cpu-ns/op unit of db's cells counts, or why there is none, and
// the server's process id (a session fact: benchfile.IsSessionFact).
func serverCPULines(db bench.DB, pid int, how string) [][2]string {
	if pid == 0 {
		return [][2]string{
			{string(db) + "-server-cpu", "not measured: the server is not a process of this user on this machine"}}
	}
	return [][2]string{
		{string(db) + "-server-cpu",
			fmt.Sprintf("the server's process (%s-server-pid) and its descendants (%s)", db, how)},
		{string(db) + "-server-pid", fmt.Sprint(pid)},
	}
}
