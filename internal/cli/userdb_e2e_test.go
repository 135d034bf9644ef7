package cli

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/sqlbench/sqlbench/internal/servers"
)

// The tests of a user's own database (a server given by DSN): sqlbench
// leaves it exactly as found, whatever happens to the session.

// userDB starts a throwaway server of kind under tmp to stand for a user's
// own, with the statements run on it first, and returns it with a
// connection to its database; both go when the test ends.
func userDB(t *testing.T, kind servers.Kind, tmp string, setup ...string) (*servers.Server, *sql.DB) {
	t.Helper()
	needServers(t, kind)
	srv, err := servers.Start(context.Background(),
		servers.Options{Kind: kind, Profile: servers.ProfileFast, Parent: tmp})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	driver := map[servers.Kind]string{servers.KindMariaDB: "mysql", servers.KindPostgres: "pgx"}[kind]
	db, err := sql.Open(driver, srv.DSN("tcp"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range setup {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return srv, db
}

// tablesOf lists the tables of db's database (its current schema), sorted.
func tablesOf(t *testing.T, db *sql.DB, kind servers.Kind) []string {
	t.Helper()
	q := "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
	if kind == servers.KindMariaDB {
		q = "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name"
	}
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	return names
}

// cancelAtFirstResult cancels ctx once the results file out holds a
// result, as a Ctrl-C after the first run does (within two minutes).
func cancelAtFirstResult(cancel context.CancelFunc, out string) {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(out); bytes.Contains(b, []byte("\nBenchmark")) {
			cancel()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestInterruptOnAGivenServerLeavesNoTable interrupts a run on a user's
// PostgreSQL after its first result, with cells open and runs in flight,
// and checks the database afterwards: the user's tables (one of them
// named as sqlbench once named a cell's) as they were, none of the
// session's own left.
func TestInterruptOnAGivenServerLeavesNoTable(t *testing.T) {
	env, stdout, stderr, cache, tmp := realEnv(t)
	srv, db := userDB(t, servers.KindPostgres, tmp, "CREATE TABLE sqlbench_c0_test (number INT PRIMARY KEY)",
		"INSERT INTO sqlbench_c0_test VALUES (7)")
	out := filepath.Join(t.TempDir(), "out.txt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go cancelAtFirstResult(cancel, out)
	code := Main(ctx,
		[]string{"run", "--db", "postgres", "--dsn", "postgres=" + srv.DSN("tcp"), "--targets", "pq,pgx-native",
			"--workloads", "classic,SingleInsert", "--scale", "0.2", "--count", "3", "--slices", "1", "-o", out,
			"--cache",
			cache}, env)
	if code != ExitInterrupted {
		t.Fatalf("exit %d, want 130\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if names := tablesOf(t, db, servers.KindPostgres); len(names) != 1 || names[0] != "sqlbench_c0_test" {
		t.Errorf("tables after the interrupted run: %v; want only the user's sqlbench_c0_test", names)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM sqlbench_c0_test WHERE number = 7").Scan(&n); err != nil || n != 1 {
		t.Errorf("the user's table: %d rows, %v; want it untouched", n, err)
	}
	if strings.Contains(stdout.String()+stderr.String(), srv.Password) {
		t.Error("the password was printed")
	}
}

// TestCleanDropsOnlyItsSessionsTables: what a killed session left (here
// made by hand under its id) is dropped by sqlbench clean, named on
// stdout; the user's tables, another session's and sqlbench's old-style
// names are not.
func TestCleanDropsOnlyItsSessionsTables(t *testing.T) {
	env, stdout, stderr, _, tmp := realEnv(t)
	var setup []string
	for _, name := range []string{"sqlbench_c0_test", "sqlbench_abc123c0_test", "sqlbench_abc123c1f_bulk",
		"sqlbench_zzz999c0_test", "users"} {
		setup = append(setup, "CREATE TABLE "+name+" (id INT PRIMARY KEY)")
	}
	srv, db := userDB(t, servers.KindMariaDB, tmp, setup...)
	results := filepath.Join(t.TempDir(), "r.txt")
	if err := os.WriteFile(results, []byte("goos: linux\nsession-id: abc123\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code := Main(context.Background(), []string{"clean", "--db", "mariadb", "--dsn", srv.DSN("unix"), results}, env)
	if code != ExitOK || !strings.Contains(stdout.String(), "dropped 2 table(s) of session abc123: "+
		"sqlbench_abc123c0_test, sqlbench_abc123c1f_bulk") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if left := tablesOf(t, db, servers.KindMariaDB); strings.Join(left, " ") != "sqlbench_c0_test sqlbench_zzz999c0_"+
		"test users" {
		t.Errorf("tables left: %v", left)
	}
	if strings.Contains(stdout.String()+stderr.String(), srv.Password) {
		t.Error("the password was printed")
	}
}

// TestTwoSessionsOnOneDatabase runs two sessions at once on one user
// PostgreSQL database: neither drops the other's tables (each names its
// own after its session id), both finish every run, and the database ends
// as it began.
func TestTwoSessionsOnOneDatabase(t *testing.T) {
	f := newFaultRun(t, buildSqlbench(t, t.TempDir()))
	srv, db := userDB(t, servers.KindPostgres, f.tmp, "CREATE TABLE sqlbench_c0_test (number INT PRIMARY KEY)")
	var args [][]string
	for i := range 2 {
		args = append(args,
			[]string{"run", "--db", "postgres", "--dsn", "postgres=" + srv.DSN("tcp"), "--targets", "pq,pgx-native",
				"--workloads", "classic", "--quick", "-o", fmt.Sprintf("r%d.txt", i)})
	}
	for i, out := range f.together(t, args...) {
		got := cellCounts(t, filepath.Join(f.dir, fmt.Sprintf("r%d.txt", i)))
		for name, n := range got {
			if n != 5 {
				t.Errorf("session %d: %s has %d runs, want 5", i, name, n)
			}
		}
		if len(got) != 14 {
			t.Errorf("session %d: %d cells, want the classic suite's 7 PostgreSQL workloads on two targets", i,
				len(got))
		}
		if strings.Contains(out.String(), srv.Password) {
			t.Errorf("session %d printed the password", i)
		}
	}
	if names := tablesOf(t, db, servers.KindPostgres); len(names) != 1 || names[0] != "sqlbench_c0_test" {
		t.Errorf("tables after both sessions: %v; want the user's alone", names)
	}
}
