package cli

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
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

// TestInterruptOnAGivenServerLeavesNoTable interrupts a run on a user's
// PostgreSQL after its first result, with cells open and runs in flight,
// and checks the database afterwards: the user's tables (one of them
// named as sqlbench once named a cell's) as they were, none of the
// session's own left.
func TestInterruptOnAGivenServerLeavesNoTable(t *testing.T) {
	env, stdout, stderr, cache, tmp := realEnv(t)
	srv, err := servers.Start(context.Background(), servers.Options{Kind: servers.KindPostgres, Profile: servers.ProfileFast, Parent: tmp})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	db, err := sql.Open("pgx", srv.DSN("tcp"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"CREATE TABLE sqlbench_c0_test (number INT PRIMARY KEY)", "INSERT INTO sqlbench_c0_test VALUES (7)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "out.txt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		deadline := time.Now().Add(2 * time.Minute)
		for time.Now().Before(deadline) {
			if b, _ := os.ReadFile(out); bytes.Contains(b, []byte("\nBenchmark")) {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	code := Main(ctx, []string{"run", "--db", "postgres", "--dsn", "postgres=" + srv.DSN("tcp"), "--targets", "pq,pgx-native",
		"--workloads", "classic,SingleInsert", "--scale", "0.2", "--count", "3", "--slices", "1", "-o", out, "--cache", cache}, env)
	if code != ExitInterrupted {
		t.Fatalf("exit %d, want 130\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var names []string
	rows, err := db.Query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		names = append(names, n)
	}
	rows.Close()
	if len(names) != 1 || names[0] != "sqlbench_c0_test" {
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
	srv, err := servers.Start(context.Background(), servers.Options{Kind: servers.KindMariaDB, Profile: servers.ProfileFast, Parent: tmp})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	db, err := sql.Open("mysql", srv.DSN("tcp"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, name := range []string{"sqlbench_c0_test", "sqlbench_abc123c0_test", "sqlbench_abc123c1f_bulk", "sqlbench_zzz999c0_test", "users"} {
		if _, err := db.Exec("CREATE TABLE " + name + " (id INT PRIMARY KEY)"); err != nil {
			t.Fatal(err)
		}
	}
	results := filepath.Join(t.TempDir(), "r.txt")
	if err := os.WriteFile(results, []byte("goos: linux\nsession-id: abc123\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code := Main(context.Background(), []string{"clean", "--db", "mariadb", "--dsn", srv.DSN("unix"), results}, env)
	if code != ExitOK || !strings.Contains(stdout.String(), "dropped 2 table(s) of session abc123: sqlbench_abc123c0_test, sqlbench_abc123c1f_bulk") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var left []string
	rows, err := db.Query("SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		left = append(left, n)
	}
	rows.Close()
	if strings.Join(left, " ") != "sqlbench_c0_test sqlbench_zzz999c0_test users" {
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
	srv, err := servers.Start(context.Background(), servers.Options{Kind: servers.KindPostgres, Profile: servers.ProfileFast, Parent: f.tmp})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	db, err := sql.Open("pgx", srv.DSN("tcp"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE sqlbench_c0_test (number INT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for i := range 2 {
		cmd := f.command("run", "--db", "postgres", "--dsn", "postgres="+srv.DSN("tcp"), "--targets", "pq,pgx-native",
			"--workloads", "classic", "--quick", "-o", fmt.Sprintf("r%d.txt", i))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("session %d: %v\n%s", i, err, outs[i])
		}
		got := cellCounts(t, filepath.Join(f.dir, fmt.Sprintf("r%d.txt", i)))
		for name, n := range got {
			if n != 5 {
				t.Errorf("session %d: %s has %d runs, want 5", i, name, n)
			}
		}
		if len(got) != 14 {
			t.Errorf("session %d: %d cells, want the classic suite's 7 PostgreSQL workloads on two targets", i, len(got))
		}
		if strings.Contains(outs[i].String(), srv.Password) {
			t.Errorf("session %d printed the password", i)
		}
	}
	var names []string
	rows, err := db.Query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		names = append(names, n)
	}
	rows.Close()
	if len(names) != 1 || names[0] != "sqlbench_c0_test" {
		t.Errorf("tables after both sessions: %v; want the user's alone", names)
	}
}
