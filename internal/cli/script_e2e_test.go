package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// The script workloads (sqlbench run --script), end to end: the shipped
// examples run for real on SQLite and on throwaway MariaDB and PostgreSQL
// servers given as a user's DSN.

// example is the path of a shipped example script (the tests run in
// internal/cli).
func example(name string) string {
	p, err := filepath.Abs(filepath.Join("..", "..", "examples", "scripts", name))
	if err != nil {
		panic(err)
	}
	return p
}

// tpcbArgs and webArgs run the two shipped examples.
var (
	tpcbArgs = []string{"--script", example("tpcb.sql"), "--setup", example("tpcb-setup.sql")}
	webArgs  = []string{"--script", example("web-read.sql") + "@8", "--script", example("web-list.sql") + "@1",
		"--script", example("web-comment.sql") + "@1", "--setup", example("web-setup.sql")}
)

// writeScript writes a script file name holding text into dir and
// returns its path.
func writeScript(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkScriptResults checks a script session's results file: count runs of
// the Script workload on every target named, each with the per-statement
// latencies of every statement, and the statements named in the header.
func checkScriptResults(t *testing.T, out string, count, stmts int, names ...string) {
	t.Helper()
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]int{}
	for _, r := range set.Results {
		runs[r.Name.String()]++
		for n := 1; n <= stmts; n++ {
			for _, p := range []string{"p50", "p99"} {
				// benchfmt reads ns/op units back as sec/op.
				if v, ok := r.Value("stmt" + strconv.Itoa(n) + "-" + p + "-sec/op"); !ok || !(v > 0) {
					t.Errorf("%s: no stmt%d %s latency (%v)", r.Name, n, p, v)
				}
			}
		}
		if r.GetConfig("script-stmt-"+strconv.Itoa(stmts)) == "" ||
			r.GetConfig("script-stmt-"+strconv.Itoa(stmts+1)) != "" {
			t.Errorf("the results do not name the %d statements: %q", stmts,
				r.GetConfig("script-stmt-"+strconv.Itoa(stmts)))
		}
	}
	for _, name := range names {
		if runs[name] != count {
			t.Errorf("%s: %d runs, want %d (have %v)", name, runs[name], count, runs)
		}
	}
	md, err := os.ReadFile(strings.TrimSuffix(out, ".txt") + ".md")
	if err != nil || !strings.Contains(string(md), "per-statement latency, p50 / p99") {
		t.Errorf("the Markdown report has no per-statement table (%v)", err)
	}
}

func TestScriptExamplesOnSQLite(t *testing.T) {
	env, stdout, stderr, cache, tmp := realEnv(t)
	out := filepath.Join(t.TempDir(), "tpcb.txt")
	args := append([]string{"run", "--targets", "mattn,modernc,zombiezen", "--count", "2", "--scale", "0.01",
		"--clients", "2", "-o", out, "--cache", cache}, tpcbArgs...)
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	checkScriptResults(t, out, 2, 7, "Script/db=sqlite/driver=mattn/api=sql",
		"Script/db=sqlite/driver=modernc/api=sql", "Script/db=sqlite/driver=zombiezen/api=native")
	assertEmpty(t, tmp)

	// The web mix, three scripts by weight, prepared once per connection.
	stdout.Reset()
	out = filepath.Join(t.TempDir(), "web.txt")
	args = append([]string{"run", "--targets", "mattn,zombiezen", "--count", "2", "--scale", "0.01",
		"--query-mode", "prepared", "-o", out, "--cache", cache}, webArgs...)
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	// web-read has 2 statements, web-list 1, web-comment 4; at weights
	// 8:1:1 over 100 executions every script is drawn.
	checkScriptResults(t, out, 2, 7, "Script/db=sqlite/driver=mattn/api=sql",
		"Script/db=sqlite/driver=zombiezen/api=native")
	if !strings.Contains(stdout.String(), "per-statement latency") {
		t.Errorf("no per-statement table printed:\n%s", stdout)
	}
}

