package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/dsn"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestRunStartsServersAndCleansUp runs the server targets on throwaway
// servers sqlbench starts itself, over TCP and the unix socket.
func TestRunStartsServersAndCleansUp(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	env, stdout, stderr, cache, tmp := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(),
		[]string{"run", "--db", "mariadb,postgres", "--workloads", "SimpleExec,AutoQueryRow",
			"--quick", "--count", "2", "--profile", "fast", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, cfg := readRuns(t, out)
	for _, key := range []string{
		"db=mariadb/driver=go-sql-driver/api=sql", "db=mariadb/driver=go-sql-driver-interp/api=sql",
		"db=mariadb/driver=mymysql/api=sql", "db=mariadb/driver=mymysql/api=native",
		"db=postgres/driver=pq/api=sql", "db=postgres/driver=pgx/api=sql", "db=postgres/driver=pgx/api=native",
	} {
		for _, w := range []string{"SimpleExec", "AutoQueryRow"} {
			for _, n := range []string{"tcp", "unix"} {
				if name := w + "/" + key + "/net=" + n; runs[name] != 2 {
					t.Errorf("%s: %d runs, want 2", name, runs[name])
				}
			}
		}
	}
	for key, want := range map[string]string{
		"mariadb-profile": "fast", "postgres-profile": "fast", "postgres-fsync": "off",
		"mariadb-innodb-flush-log-at-trx-commit": "0",
	} {
		if got := cfg.GetConfig(key); got != want {
			t.Errorf("config %s = %q, want %q", key, got, want)
		}
	}
	if cfg.GetConfig("mariadb-version") == "" || cfg.GetConfig("postgres-version") == "" {
		t.Error("server versions are not recorded")
	}
	assertEmpty(t, tmp) // data dirs, sockets and SQLite files are gone
	b, _ := os.ReadFile(out)
	if strings.Contains(string(b), "password") {
		t.Error("the results file mentions a password")
	}
}

// TestRunOnAGivenServerLeavesItsDataAlone points sqlbench at an existing
// server by DSN: nothing is started, the user's table is untouched, and
// sqlbench's own tables are dropped afterwards.
func TestRunOnAGivenServerLeavesItsDataAlone(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	env, stdout, stderr, cache, tmp := realEnv(t)
	// A table named as sqlbench once named its first cell's: no run may
	// touch it.
	srv, db := userDB(t, servers.KindMariaDB, tmp, "CREATE TABLE users_data (id INT PRIMARY KEY)",
		"INSERT INTO users_data VALUES (1), (2), (3)",
		"CREATE TABLE sqlbench_c0_test (number INT PRIMARY KEY)", "INSERT INTO sqlbench_c0_test VALUES (7)")
	out := filepath.Join(t.TempDir(), "out.txt")
	env.Getenv = func(k string) string {
		if k == "SQLBENCH_MYSQL_DSN" {
			return srv.DSN("unix")
		}
		return os.Getenv(k)
	}
	code := Main(context.Background(), []string{"run", "--db", "mariadb", "--targets", "mysql,mymysql-native",
		"--quick", "--count", "2", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if strings.Contains(stderr.String(), "starting a throwaway") {
		t.Error("a server was started although a DSN was given")
	}
	if !strings.Contains(stdout.String(), "SimpleQuery/net=unix") || strings.Contains(stdout.String(), "net=tcp") {
		t.Errorf("the run did not use just the DSN's transport:\n%s", stdout)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM users_data").Scan(&n); err != nil || n != 3 {
		t.Errorf("the user's table: %d rows, %v; want it untouched", n, err)
	}
	if err := db.QueryRow("SELECT COUNT(*) FROM sqlbench_c0_test WHERE number = 7").Scan(&n); err != nil || n != 1 {
		t.Errorf("the user's sqlbench_c0_test: %d rows, %v; want it untouched", n, err)
	}
	if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND " +
		"table_name LIKE 'sqlbench%' AND table_name <> 'sqlbench_c0_test'").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d sqlbench tables left behind (%v)", n, err)
	}
	for _, text := range []string{stdout.String(), stderr.String()} {
		if strings.Contains(text, srv.Password) {
			t.Error("the password was printed")
		}
	}
	if b, _ := os.ReadFile(out); bytes.Contains(b, []byte(srv.Password)) {
		t.Error("the password is in the results file")
	}
}

// TestServerKilledDuringARunCostsOnlyItsCells kills the server under a run:
// its cells fail with the target named and no password, the SQLite cells go
// on, and the exit status says something failed.
func TestServerKilledDuringARunCostsOnlyItsCells(t *testing.T) {
	needServers(t, servers.KindPostgres)
	env, stdout, stderr, cache, tmp := realEnv(t)
	srv, err := servers.Start(context.Background(),
		servers.Options{Kind: servers.KindPostgres, Profile: servers.ProfileFast, Parent: tmp})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	out := filepath.Join(t.TempDir(), "out.txt")
	go func() {
		deadline := time.Now().Add(2 * time.Minute)
		for time.Now().Before(deadline) {
			if b, _ := os.ReadFile(out); bytes.Count(b, []byte("\nBenchmark")) >= 2 {
				srv.Stop()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	code := Main(context.Background(), []string{"run", "--db", "sqlite,postgres", "--targets", "mattn,pgx-native",
		"--dsn", "postgres=" + srv.DSN("tcp"), "--workloads", "SimpleQueryRow", "--scale", "0.05", "--count", "4",
		"-o", out, "--cache", cache}, env)
	if code != ExitPartial {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	all := stdout.String() + stderr.String()
	if !strings.Contains(all, "SimpleQueryRow/db=postgres/driver=pgx/api=native/net=tcp: pgx-native: run") {
		t.Errorf("the failure does not name the cell and target:\n%s", all)
	}
	if strings.Contains(all, srv.Password) {
		t.Error("the password was printed")
	}
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	mattn := 0
	for _, r := range set.Results {
		if strings.Contains(r.Name.String(), "driver=mattn") {
			mattn++
		}
	}
	if mattn != 4 {
		t.Errorf("the SQLite cell has %d runs, want all 4 despite the dead server", mattn)
	}
}

// TestServerCommand starts a server that outlives the command, finds it in
// status, and stops it.
func TestServerCommand(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	env, stdout, stderr, _, _ := realEnv(t)
	state := t.TempDir()
	if code := Main(context.Background(),
		[]string{"server", "start", "postgres", "--profile", "fast", "--state", state}, env); code != ExitOK {
		t.Fatalf("server start: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout.String(), "tcp:  postgres://bench:") ||
		!strings.Contains(stdout.String(), "unix: host=") ||
		!strings.Contains(stdout.String(), `--dsn postgres="$(sqlbench server dsn postgres --state `+state+`)"`) {
		t.Errorf("server start does not print both DSNs and how to use them:\n%s", stdout)
	}
	all, err := servers.LoadStates(state)
	if err != nil || len(all) != 1 || !all[0].Alive() {
		t.Fatalf("state after start: %v, %v", all, err)
	}
	if strings.Contains(stdout.String(), all[0].Password) {
		t.Errorf("server start printed the password:\n%s", stdout)
	}
	// server dsn prints it, when asked, as a DSN the server takes.
	for _, net := range []string{"tcp", "unix"} {
		stdout.Reset()
		if code := Main(context.Background(), []string{"server", "dsn", "postgres", "--net", net, "--state", state},
			env); code != ExitOK {
			t.Fatalf("server dsn --net %s: exit %d\n%s", net, code, stderr)
		}
		if got := strings.TrimSpace(stdout.String()); got != all[0].DSN(net) {
			t.Errorf("server dsn --net %s printed %q, want %q", net, got, all[0].DSN(net))
		}
	}
	stdout.Reset()
	if code := Main(context.Background(),
		[]string{"run", "--db", "postgres", "--targets", "pgx", "--workloads", "SimpleExec", "--quick", "--count", "2",
			"--dsn", "postgres=" + all[0].DSN("tcp"), "-o", filepath.Join(t.TempDir(), "r.txt")}, env); code != ExitOK {
		t.Errorf("run on the server dsn's DSN: exit %d\n%s", code, stderr)
	}
	if strings.Contains(stdout.String()+stderr.String(), all[0].Password) {
		t.Error("the run printed the password")
	}
	stdout.Reset()
	if code := Main(context.Background(), []string{"server", "dsn", "mariadb", "--state", state},
		env); code != ExitPartial {
		t.Errorf("server dsn of a kind not started: exit %d, want %d", code, ExitPartial)
	}
	stdout.Reset()
	Main(context.Background(), []string{"server", "status", "--state", state}, env)
	if !strings.Contains(stdout.String(), "running") || !strings.Contains(stdout.String(),
		"  tcp: postgres://bench:xxxxx@") || strings.Contains(stdout.String(), all[0].Password) {
		t.Errorf("status:\n%s", stdout)
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		if utf8.RuneCountInString(line) > 100 {
			t.Errorf("status: a line wider than 100 columns: %q", line)
		}
	}
	stdout.Reset()
	if code := Main(context.Background(), []string{"server", "stop", "--all", "--state", state}, env); code != ExitOK ||
		!strings.Contains(stdout.String(), "stopped postgres") {
		t.Fatalf("server stop: exit %d\n%s%s", code, stdout, stderr)
	}
	if all[0].Alive() {
		t.Errorf("server pid %d still runs after stop", all[0].PID)
	}
	if left, _ := servers.LoadStates(state); len(left) != 0 {
		t.Errorf("state left after stop: %v", left)
	}
}

// TestServerStopSparesAServerASessionUses: a session running on a server
// sqlbench server start started (servers.Use, as a session on its DSN
// calls it)
// keeps it from server stop, by kind or --all, which names the session;
// --force stops it.
func TestServerStopSparesAServerASessionUses(t *testing.T) {
	needServers(t, servers.KindPostgres)
	env, stdout, stderr, _, _ := realEnv(t)
	state := t.TempDir()
	if code := Main(context.Background(),
		[]string{"server", "start", "postgres", "--profile", "fast", "--state", state}, env); code != ExitOK {
		t.Fatalf("server start: exit %d\n%s%s", code, stdout, stderr)
	}
	all, err := servers.LoadStates(state)
	if err != nil || len(all) != 1 {
		t.Fatalf("state after start: %v, %v", all, err)
	}
	defer func() {
		if all[0].Alive() {
			all[0].Stop()
		}
	}()
	e, err := dsn.Parse(bench.Postgres, all[0].DSN("unix"))
	if err != nil {
		t.Fatal(err)
	}
	release, err := servers.Use(state, []bench.Endpoint{e})
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	for _, args := range [][]string{{"postgres"}, {"--all"}} {
		stdout.Reset()
		stderr.Reset()
		code := Main(context.Background(), append([]string{"server", "stop", "--state", state}, args...), env)
		want := fmt.Sprintf("postgres on port %d is in use by a live sqlbench session (pid %d (", all[0].Port,
			os.Getpid())
		if code != ExitPartial || !strings.Contains(stderr.String(), want) ||
			!strings.Contains(stderr.String(), "--force") {
			t.Errorf("server stop %s while a session uses it: exit %d, %q; want exit 1 and %q", args[0], code,
				stderr.String(), want)
		}
		if !all[0].Alive() {
			t.Fatalf("server stop %s stopped the server a session uses", args[0])
		}
	}
	stdout.Reset()
	if code := Main(context.Background(), []string{"server", "stop", "postgres", "--force", "--state", state},
		env); code != ExitOK || !strings.Contains(stdout.String(), "stopped postgres") {
		t.Fatalf("server stop --force: exit %d\n%s%s", code, stdout, stderr)
	}
	if all[0].Alive() {
		t.Error("server stop --force left the server running")
	}
}
