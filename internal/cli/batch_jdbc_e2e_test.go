package cli

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestJDBCBatchRoundTrips runs each insert path of the batch family's Java
// twin (docs/batches.md), one session a cell, against a throwaway server of
// its own, and reads the server's counters around each session (the JDBC
// runner's JIT warm-up repeats a cell's first run untimed for a while, so
// the paths insert different numbers of rows: the cells check their rows
// themselves). Per row inserted (PostgreSQL's
// tup_inserted, MariaDB's Handler_write), a batched path takes under
// a fifth of the round trips of path=each on the same target (PostgreSQL's
// xact_commit: one per Sync in autocommit; MariaDB's Questions: one per
// statement text the server parsed), but for MySQL Connector/J's
// executeBatch without its rewrite option, which sends each statement on
// its own.
func TestJDBCBatchRoundTrips(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	needJDK(t)
	env, stdout, stderr, cache, tmp := realEnv(t)
	for _, c := range []struct {
		kind    servers.Kind
		db      string
		driver  string // for sql.Open
		targets []string
		trips   string // the round-trip counter's query (a name and a value)
		rows    string // the inserted-rows counter's query
	}{
		{servers.KindPostgres, "postgres", "pgx", []string{"jdbc-postgres"},
			"SELECT 'xact_commit', xact_commit FROM pg_stat_database WHERE datname = current_database()",
			"SELECT 'tup_inserted', tup_inserted FROM pg_stat_database WHERE datname = current_database()"},
		{servers.KindMariaDB, "mariadb", "mysql", []string{"jdbc-mysql", "jdbc-mariadb"},
			"SHOW GLOBAL STATUS WHERE Variable_name = 'Questions'",
			"SHOW GLOBAL STATUS WHERE Variable_name = 'Handler_write'"},
	} {
		srv, err := servers.Start(context.Background(), servers.Options{Kind: c.kind, Profile: servers.ProfileFast,
			Parent: tmp})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Stop() })
		db, err := sql.Open(c.driver, srv.DSN("tcp"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		// read returns both counters once they have stopped moving (the
		// session's backends report their statistics as they exit).
		read := func() (trips, rows int64) {
			t.Helper()
			prev := int64(-1)
			for try := 0; try < 20; try++ {
				var name string
				if err := db.QueryRow(c.trips).Scan(&name, &trips); err != nil {
					t.Fatalf("%s: %v", c.trips, err)
				}
				if err := db.QueryRow(c.rows).Scan(&name, &rows); err != nil {
					t.Fatalf("%s: %v", c.rows, err)
				}
				if trips+rows == prev {
					break
				}
				prev = trips + rows
				time.Sleep(300 * time.Millisecond)
			}
			return trips, rows
		}
		for _, target := range c.targets {
			type count struct{ trips, rows int64 }
			got := map[string]count{}
			for _, path := range []string{"each", "executebatch", "rewrite"} {
				if path == "rewrite" && target == "jdbc-mariadb" {
					continue // MariaDB Connector/J 3 has no rewrite option
				}
				stdout.Reset()
				stderr.Reset()
				t0, r0 := read()
				out := filepath.Join(t.TempDir(), "out.txt")
				code := Main(context.Background(), []string{"run", "--db", c.db, "--targets", target,
					"--dsn", c.db + "=" + srv.DSN("tcp"), "--workloads", "Batch/op=insert/path=" + path,
					"--scale", "0.1", "--count", "1", "--slices", "1", "-o", out, "--cache", cache}, env)
				if code != ExitOK {
					t.Fatalf("%s path=%s: exit %d\nstdout:\n%s\nstderr:\n%s", target, path, code, stdout, stderr)
				}
				t1, r1 := read()
				got[path] = count{t1 - t0, r1 - r0}
				t.Logf("%s path=%s: %d round trips, %d rows inserted", target, path, t1-t0, r1-r0)
			}
			perRow := func(n count) float64 { return float64(n.trips) / float64(max(n.rows, 1)) }
			each := perRow(got["each"])
			if got["each"].rows < 1000 || each < 0.9 {
				t.Errorf("%s path=each: %d rows, %.3f round trips a row: want at least 1000 rows, one trip each",
					target, got["each"].rows, each)
			}
			for path, n := range got {
				switch {
				case path == "each":
				case path == "executebatch" && target == "jdbc-mysql":
					if perRow(n)*2 < each {
						t.Errorf("%s path=%s: %.3f round trips a row, path=each %.3f: Connector/J batched "+
							"without its rewrite option", target, path, perRow(n), each)
					}
				case perRow(n)*5 >= each:
					t.Errorf("%s path=%s: %.3f round trips a row, path=each %.3f: want under a fifth", target, path,
						perRow(n), each)
				}
			}
		}
	}
}