// TestScriptExamplesOnServers runs both examples on a user's MariaDB and
// PostgreSQL, each holding tables of the names the scripts use: the
// scripts run in the cells' own databases and schemas, the user's tables
// are left as they were and nothing of the session's is left.
func TestScriptExamplesOnServers(t *testing.T) {
	for _, c := range []struct {
		kind    servers.Kind
		db      string
		targets string
		keys    []string
	}{
		{servers.KindMariaDB, "mariadb", "mysql,mymysql-native,go-mysql",
			[]string{"driver=go-sql-driver/api=sql", "driver=mymysql/api=native", "driver=go-mysql/api=native"}},
		{servers.KindPostgres, "postgres", "pq,pgx,pgx-native",
			[]string{"driver=pq/api=sql", "driver=pgx/api=sql", "driver=pgx/api=native"}},
	} {
		t.Run(c.db, func(t *testing.T) {
			env, stdout, stderr, cache, tmp := realEnv(t)
			srv, db := userDB(t, c.kind, tmp, "CREATE TABLE accounts (aid INT PRIMARY KEY, abalance INT)",
				"INSERT INTO accounts VALUES (1, 42)", "CREATE TABLE posts (id INT PRIMARY KEY)")
			for _, ex := range []struct {
				args  []string
				stmts int
				mode  string
			}{{tpcbArgs, 7, "extended"}, {webArgs, 7, "prepared"}} {
				stdout.Reset()
				out := filepath.Join(t.TempDir(), "out.txt")
				args := append(
					[]string{"run", "--db", c.db, "--dsn", c.db + "=" + srv.DSN("tcp"), "--targets", c.targets,
						"--count", "2", "--scale", "0.01", "--clients", "2", "--query-mode", ex.mode, "-o", out,
						"--cache",
						cache}, ex.args...)
				if code := Main(context.Background(), args, env); code != ExitOK {
					t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
				}
				var names []string
				for _, k := range c.keys {
					names = append(names, "Script/db="+c.db+"/"+k+"/net=tcp")
				}
				checkScriptResults(t, out, 2, ex.stmts, names...)
				if strings.Contains(stdout.String()+stderr.String(), srv.Password) {
					t.Error("the password was printed")
				}
			}
			if names := tablesOf(t, db, c.kind); strings.Join(names, " ") != "accounts posts" {
				t.Errorf("tables after the runs: %v; want the user's accounts and posts only", names)
			}
			var bal int
			if err := db.QueryRow("SELECT abalance FROM accounts WHERE aid = 1").Scan(&bal); err != nil || bal != 42 {
				t.Errorf("the user's accounts row: %d, %v; want 42", bal, err)
			}
			q := "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name LIKE 'sqlbench%'"
			var left int
			if err := db.QueryRow(q).Scan(&left); err != nil || left != 0 {
				t.Errorf("%d sqlbench schemas or databases left (%v)", left, err)
			}
		})
	}
}

// TestBadScripts: a script that does not parse, names an unknown variable
// or runs a statement that fails on every target, and the script flags out
// of range or without --script, are bad input: exit 2 with one line naming
// the problem (and the file and line), before anything is timed.
func TestBadScripts(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return writeScript(t, dir, name, text) }
	syntax := write("syntax.sql", "SELECT 1;\n\\set x random(1,\nSELECT :x;\n")
	unknown := write("unknown.sql", "\\set x 1\n\nSELECT :y;\n")
	failing := write("failing.sql", "SELECT 1;\nSELECT * FROM no_such_table;\n")
	good := write("good.sql", "SELECT 1;\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--script", syntax}, syntax + ":2: \\set x: expression ends too soon"},
		{[]string{"--script", unknown}, unknown + ":3: unknown variable :y"},
		{[]string{"--script", failing}, "the script failed on every sqlite target (mattn, modernc): " + failing +
			":2: no such table: no_such_table"},
		{[]string{"--script", good, "--setup", failing}, failing + ":2: no such table: no_such_table"},
		{[]string{"--script", filepath.Join(dir, "none.sql")}, "--script: " + filepath.Join(dir, "none.sql") +
			": no such file or directory"},
		{[]string{"--script", good + "@0"}, "weight \"0\" is not a positive integer"},
		{[]string{"--script", good, "--clients", "0"}, "--clients must be from 1 to 256, got 0"},
		{[]string{"--script", good, "--clients", "1000"}, "--clients must be from 1 to 256, got 1000"},
		{[]string{"--script", good, "--time", "-1s"}, "--time must be from 1ms to 24h0m0s, got -1s"},
		{[]string{"--script", good, "--query-mode", "fast"},
			`--query-mode must be simple, extended or prepared, got "fast"`},
		{[]string{"--clients", "4"}, "--clients needs --script"},
		{[]string{"--time", "30s"}, "--time needs --script"},
	} {
		env, stdout, stderr, cache, _ := realEnv(t)
		out := filepath.Join(t.TempDir(), "out.txt")
		args := append([]string{"run", "--targets", "mattn,modernc", "--count", "1", "-o", out, "--cache", cache},
			c.args...)
		code := Main(context.Background(), args, env)
		msg := strings.TrimSpace(stderr.String())
		lines := strings.Split(msg, "\n")
		last := lines[len(lines)-1]
		if code != ExitUsage || !strings.Contains(last, c.want) {
			t.Errorf("%v: exit %d, last line %q; want exit 2 and %q\nstdout:\n%s", c.args, code, last, c.want, stdout)
		}
		if strings.Contains(msg, "goroutine ") || strings.Contains(msg, "panic") {
			t.Errorf("%v: a stack trace:\n%s", c.args, msg)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: a results file was written", c.args)
		}
	}
}

