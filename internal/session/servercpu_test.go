package session

import (
	"net"
	"os"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// TestGivenServerIsFoundByItsSocket: a DSN's server on this machine is
// found by the port it listens on (here, this test process), a remote one
// is not looked for, and the config line says which.
func TestGivenServerIsFoundByItsSocket(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	pid := givenServerPID(bench.MariaDB, bench.Endpoint{Net: "tcp", Addr: l.Addr().String()})
	if pid != os.Getpid() {
		t.Fatalf("found pid %d, want this process %d", pid, os.Getpid())
	}
	if line := serverCPULine(bench.MariaDB, pid, "found by its socket"); line[0] != "mariadb-server-cpu" || !strings.Contains(line[1], "found by its socket") {
		t.Errorf("config line %q", line)
	}
	if pid := givenServerPID(bench.Postgres, bench.Endpoint{Net: "tcp", Addr: "192.0.2.1:5432"}); pid != 0 {
		t.Errorf("a remote server was given pid %d", pid)
	}
	if line := serverCPULine(bench.Postgres, 0, ""); !strings.HasPrefix(line[1], "not measured") {
		t.Errorf("remote server's line %q", line)
	}
}
