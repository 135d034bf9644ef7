package cli

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestConcurrentPreparesDoNotDependOnSlices: a PreparedQueryConcurrent run
// prepares its statement on each connection of its pool at most once,
// however many slices it is timed in, as the published program's one run
// does; the server's Com_stmt_prepare says so at --slices 1 and 5. Each
// slice once prepared it again, and database/sql again on every other
// connection at its first use there, inside the clock (80 prepares a run
// of 16 goroutines in 5 slices, against 16).
func TestConcurrentPreparesDoNotDependOnSlices(t *testing.T) {
	env, stdout, stderr, cache, tmp := realEnv(t)
	srv, db := userDB(t, servers.KindMariaDB, tmp)
	const conns = 4
	prepares := func(slices string) int64 {
		read := func() int64 {
			var name string
			var n int64
			if err := db.QueryRow("SHOW GLOBAL STATUS LIKE 'Com_stmt_prepare'").Scan(&name, &n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		stdout.Reset()
		stderr.Reset()
		before := read()
		out := filepath.Join(t.TempDir(), "out.txt")
		code := Main(context.Background(), []string{"run", "--db", "mariadb", "--targets", "mysql",
			"--workloads", "PreparedQueryConcurrent/conns=4", "--scale", "0.0004", "--count", "1", "--warmup", "0",
			"--slices", slices, "--dsn", "mariadb=" + srv.DSN("tcp"), "-o", out, "--cache", cache}, env)
		if code != ExitOK {
			t.Fatalf("--slices %s: exit %d\n%s\n%s", slices, code, stdout, stderr)
		}
		return read() - before
	}
	one, five := prepares("1"), prepares("5")
	t.Logf("a run of %d goroutines prepared its statement %d times in 1 slice, %d in 5", conns, one, five)
	if one < 1 || one > conns || five < 1 || five > conns {
		t.Errorf("a run of %d goroutines prepared its statement %d times in 1 slice, %d in 5: want 1 to %d (once a "+
			"connection) in both",
			conns, one, five, conns)
	}
}