// TestScriptVerificationMismatch: two SQLite targets that link different
// SQLite versions (mattn and modernc; mattn and the JDBC runner's xerial)
// return different values for sqlite_version(): the second target's cell
// fails on its digest, naming the statement, and the first runs.
func TestScriptVerificationMismatch(t *testing.T) {
	for _, c := range []struct{ target, driver, api string }{
		{"modernc", "modernc", "sql"}, {"jdbc-sqlite", "xerial", "jdbc"},
	} {
		t.Run(c.target, func(t *testing.T) {
			if c.api == "jdbc" {
				needJDK(t)
			}
			env, stdout, stderr, cache, _ := realEnv(t)
			dir := t.TempDir()
			p := writeScript(t, dir, "version.sql", "SELECT 1;\n-- the library's version\nSELECT sqlite_version();\n")
			out := filepath.Join(dir, "out.txt")
			code := Main(context.Background(),
				[]string{"run", "--targets", "mattn," + c.target, "--count", "1", "--script", p,
					"-o", out, "--cache", cache}, env)
			set, err := benchfile.ReadFile(out)
			if err != nil {
				t.Fatalf("exit %d, %v\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
			}
			if len(set.Results) > 0 {
				r := set.Results[0]
				if m, n := r.GetConfig("mattn-sqlite"), r.GetConfig(c.target+"-sqlite"); m == n {
					t.Skipf("mattn and %s link the same SQLite (%s): no difference to find", c.target, m)
				}
			}
			want := "Script/db=sqlite/driver=" + c.driver + "/api=" + c.api + ": verification: statement " + p +
				":3 returned other values than on mattn"
			if code != ExitPartial || !strings.Contains(stdout.String(), want) {
				t.Errorf("exit %d; want 1 and %q\nstdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
			}
			if len(set.Results) != 1 || !strings.Contains(set.Results[0].Name.String(), "driver=mattn") {
				t.Errorf("results: want mattn's one run only, have %d", len(set.Results))
			}
		})
	}
}

// TestScriptTime: --time bounds each run by time, not count, on a Go and
// a JDBC target: every run of two clients lasts the time asked (its
// operations times ns/op), give or take one execution and the machine's
// noise.
func TestScriptTime(t *testing.T) {
	for _, target := range []string{"modernc", "jdbc-sqlite"} {
		t.Run(target, func(t *testing.T) {
			if target == "jdbc-sqlite" {
				needJDK(t)
			}
			env, stdout, stderr, cache, _ := realEnv(t)
			dir := t.TempDir()
			p := writeScript(t, dir, "sleep.sql", "SELECT 1;\n\\sleep 2 ms\n")
			out := filepath.Join(dir, "out.txt")
			const d = 400 * time.Millisecond
			code := Main(context.Background(), []string{"run", "--targets", target, "--count", "3", "--script", p,
				"--time", d.String(), "--clients", "2", "-o", out, "--cache", cache}, env)
			if code != ExitOK {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			set, err := benchfile.ReadFile(out)
			if err != nil || len(set.Results) != 3 {
				t.Fatalf("%d results, %v", len(set.Results), err)
			}
			for _, r := range set.Results {
				sec, _ := r.Value("sec/op")
				run := time.Duration(sec * float64(r.Iters) * 1e9)
				// Two clients, each execution at least 2 ms: at most
				// 2*400/2 = 400 executions; the run ends within one
				// execution of the deadline (and the scheduler's delays on
				// a loaded machine).
				if run < d || run > d+300*time.Millisecond || r.Iters > 400 || r.Iters < 20 {
					t.Errorf("run of %d executions lasted %v, want %v and at most 400", r.Iters, run, d)
				}
				if r.GetConfig("script-time") != d.String()+" per run" || r.GetConfig("script-clients") != "2" {
					t.Errorf("script-time %q, script-clients %q", r.GetConfig("script-time"),
						r.GetConfig("script-clients"))
				}
			}
		})
	}
}

// TestInterruptedScriptLeavesNoSchema interrupts a script session on a
// user's PostgreSQL after its first result, with cells open: no schema of
// the session is left, and the user's table of a script's name is as it
// was.
func TestInterruptedScriptLeavesNoSchema(t *testing.T) {
	env, stdout, stderr, cache, tmp := realEnv(t)
	srv, db := userDB(t, servers.KindPostgres, tmp, "CREATE TABLE accounts (aid INT PRIMARY KEY, abalance INT)",
		"INSERT INTO accounts VALUES (1, 42)")
	out := filepath.Join(t.TempDir(), "out.txt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go cancelAtFirstResult(cancel, out)
	args := append(
		[]string{"run", "--db", "postgres", "--dsn", "postgres=" + srv.DSN("tcp"), "--targets", "pq,pgx-native",
			"--count", "3", "--scale", "0.05", "-o", out, "--cache", cache}, tpcbArgs...)
	if code := Main(ctx, args, env); code != ExitInterrupted {
		t.Fatalf("exit %d, want 130\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var left int
	if err := db.QueryRow("SELECT COUNT(*) FROM pg_namespace WHERE nspname LIKE 'sqlbench%'").Scan(&left); err != nil ||
		left != 0 {
		t.Errorf("%d sqlbench schemas left (%v)", left, err)
	}
	var bal int
	if err := db.QueryRow("SELECT abalance FROM accounts WHERE aid = 1").Scan(&bal); err != nil || bal != 42 {
		t.Errorf("the user's accounts row: %d, %v; want 42", bal, err)
	}
}
