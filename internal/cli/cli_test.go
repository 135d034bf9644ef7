package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/internal/golden"
)

// fakeEnv is a machine with go and gcc on PATH and nothing else.
func fakeEnv(stdout, stderr *bytes.Buffer) Env {
	return Env{
		Stdout: stdout, Stderr: stderr,
		Getenv: func(string) string { return "" },
		LookPath: func(name string) (string, error) {
			if name == "go" || name == "gcc" {
				return "/usr/bin/" + name, nil
			}
			return "", exec.ErrNotFound
		},
		Dir: "/nonexistent",
	}
}

func TestListGolden(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"list"}, fakeEnv(&out, &errb)); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	golden.Check(t, "list.golden", out.Bytes())
}

// TestListNarrows: list prints one kind of entry when named (targets,
// workloads), and with --db only those of that database, in text, JSON
// and Markdown.
func TestListNarrows(t *testing.T) {
	run := func(args ...string) string {
		var out, errb bytes.Buffer
		if code := Main(context.Background(), append([]string{"list"}, args...), fakeEnv(&out, &errb)); code != ExitOK {
			t.Fatalf("list %v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	all := run()
	for _, c := range []struct {
		args         []string
		want, absent []string
	}{
		{[]string{"targets"}, []string{"TARGET ", "jdbc-sqlite ", "pgx-native "},
			[]string{"WORKLOAD ", "SimpleQuery "}},
		{[]string{"target", "--db", "sqlite"}, []string{"TARGET ", "mattn ", "jdbc-sqlite "},
			[]string{"pgx", "mysql", "WORKLOAD "}},
		{[]string{"workloads"}, []string{"WORKLOAD ", "SimpleQuery ", "TCPSend"}, []string{"TARGET ", "mattn "}},
		{[]string{"workloads", "--db", "postgres"}, []string{"WORKLOAD ", "SimpleQuery ", "postgres: "},
			[]string{"TARGET ", "TCPSend", "sqlite: "}},
		{[]string{"--db", "loopback"}, []string{"TARGET ", "tcp ", "TCPSend"}, []string{"mattn ", "SimpleQuery "}},
		{[]string{"targets", "--json", "--db", "postgres"}, []string{`"name": "pgx-native"`},
			[]string{`"workloads"`, `"name": "mattn"`}},
		{[]string{"workloads", "--markdown", "--db", "sqlite"}, []string{"| `SimpleQuery` |"},
			[]string{"| target |", "TCPSend"}},
	} {
		got := run(c.args...)
		if len(got) >= len(all) && !slices.Contains(c.args, "--json") {
			t.Errorf("list %v is no shorter than list (%d bytes, %d)", c.args, len(got), len(all))
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("list %v lacks %q:\n%s", c.args, w, got)
			}
		}
		for _, a := range c.absent {
			if strings.Contains(got, a) {
				t.Errorf("list %v holds %q:\n%s", c.args, a, got)
			}
		}
	}
}

func TestListSaysWhyATargetIsUnavailable(t *testing.T) {
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.LookPath = func(name string) (string, error) {
		if name == "go" {
			return "/usr/bin/go", nil
		}
		return "", exec.ErrNotFound
	}
	Main(context.Background(), []string{"list"}, env)
	for _, want := range []string{
		"mattn: needs a C compiler for cgo (gcc not found; install gcc)",
		"crawshaw: needs a C compiler for cgo",
		"eatonphil: needs a C compiler for cgo",
		"sqinn: needs the sqinn program: set SQINN_PATH or put it on PATH",
		"jdbc-mysql: needs a JDK 17+ and Maven to build and run the JDBC runner (java and mvn not on PATH; install " +
			"default-jdk-headless maven)",
		"jdbc-sqlite: needs a JDK 17+ and Maven",
	} {
		if !strings.Contains(strings.Join(strings.Fields(out.String()), " "), want) { // lines wrap
			t.Errorf("list without gcc does not say %q:\n%s", want, out.String())
		}
	}
}

func TestBadInputIsOneLineAndExitStatus2(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"rn"}, `unknown command "rn" (did you mean "run"?)`},
		{[]string{"help", "compar"}, `unknown command "compar" (did you mean "compare"?)`},
		{[]string{"server", "strt"}, `server: unknown subcommand "strt" (did you mean "start"?)`},
		{[]string{"run", "--targets", "matn"}, `--targets: unknown target "matn" (did you mean "mattn"?)`},
		{[]string{"run", "--targets", "mattn,-zombiezn"},
			`--targets: unknown target "zombiezn" (did you mean "zombiezen"?)`},
		{[]string{"run", "--targets", "matn@v1.14.22"},
			`--targets: matn@v1.14.22: unknown target "matn" (did you mean "mattn"?)`},
		{[]string{"run", "--workloads", "SimpleQury"},
			`--workloads: unknown workload or family "SimpleQury" (did you mean "SimpleQuery"?)`},
		{[]string{"run", "--db", "sqlit"}, `--db: unknown database "sqlit" (did you mean "sqlite"?)`},
		{[]string{"run", "--targets", "mattn,nosuch"}, `--targets: unknown target "nosuch" (valid: bvinc, crawshaw, ` +
			`eatonphil, go-mysql, http, jdbc-mariadb, jdbc-mariadb-hikari, jdbc-mysql, jdbc-pg-hikari, ` +
			`jdbc-postgres, jdbc-sqlite, mattn, ` +
			`modernc, mymysql, mymysql-native, mysql, mysql-interp, mysqlproto, ncruces, ncruces-native, pgproto, ` +
			`pgx, pgx-native, pgxpool, pq, sqinn, tcp, zombiezen)`},
		{[]string{"run", "--workloads", "SimpleQuery,Nope"},
			`--workloads: unknown workload or family "Nope" (valid: all, analytics, `},
		{[]string{"run", "--db", "oracle"}, `--db: unknown database "oracle"`},
		{[]string{"run", "--count", "0"}, "--count must be from 1 to 1000, got 0"},
		{[]string{"run", "--scale", "-1"}, "--scale must be above 0"},
		{[]string{"run", "--bogus"}, "sqlbench run: unknown flag: --bogus"},
		{[]string{"run", "-count", "3"}, "sqlbench run: -count: long flags take two dashes: --count"},
		{[]string{"run", "--targets", "zz*,m*,-nosuch"},
			`--targets: no target of --db sqlite matches "zz*", "-nosuch" (valid: bvinc,`},
		{[]string{"run", "--targets", "pgx*"}, `--targets: no target of --db sqlite matches "pgx*"`},
		{[]string{"run", "--targets", "-*"}, "--targets: the exclusions leave no target of --db sqlite"},
		{[]string{"run", "--workloads", "Suite*,Nope*,-Simple"}, `--workloads: no workload or family matches ` +
			`"Nope*", "-Simple" (valid: all, analytics,`},
		{[]string{"run", "--workloads", "-all"}, "--workloads: the exclusions leave no workload"},
		{[]string{"run", "--workloads", "[", "--dry-run"}, `--workloads: no workload or family matches "["`},
		{[]string{"list", "stray"}, `list: unknown kind "stray" (valid: targets, workloads)`},
		{[]string{"list", "targts"}, `list: unknown kind "targts" (did you mean "targets"?)`},
		{[]string{"list", "targets", "workloads"},
			`sqlbench list: unexpected argument "workloads" (name at most one of targets, workloads)`},
		{[]string{"list", "--db", "sqlit"}, `list: --db: unknown database "sqlit" (did you mean "sqlite"?)`},
		{[]string{"server"}, "server: missing subcommand (start, stop, status, dsn)"},
		{[]string{"run", "stray"}, `unexpected argument "stray"`},
		{[]string{"run", "--db", "mariadb", "--dsn", "mariadb=bench:s3cretpw@tcp(127.0.0.1:1)/bench"},
			"cannot reach the mariadb server at 127.0.0.1:1: connect: connection refused"},
		{[]string{"run", "--db", "postgres", "--dsn", "postgres=postgres://u:s3cretpw@127.0.0.1:1/db?sslmode=disable"},
			"cannot reach the postgres server at 127.0.0.1:1"},
		{[]string{"run", "--db", "postgres", "--dsn", "postgres=postgres://u:s3cretpw@db.example.com:5432/db"},
			"is not on this machine"},
		{[]string{"run", "--db", "mariadb", "--dsn", "mariadb=u:s3cretpw@tcp(127.0.0.1:3306)/"}, "names no database"},
		{[]string{"run", "--db", "postgres", "--dsn", "postgres=postgres://u:s3cretpw@127.0.0.1:notaport/db"},
			"bad postgres DSN: invalid port"},
		{[]string{"run", "--dsn", "oracle=scott:tiger@x"}, `--dsn: "oracle" is not a server database`},
		{[]string{"run", "--db", "mariadb", "--dsn", "mariadb=bench:s3cretpw"},
			"bad mariadb DSN: invalid DSN: missing the slash"},
		{[]string{"run", "--db", "mariadb", "--dsn", "mariadb=bench:s3cretpw@tcp(127.0.0.1:3306"},
			"bad mariadb DSN: invalid DSN: missing the slash"},
		{[]string{"run", "--db", "mariadb", "--dsn", "mariadb=bench:s3cretpw@tcp(127.0.0.1:3306)bench"},
			"bad mariadb DSN: invalid DSN"},
		{[]string{"run", "--db", "mariadb", "--dsn", "mariadb=bench:s3cretpw@tcp(127.0.0.1:3306/bench"},
			"bad mariadb DSN: invalid DSN"},
		{[]string{"run", "--db", "postgres", "--dsn", "postgres=host=127.0.0.1 password='s3cretpw dbname=x"},
			"bad postgres DSN: failed to parse as keyword/value (unterminated quoted string"},
		{[]string{"run", "--db", "postgres", "--dsn", "postgres=postgres://u:s3cretpw%zz@127.0.0.1/db"},
			"bad postgres DSN: failed to parse as URL (invalid percent-encoded token in password)"},
		{[]string{"run", "--dsn", "s3cretpw"}, "--dsn: want DATABASE=DSN"},
		{[]string{"run", "--pin", "diagonal"}, `--pin: unknown placement "diagonal"`},
		{[]string{"run", "--net", "udp"}, `--net: unknown transport "udp"`},
		{[]string{"run", "--tls"}, `--tls: only for servers sqlbench starts`},
		{[]string{"run", "--tls", "--db", "postgres", "--net", "unix"}, `--tls: TLS is over tcp only`},
		{[]string{"run", "--sqlite-journal", "fast"}, `--sqlite-journal: unknown SQLite journal mode "fast" (valid: ` +
			`delete, truncate, persist, memory, wal, off)`},
		{[]string{"run", "--sqlite-sync", "always"}, `--sqlite-sync: unknown SQLite synchronous level "always" ` +
			`(valid: off, normal, full, extra, driver)`},
		{[]string{"run", "--workloads", "SimpleDo"},
			"nothing to run: none of the workloads runs on the selected databases"},
		{[]string{"run", "--workloads", "TCPSend/size=1024"},
			"nothing to run: none of the workloads runs on the selected databases"},
		{[]string{"run", "--db", "loopback", "--workloads", "classic"},
			"nothing to run: none of the workloads runs on the selected databases"},
		{[]string{"run", "--dsn", "loopback=x"}, `--dsn: "loopback" is not a server database`},
		{[]string{"report", "testdata/corrupt.txt"}, "corrupt results file: testdata/corrupt.txt:2:"},
		{[]string{"report", "testdata/missing.txt"}, "results file testdata/missing.txt: no such file or directory"},
		{[]string{"report"}, "name at least one results file"},
		{[]string{"report", "--format", "pdf", "testdata/results.txt"}, `--format: unknown format "pdf"`},
		{[]string{"report", "--bogus", "testdata/results.txt"}, "sqlbench report: unknown flag: --bogus"},
		{[]string{"report", "--format", "markdown", "-o", "/proc/version/x", "testdata/results.txt"},
			"report file /proc/version/x.md:"},
		{[]string{"compare", "testdata/old.txt"}, "compare: name two results files"},
		{[]string{"compare", "testdata/old.txt", "testdata/missing.txt"},
			"results file testdata/missing.txt: no such file or directory"},
		{[]string{"compare", "--fail-over", "lots", "testdata/old.txt", "testdata/new.txt"},
			`--fail-over: want a percentage`},
		{[]string{"compare", "--fail-over", "NaN%", "testdata/old.txt", "testdata/new.txt"},
			`--fail-over: want a percentage`},
		{[]string{"compare", "--fail-over", "Inf%", "testdata/old.txt", "testdata/new.txt"},
			`--fail-over: want a percentage`},
		{[]string{"compare", "--fail-over", "-5%", "testdata/old.txt", "testdata/new.txt"},
			`--fail-over: want a percentage`},
		{[]string{"compare", "--fail-over", "5%", "testdata/few-old.txt", "testdata/few-new.txt"},
			"--fail-over can never fire: 1 of 1 cells have too few runs for a Mann-Whitney U test at alpha 0.05 to " +
				"find any change significant (R/db=sqlite/driver=a/api=sql: 3 old, 3 new); it needs at least 4 runs " +
				"per side"},
		{[]string{"server", "stop", "oracle"}, `server stop: unknown server kind "oracle"`},
		{[]string{"server", "start", "oracle"}, `server start: unknown`},
		{[]string{"server", "dsn"}, "server dsn: name one server kind"},
		{[]string{"server", "dsn", "oracle"}, `server dsn: unknown server kind "oracle"`},
		{[]string{"server", "dsn", "postgres", "--net", "udp"}, "server dsn: --net: want tcp or unix"},
		{[]string{"server", "start", "tidb", "--profile", "fast"},
			`server start tidb: --profile: tidb runs on its own defaults`},
		{[]string{"server", "frob"}, `server: unknown subcommand "frob"`},
		{[]string{"run", "--db", "mariadb", "--profile", "turbo"}, `--profile: unknown server profile "turbo"`},
		{[]string{"run", "-o", "/proc/version/results.txt", "--quick"}, "results file /proc/version/results.txt:"},
		{[]string{"reproduce", "go-sqlite-bench", "-o", "-"}, "reproduce: -o -: reproduce writes its results to files"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), c.args, fakeEnv(&out, &errb))
		msg := errb.String()
		if code != ExitUsage || !strings.Contains(msg, c.want) || strings.Count(msg, "\n") != 1 {
			t.Errorf("sqlbench %s: exit %d, stderr %q; want exit 2 and one line containing %q",
				strings.Join(c.args, " "), code, msg, c.want)
		}
		if strings.Contains(msg, "s3cretpw") {
			t.Errorf("sqlbench %s printed the password: %q", strings.Join(c.args, " "), msg)
		}
		if strings.Contains(msg, "building runner") || strings.Contains(msg, "goroutine") ||
			strings.Contains(msg, "starting") {
			t.Errorf("sqlbench %s started work or crashed before rejecting its input: %q", strings.Join(c.args, " "),
				msg)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"run", "-h"}, fakeEnv(&out, &errb)); code != ExitOK ||
		!strings.Contains(out.String(), "-targets") {
		t.Errorf("run -h: exit %d, output %q", code, out.String())
	}
	out.Reset()
	if code := Main(context.Background(), []string{"version"}, fakeEnv(&out, &errb)); code != ExitOK ||
		!strings.HasPrefix(out.String(), "sqlbench ") {
		t.Errorf("version: exit %d, output %q", code, out.String())
	}
	if code := Main(context.Background(), nil, fakeEnv(&out, &errb)); code != ExitUsage {
		t.Errorf("no arguments: exit %d, want 2", code)
	}
}

