package cli

import (
	"bytes"
	"context"
	"database/sql"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/testenv"
)

// needJDK skips a test on a machine without the JDBC runner's tools
// (testenv: a failure under SQLBENCH_SERVERS=1).
func needJDK(t *testing.T) {
	t.Helper()
	testenv.Programs(t, "java", "mvn")
}

// TestJDBCTargetsOnEveryDatabase runs every JDBC target against throwaway
// MariaDB and PostgreSQL servers and a SQLite file, interleaved with a Go
// target, and checks the result lines, both transports and the config lines.
func TestJDBCTargetsOnEveryDatabase(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	needJDK(t)
	env, stdout, stderr, cache, tmp := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--db", "sqlite,mariadb,postgres",
		"--targets", "jdbc-sqlite,jdbc-mysql,jdbc-mariadb,jdbc-postgres,mysql,mattn,pgx",
		"--workloads", "SimpleExec,AutoQueryRow,SimpleDo",
		"--quick", "--count", "2", "--slices", "2", "--profile", "fast", "--timing-thread", "locked", "-o", out,
		"--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, cfg := readRuns(t, out)
	want := map[string][]string{
		"db=sqlite/driver=xerial/api=jdbc":        {""},
		"db=mariadb/driver=connectorj/api=jdbc":   {"/net=tcp", "/net=unix"}, // junixsocket
		"db=mariadb/driver=mariadb-java/api=jdbc": {"/net=tcp", "/net=unix"}, // localSocket
		"db=postgres/driver=pgjdbc/api=jdbc":      {"/net=tcp", "/net=unix"}, // junixsocket
		"db=mariadb/driver=go-sql-driver/api=sql": {"/net=tcp", "/net=unix"},
		"db=sqlite/driver=mattn/api=sql":          {""},
		"db=postgres/driver=pgx/api=sql":          {"/net=tcp", "/net=unix"},
	}
	for key, nets := range want {
		for _, w := range []string{"SimpleExec", "AutoQueryRow", "SimpleDo"} {
			if w == "SimpleDo" && !strings.Contains(key, "mariadb") {
				continue
			}
			for _, n := range nets {
				if name := w + "/" + key + n; runs[name] != 2 {
					t.Errorf("%s: %d runs, want 2", name, runs[name])
				}
			}
		}
	}
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range set.Results {
		units := map[string]bool{}
		value := map[string]float64{}
		for _, v := range r.Values {
			units[v.OrigUnit] = true // the units the runner wrote (benchfmt renames ns/op to sec/op)
			units[v.Unit] = true
			if v.OrigUnit != "" {
				value[v.OrigUnit] = v.OrigValue
			} else {
				value[v.Unit] = v.Value
			}
		}
		// Where the time goes, on every line of both runners: the timing
		// thread's on-CPU, run-queue and blocked time adding up to ns/op
		// within 1%, none negative; the server's CPU on a server, never on
		// SQLite.
		sqlite := strings.Contains(r.Name.String(), "db=sqlite")
		sum := 0.0
		for _, u := range []string{"oncpu-ns/op", "runq-ns/op", "blocked-ns/op"} {
			if !units[u] || value[u] < 0 {
				t.Errorf("%s: %s %v (present %v): want present, not negative", r.Name, u, value[u], units[u])
			}
			sum += value[u]
		}
		if ns := value["ns/op"]; sum < 0.99*ns || sum > 1.01*ns {
			t.Errorf("%s: on CPU + run queue + blocked = %.0f, ns/op %.0f: want within 1%%", r.Name, sum, ns)
		}
		if !units["bg-cpu-ns/op"] || value["bg-cpu-ns/op"] < 0 || units["server-cpu-ns/op"] == sqlite {
			t.Errorf("%s: background CPU %v, server CPU %v; want the background CPU, the server's on a server only",
				r.Name, units["bg-cpu-ns/op"], units["server-cpu-ns/op"])
		}
		if !strings.Contains(r.Name.String(), "api=jdbc") {
			continue
		}
		checkJDBCSplit(t, r, sqlite)
		for _, u := range []string{"ns/op", "ops/s", "B/op", "p50-ns/op", "p99-ns/op", "p99.9-ns/op"} {
			if !units[u] {
				t.Errorf("%s has no %s", r.Name, u)
			}
		}
		if units["allocs/op"] {
			t.Errorf("%s reports allocs/op, which a JVM cannot count", r.Name)
		}
	}
	for _, key := range []string{"jdbc-sqlite-module", "jdbc-mysql-module", "jdbc-mariadb-module",
		"jdbc-postgres-module",
		"jdbc-sqlite-sqlite", "jdbc-jvm", "jdbc-jvm-flags", "jdbc-jit-warmup", "mariadb-version", "postgres-version",
		"mariadb-server-cpu", "postgres-server-cpu"} {
		if cfg.GetConfig(key) == "" {
			t.Errorf("results file has no %q config line", key)
		}
	}
	if got := cfg.GetConfig("jdbc-mysql-module"); !strings.HasPrefix(got, "com.mysql:mysql-connector-j ") {
		t.Errorf("jdbc-mysql-module = %q", got)
	}
	for _, col := range []string{"jdbc-mysql", "jdbc-mariadb", "jdbc-postgres", "jdbc-sqlite", "mysql"} {
		if !hasColumn(stdout.String(), col) {
			t.Errorf("the summary has no column %s:\n%s", col, stdout)
		}
	}
	assertEmpty(t, tmp)
	if b, _ := os.ReadFile(out); bytes.Contains(b, []byte("password")) {
		t.Error("the results file mentions a password")
	}
	// this test's runners only
	ps, _ := exec.Command("pgrep", "-f", filepath.Join(cache, "sqlbench-runner-jdbc")).Output()
	if len(bytes.TrimSpace(ps)) > 0 {
		t.Errorf("JDBC runners left running: %s", ps)
	}
}

