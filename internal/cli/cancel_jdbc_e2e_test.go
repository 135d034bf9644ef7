package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// jdbcCancelPath is what each JDBC driver's Statement.cancel() does to its
// connection, read from the server's session ids: whether the next query
// ran on another server session (newconn) and whether the run had to open
// another connection (reopen). The Go targets' are TestCancelPaths'
// (internal/servertest).
var jdbcCancelPath = map[string][2]float64{
	"connectorj":   {0, 0}, // KILL QUERY on another connection; the statement's own connection goes on
	"mariadb-java": {0, 0}, // KILL QUERY on another connection; the statement's own connection goes on
	"pgjdbc":       {0, 0}, // a CancelRequest on a side connection; the backend survives the cancel
}

// TestJDBCCancelPaths runs the cancel family's Java twin (a deadline by
// Statement.cancel() from the run's deadline thread) on every JDBC target
// of MariaDB and PostgreSQL, both transports, against throwaway servers,
// and checks each driver's path from the server's session ids, and that
// every line carries Go's units with a cancel time within the workload's
// bound and a positive recovery time.
func TestJDBCCancelPaths(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	needJDK(t)
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--db", "mariadb,postgres",
		"--targets", "jdbc-mysql,jdbc-mariadb,jdbc-postgres", "--workloads", "Cancel",
		"--scale", "0.1", "--count", "1", "--slices", "1", "--profile", "fast", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range set.Results {
		name := r.Name.String()
		driver := ""
		for d := range jdbcCancelPath {
			if strings.Contains(name, "/driver="+d+"/") {
				driver = d
			}
		}
		if driver == "" {
			t.Errorf("%s: no expected cancellation path", name)
			continue
		}
		seen[driver]++
		v := map[string]float64{}
		for _, x := range r.Values {
			if x.OrigUnit != "" { // benchfmt renames a ns unit to sec
				v[x.OrigUnit] = x.OrigValue
			} else {
				v[x.Unit] = x.Value
			}
		}
		if c := v["cancel-ns/cancel"]; c <= 0 || c > 1.5e9 {
			t.Errorf("%s: cancel-ns/cancel %v, want within (0, 1.5 s]", name, c)
		}
		if v["recover-ns/cancel"] <= 0 {
			t.Errorf("%s: recover-ns/cancel %v, want positive", name, v["recover-ns/cancel"])
		}
		want := jdbcCancelPath[driver]
		if v["newconn/cancel"] != want[0] || v["reopen/cancel"] != want[1] {
			t.Errorf("%s: newconn/cancel %v reopen/cancel %v, want %v %v", name, v["newconn/cancel"],
				v["reopen/cancel"], want[0], want[1])
		}
		t.Logf("%s: cancel %.2f ms, recover %.2f ms, newconn %v, reopen %v", name, v["cancel-ns/cancel"]/1e6,
			v["recover-ns/cancel"]/1e6, v["newconn/cancel"], v["reopen/cancel"])
	}
	for d := range jdbcCancelPath {
		if seen[d] != 2 {
			t.Errorf("%s: %d result lines, want 2 (tcp, unix)", d, seen[d])
		}
	}
}