func TestExitStatusOfInterruptedRun(t *testing.T) {
	var errb bytes.Buffer
	if code := exitStatus(context.Canceled, &errb); code != ExitInterrupted {
		t.Errorf("exit %d for an interrupted run, want 130", code)
	}
	if code := exitStatus(errors.Join(errPartial), &errb); code != ExitPartial {
		t.Errorf("exit %d for a partial run, want 1", code)
	}
}

func TestReportWritesEveryFormat(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir
	abs, err := filepath.Abs("testdata/results.txt")
	if err != nil {
		t.Fatal(err)
	}
	code := Main(context.Background(),
		[]string{"report", abs, "--format", "text,markdown,html,csv,json,png", "-o", "r"}, env)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, name := range []string{"r.md", "r.html", "r.csv", "r-config.csv", "r.json", "r-overhead-postgres.png",
		"r-simplequery-sqlite.png"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %v, %d bytes", name, err, len(b))
			continue
		}
		if bytes.Contains(b, []byte("hunter2secret")) {
			t.Errorf("%s holds the password", name)
		}
		if !strings.Contains(out.String(), "wrote "+filepath.Join(dir, name)) {
			t.Errorf("the path of %s is not printed:\n%s", name, out.String())
		}
	}
	if !strings.Contains(out.String(), "*8,858") {
		t.Errorf("the text table is not on stdout:\n%s", out.String())
	}
}