// checkJDBCSplit checks where the time of a JDBC result went: on-CPU,
// run-queue and blocked, none negative, add up to ns/op within 1%; the
// JVM's background CPU is there, the server's on a server only, and none
// of the units they replace.
func checkJDBCSplit(t *testing.T, r *benchfmt.Result, sqlite bool) {
	t.Helper()
	v := map[string]float64{}
	for _, x := range r.Values {
		if x.OrigUnit == "" { // benchfmt leaves 0 ns in the unit it was written in
			v[x.Unit] = x.Value
			continue
		}
		v[x.OrigUnit] = x.OrigValue
	}
	sum := 0.0
	for _, u := range []string{"oncpu-ns/op", "runq-ns/op", "blocked-ns/op", "bg-cpu-ns/op"} {
		x, ok := v[u]
		if !ok || x < 0 {
			t.Errorf("%s: %s = %v (present %v)", r.Name, u, x, ok)
		}
		if u != "bg-cpu-ns/op" {
			sum += x
		}
	}
	if ns := v["ns/op"]; math.Abs(sum-ns) > 0.01*ns {
		t.Errorf("%s: on-CPU + run queue + blocked = %v, ns/op %v", r.Name, sum, ns)
	}
	if _, ok := v["server-cpu-ns/op"]; ok == sqlite {
		t.Errorf("%s: server CPU present %v on SQLite %v", r.Name, ok, sqlite)
	}
	for _, u := range []string{"client-cpu-ns/op", "wait-ns/op"} {
		if _, ok := v[u]; ok {
			t.Errorf("%s still has %s", r.Name, u)
		}
	}
}

