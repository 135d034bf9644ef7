package session

import (
	"fmt"
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
	if lines := serverCPULines(bench.MariaDB, pid, "found by its socket"); len(lines) != 2 ||
		lines[0][0] != "mariadb-server-cpu" ||
		!strings.Contains(lines[0][1], "found by its socket") ||
		lines[1] != [2]string{"mariadb-server-pid", fmt.Sprint(pid)} {
		t.Errorf("config lines %q", lines)
	}
	if pid := givenServerPID(bench.Postgres, bench.Endpoint{Net: "tcp", Addr: "192.0.2.1:5432"}); pid != 0 {
		t.Errorf("a remote server was given pid %d", pid)
	}
	if lines := serverCPULines(bench.Postgres, 0, ""); len(lines) != 1 ||
		!strings.HasPrefix(lines[0][1], "not measured") {
		t.Errorf("remote server's lines %q", lines)
	}
}