func TestCompareFailOver(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"compare", "base=testdata/old.txt", "head=testdata/new.txt"}, ExitOK},
		{[]string{"compare", "--fail-over", "5%", "testdata/old.txt", "testdata/new.txt"}, ExitPartial},
		{[]string{"compare", "--fail-over", "25%", "testdata/old.txt", "testdata/new.txt"}, ExitOK},
		{[]string{"compare", "--fail-over", "5%", "testdata/new.txt", "testdata/old.txt"}, ExitOK}, // an improvement
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), c.args, fakeEnv(&out, &errb))
		if code != c.code {
			t.Errorf("sqlbench %s: exit %d, want %d\n%s%s", strings.Join(c.args, " "), code, c.code, out.String(),
				errb.String())
		}
		if !strings.Contains(out.String(), "geomean") || !strings.Contains(out.String(), " ~ ") {
			t.Errorf("sqlbench %s: no geomean or ~ in\n%s", strings.Join(c.args, " "), out.String())
		}
	}
}

// TestReportBaseline: --baseline sets the ratio tables against the target
// it names; a name the catalogue lacks is one line and exit 2, for report
// and for run.
func TestReportBaseline(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"report", "--baseline", "pgx", "testdata/results.txt"},
		fakeEnv(&out, &errb)); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "classic · postgres · ops/s ÷ pgx's (baseline)") ||
		strings.Contains(s, "÷ pq's") {
		t.Errorf("--baseline pgx:\n%s", s)
	}
	out.Reset()
	// An alias names the target: modernc's driver/api keys.
	if code := Main(context.Background(), []string{"report", "--baseline", "modernc/sql", "testdata/results.txt"},
		fakeEnv(&out, &errb)); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "classic · sqlite · ops/s ÷ modernc's (baseline)") {
		t.Errorf("--baseline modernc/sql:\n%s", s)
	}
	for _, args := range [][]string{{"report", "--baseline", "nosuch", "testdata/results.txt"},
		{"run", "--baseline", "nosuch", "--dry-run"}} {
		out.Reset()
		errb.Reset()
		code := Main(context.Background(), args, fakeEnv(&out, &errb))
		if code != ExitUsage || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 ||
			!strings.Contains(errb.String(), `--baseline: no target "nosuch"`) {
			t.Errorf("%s: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
		}
	}
}