// TestJDBCWrongDataFailsTheCell changes a row of a JDBC cell's table under
// the run: the cell fails with the wrong row named, its table is dropped,
// and no password is printed.
func TestJDBCWrongDataFailsTheCell(t *testing.T) {
	needServers(t, servers.KindMariaDB)
	needJDK(t)
	env, stdout, stderr, cache, tmp := realEnv(t)
	srv, err := servers.Start(context.Background(),
		servers.Options{Kind: servers.KindMariaDB, Profile: servers.ProfileFast, Parent: tmp})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	db, err := sql.Open("mysql", srv.DSN("tcp"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	go func() {
		// Spoil the JDBC cell's table as soon as it exists.
		deadline := time.Now().Add(3 * time.Minute)
		for time.Now().Before(deadline) {
			var name string
			err := db.QueryRow("SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND " +
				"table_name LIKE 'sqlbench%test' LIMIT 1").Scan(&name)
			if err == nil {
				if res, err := db.Exec("UPDATE " + name + " SET str='Oops' WHERE number=7"); err == nil {
					if n, _ := res.RowsAffected(); n == 1 {
						return
					}
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--db", "mariadb", "--targets", "jdbc-mariadb",
		"--dsn", "mariadb=" + srv.DSN("tcp"), "--workloads", "SimpleQueryRow", "--scale", "0.05", "--count", "3",
		"-o", out, "--cache", cache}, env)
	if code != ExitPartial {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	all := stdout.String() + stderr.String()
	if !strings.Contains(all, "SimpleQueryRow/db=mariadb/driver=mariadb-java/api=jdbc/net=tcp: jdbc-mariadb: run") ||
		!strings.Contains(all, `wrong row (7, "Oops") for number 7`) {
		t.Errorf("the failure does not name the cell and the wrong row:\n%s", all)
	}
	if strings.Contains(all, srv.Password) {
		t.Error("the password was printed")
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND " +
		"table_name LIKE 'sqlbench%'").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d sqlbench tables left behind (%v)", n, err)
	}
}

// TestJDBCInsertWorkloads runs the JDBC runner's insert paths on every
// database: single-row inserts from parallel clients (a statement prepared,
// executed and closed per row, as published, and one prepared per client),
// and the bulk paths each driver has (COPY, LOAD DATA, JDBC batches,
// Connector/J's rewritten batches), each verified by reading the table back.
func TestJDBCInsertWorkloads(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	needJDK(t)
	env, stdout, stderr, cache, tmp := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(), []string{"run", "--db", "sqlite,mariadb,postgres",
		"--targets", "jdbc-sqlite,jdbc-mysql,jdbc-mariadb,jdbc-postgres",
		"--workloads", "SingleInsert/data=random/conns=2/prepare=each,SingleInsert/data=fixed/conns=2/prepare=once," +
			"BulkInsert/shape=3x8/path=multirow/args=string,BulkInsert/shape=3x8/path=copy/args=string," +
			"BulkInsert/shape=3x8/path=load,BulkInsert/shape=3x8/path=batch,BulkInsert/shape=3x8/path=rewrite",
		"--scale", "0.001", "--count", "1", "--net", "tcp", "--profile", "fast", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, _ := readRuns(t, out)
	for _, name := range []string{
		"SingleInsert/db=sqlite/driver=xerial/api=jdbc/data=random/conns=2/prepare=each",
		"SingleInsert/db=mariadb/driver=connectorj/api=jdbc/net=tcp/data=random/conns=2/prepare=each",
		"SingleInsert/db=mariadb/driver=mariadb-java/api=jdbc/net=tcp/data=random/conns=2/prepare=each",
		"SingleInsert/db=postgres/driver=pgjdbc/api=jdbc/net=tcp/data=random/conns=2/prepare=each",
		"SingleInsert/db=sqlite/driver=xerial/api=jdbc/data=fixed/conns=2/prepare=once",
		"SingleInsert/db=mariadb/driver=connectorj/api=jdbc/net=tcp/data=fixed/conns=2/prepare=once",
		"SingleInsert/db=mariadb/driver=mariadb-java/api=jdbc/net=tcp/data=fixed/conns=2/prepare=once",
		"SingleInsert/db=postgres/driver=pgjdbc/api=jdbc/net=tcp/data=fixed/conns=2/prepare=once",
		"BulkInsert/db=sqlite/driver=xerial/api=jdbc/shape=3x8/path=batch",
		"BulkInsert/db=mariadb/driver=connectorj/api=jdbc/net=tcp/shape=3x8/path=load",
		"BulkInsert/db=mariadb/driver=connectorj/api=jdbc/net=tcp/shape=3x8/path=rewrite",
		"BulkInsert/db=mariadb/driver=mariadb-java/api=jdbc/net=tcp/shape=3x8/path=load",
		"BulkInsert/db=mariadb/driver=mariadb-java/api=jdbc/net=tcp/shape=3x8/path=batch",
		"BulkInsert/db=postgres/driver=pgjdbc/api=jdbc/net=tcp/shape=3x8/path=copy/args=string",
		"BulkInsert/db=postgres/driver=pgjdbc/api=jdbc/net=tcp/shape=3x8/path=multirow/args=string",
	} {
		if runs[name] != 1 {
			t.Errorf("%s: %d runs, want 1", name, runs[name])
		}
	}
	for name := range runs {
		if strings.Contains(name, "path=rewrite") && !strings.Contains(name, "connectorj") {
			t.Errorf("%s ran, but only Connector/J rewrites batches", name)
		}
	}
	// Where the time goes on two client threads (SingleInsert conns=2:
	// the mean client thread's parts) and on whole-stream paths.
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range set.Results {
		checkJDBCSplit(t, r, strings.Contains(r.Name.String(), "db=sqlite"))
	}
	assertEmpty(t, tmp)
}

// TestReproduceRunsTheSQLBenchmarkJDBCCellsCold: the SQL-Benchmark
// studies' Java program ran cold, so their reproduction starts the JDBC
// runner without its JIT warm-up and the results file says so, in the
// session's header and in the runner's own line.
func TestReproduceRunsTheSQLBenchmarkJDBCCellsCold(t *testing.T) {
	needServers(t, servers.KindMariaDB)
	needJDK(t)
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "study.txt")
	code := Main(context.Background(),
		[]string{"reproduce", "sqlbench-2013-osx", "--quick", "--count", "1", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, cfg := readRuns(t, out)
	if runs["SimpleQueryRow/db=mariadb/driver=connectorj/api=jdbc/net=tcp"] != 1 {
		t.Errorf("no jdbc-mysql SimpleQueryRow run: %v", runs)
	}
	if got := cfg.GetConfig("jit-warmup"); !strings.HasPrefix(got, "off: ") {
		t.Errorf("jit-warmup config %q, want off", got)
	}
	if got := cfg.GetConfig("jdbc-jit-warmup"); !strings.HasPrefix(got, "off: ") {
		t.Errorf("jdbc-jit-warmup config %q, want off", got)
	}
	if got := cfg.GetConfig("jdbc-jvm-flags"); !strings.Contains(got, "-Dsqlbench.jit.maxMillis=0") {
		t.Errorf("jdbc-jvm-flags %q", got)
	}
	// lines wrap at 100 columns
	if !strings.Contains(strings.Join(strings.Fields(stdout.String()), " "), "JDBC in a cold JVM") {
		t.Errorf("the conditions do not say the JVM runs cold:\n%s", stdout)
	}
}