// TestBaselineGrammarIsOneForEveryCommand: run, report and compare take
// the same --baseline names, catalogue targets and their variants as the
// results name them (a release, a checkout's label, a spin), an alias
// named as its target; and refuse the same, as one line and exit 2.
func TestBaselineGrammarIsOneForEveryCommand(t *testing.T) {
	for _, tc := range []struct {
		name, want string // want "" means refused
	}{
		{"mattn", "mattn"},
		{"mattn@v1.14.22", "mattn@v1.14.22"},
		{"zombiezen@local-base", "zombiezen@local-base"},
		{"mattn+spin=50us", "mattn+spin=50us"},
		{"pgx@v5.5.5+spin=1ms", "pgx@v5.5.5+spin=1ms"},
		{"xerial@3.47.2.0", "jdbc-sqlite@3.47.2.0"},
		{"nosuch@v1.0.0", ""},
		{"nosuch+spin=1us", ""},
	} {
		got, err := baselineName(tc.name)
		if (err == nil) != (tc.want != "") || got != tc.want {
			t.Errorf("baselineName(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
		f := defineRun(&cobra.Command{Use: "run"}, fakeEnv(new(bytes.Buffer), new(bytes.Buffer)))
		err = f.c.Flags().Parse([]string{"--baseline", tc.name})
		if (err == nil) != (tc.want != "") || err == nil && f.cfg.Baseline != tc.want {
			t.Errorf("run --baseline %s: %q, %v; want %q", tc.name, f.cfg.Baseline, err, tc.want)
		}
		for _, args := range [][]string{
			{"run", "--baseline", tc.name, "--targets", "nosuch-target"},
			{"report", "--baseline", tc.name, "testdata/results.txt"},
		} {
			var out, errb bytes.Buffer
			code := Main(context.Background(), args, fakeEnv(&out, &errb))
			refused := code == ExitUsage && strings.Contains(errb.String(), "--baseline: no target")
			if refused != (tc.want == "") || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
				t.Errorf("%s: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
			}
		}
	}
}

// TestResolutionFlag: --resolution reaches report's JSON and Markdown
// (the resolution and each ratio's verdict), compare's table, and a bad
// value is one line and exit 2 on every command that takes it.
func TestResolutionFlag(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = dir
	abs, err := filepath.Abs("testdata/results.txt")
	if err != nil {
		t.Fatal(err)
	}
	if code := Main(context.Background(),
		[]string{"report", "--resolution", "40%", "--format", "json,markdown", "-o", "r", abs}, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	js, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resolution float64 `json:"resolution"`
		Cells      []struct {
			Ratio *struct {
				Verdict    string  `json:"verdict"`
				Resolution float64 `json:"resolution"`
			} `json:"ratio"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	ratios := 0
	for _, c := range doc.Cells {
		if c.Ratio != nil {
			ratios++
			if c.Ratio.Resolution != 0.4 || c.Ratio.Verdict == "" {
				t.Errorf("a ratio in the JSON: %+v", *c.Ratio)
			}
		}
	}
	if doc.Resolution != 0.4 || ratios == 0 {
		t.Errorf("JSON resolution %g, %d ratios", doc.Resolution, ratios)
	}
	md, err := os.ReadFile(filepath.Join(dir, "r.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "resolution ±40% (between 0.714× and 1.400×") ||
		!strings.Contains(string(md), "decided:") {
		t.Errorf("the Markdown does not carry --resolution 40%%:\n%s", md)
	}
	out.Reset()
	if code := Main(context.Background(), []string{"compare", "--resolution", "0.5", "testdata/old.txt",
		"testdata/new.txt"}, fakeEnv(&out, &errb)); code != ExitOK {
		t.Fatalf("compare: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "within ±50%") || !strings.Contains(out.String(), "decided:") {
		t.Errorf("compare --resolution 0.5:\n%s", out.String())
	}
	for _, args := range [][]string{
		{"report", "--resolution", "0", "testdata/results.txt"},
		{"compare", "--resolution", "150%", "testdata/old.txt", "testdata/new.txt"},
		{"run", "--resolution", "abc", "--dry-run"},
		{"reproduce", "sqinn-go", "--resolution", "-5%", "--dry-run"},
	} {
		out.Reset()
		errb.Reset()
		code := Main(context.Background(), args, fakeEnv(&out, &errb))
		if code != ExitUsage || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 ||
			!strings.Contains(errb.String(), "--resolution") {
			t.Errorf("%s: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
		}
	}
}

// TestReportOfAFileCutOff: a results file cut off mid-line is reported
// from its complete lines, with one warning naming the cut, exit 0; so is
// it compared.
func TestReportOfAFileCutOff(t *testing.T) {
	b, err := os.ReadFile("testdata/results.txt")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.txt")
	i := bytes.Index(b, []byte("BenchmarkSimpleQueryRow/db=postgres/driver=pq/api=sql/net=unix"))
	if err := os.WriteFile(cut, b[:i+70], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"report", cut}, {"compare", cut, cut}} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), args, fakeEnv(&out, &errb))
		if code != ExitOK || !strings.Contains(out.String(), "SimpleQuery") {
			t.Errorf("sqlbench %s: exit %d, want 0 and the results:\n%s%s", strings.Join(args, " "), code, out.String(),
				errb.String())
		}
		warn := "warning: " + cut + " ends in the middle of line 33"
		if n := strings.Count(errb.String(), warn); n != len(args)-1 {
			t.Errorf("sqlbench %s: %d warnings %q in stderr, want %d:\n%s", strings.Join(args, " "), n, warn,
				len(args)-1, errb.String())
		}
	}
}

// TestReportOfAGoTestBenchFile: report on a plain go test -bench file says
// in one line what it can show, then each benchmark's medians, never an
// ops/s table of a target named "/"; other formats are bad input naming
// benchstat.
func TestReportOfAGoTestBenchFile(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"report", "testdata/gotest-bench.txt"},
		fakeEnv(&out, &errb)); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got := out.String()
	_, table, _ := strings.Cut(got, "\n")
	if !strings.HasPrefix(got, "not sqlbench results: medians per benchmark only;") ||
		!strings.Contains(table, "Foo-2  ") ||
		!strings.Contains(table, "ns/op      1,075 ") || strings.Contains(table, "ops/s") ||
		strings.Contains(table, " / ") {
		t.Errorf("report of a go test -bench file:\n%s", got)
	}
	out.Reset()
	code := Main(context.Background(), []string{"report", "--format", "csv", "testdata/gotest-bench.txt"},
		fakeEnv(&out, &errb))
	if code != ExitUsage || !strings.Contains(errb.String(), "report: --format csv: not sqlbench results") ||
		!strings.Contains(errb.String(), "benchstat") {
		t.Errorf("report --format csv of a go test -bench file: exit %d, %s", code, errb.String())
	}
}
