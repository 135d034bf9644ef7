package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

// TestHistoryRecordShowExport: results files go into a SQLite history (a
// file recorded twice is skipped with one line), show prints each cell's
// trend, and export gives the runs back in a form benchfile (and so
// benchstat) reads.
func TestHistoryRecordShowExport(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.db")
	run := func(args ...string) (string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		if code := Main(context.Background(), append([]string{"history", "--db", db}, args...),
			fakeEnv(&out, &errb)); code != ExitOK {
			t.Fatalf("sqlbench history %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		return out.String(), errb.String()
	}
	out, _ := run("record", "testdata/old.txt", "testdata/new.txt", "testdata/results.txt")
	if strings.Count(out, "recorded session file-") != 3 || !strings.Contains(out, "3 recorded, 0 skipped") {
		t.Errorf("record:\n%s", out)
	}
	out, _ = run("record", "testdata/new.txt")
	if !strings.Contains(out, "skipped session file-") ||
		!strings.Contains(out, "(testdata/new.txt): recorded already") ||
		!strings.Contains(out, "0 recorded, 1 skipped") || !strings.Contains(out, "holds 3 sessions") {
		t.Errorf("record again:\n%s", out)
	}
	out, _ = run("show", "--workload", "R", "--points")
	for _, want := range []string{"R/db=sqlite/driver=a/api=sql  sec/op  2 sessions", "no change point", "10 runs"} {
		if !strings.Contains(out, want) {
			t.Errorf("show: no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "SimpleQuery") {
		t.Errorf("show --workload R shows other workloads:\n%s", out)
	}
	page := filepath.Join(t.TempDir(), "trend.html")
	if _, errOut := run("show", "--workload", "R", "--html", page); !strings.Contains(errOut, "wrote "+page) {
		t.Errorf("show --html: stderr %q", errOut)
	}
	if b, err := os.ReadFile(page); err != nil || strings.Count(string(b), "<svg") != 1 ||
		!strings.Contains(string(b), "<h2>R/db=sqlite/driver=a/api=sql · ns/op</h2>") {
		t.Errorf("show --html: %d charts, %v; want 1, of R", strings.Count(string(b), "<svg"), err)
	}
	var o, e bytes.Buffer
	if code := Main(context.Background(), []string{"history", "--db", db, "show", "--html", "/proc/version/x.html"},
		fakeEnv(&o, &e)); code != ExitUsage ||
		!strings.Contains(e.String(), "--html /proc/version/x.html: not a directory") {
		t.Errorf("show --html into /proc/version: exit %d, stderr %q", code, e.String())
	}
	out, errOut := run("export", "--target", "a")
	set, err := benchfile.Read(strings.NewReader(out), "export")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Results) != 40 || !strings.Contains(errOut, "2 sessions") {
		t.Errorf("export: %d results (want 40), stderr %q", len(set.Results), errOut)
	}
	if _, errOut := run("show", "--unit", "furlongs/op"); !strings.Contains(errOut,
		"no recorded cell has furlongs/op") {
		t.Errorf("show of a unit never recorded: stderr %q", errOut)
	}
}

func TestHistoryBadInput(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.db")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"history"}, ExitUsage, "history: name a subcommand: record, show or export"},
		{[]string{"history", "frob"}, ExitUsage, `history: unknown subcommand "frob"`},
		{[]string{"history", "--db", db, "record"}, ExitUsage, "history record: name one or more results files"},
		{[]string{"history", "--db", db, "record", "testdata/missing.txt"}, ExitUsage,
			"results file testdata/missing.txt: no such file or directory"},
		{[]string{"history", "--db", db, "record", "testdata/corrupt.txt"}, ExitUsage, "corrupt results file"},
		{[]string{"history", "--db", db, "show", "stray"}, ExitUsage, `history show: takes no operands, got "stray"`},
		{[]string{"history", "--db", db, "show", "--target", "["}, ExitUsage, `--target "[": syntax error in pattern`},
		{[]string{"history", "--db", db, "export", "--workload", "["}, ExitUsage, `--workload "[": syntax error`},
		{[]string{"history", "show"}, ExitUsage, "neither XDG_DATA_HOME nor HOME is set"},
		{[]string{"history", "--db", "postgres://u:s3cretpw@127.0.0.1:notaport/db", "show"}, ExitUsage,
			"history: --db: invalid port"},
		{[]string{"history", "--db", "postgres://u:s3cretpw@127.0.0.1:1/db?sslmode=disable", "show"}, ExitFailed,
			"history database postgres://u:xxxxx@127.0.0.1:1/db?sslmode=disable:"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), c.args, fakeEnv(&out, &errb))
		msg := errb.String()
		if code != c.code || !strings.Contains(msg, c.want) || strings.Count(msg, "\n") != 1 {
			t.Errorf("sqlbench %s: exit %d, stderr %q; want exit %d and one line containing %q",
				strings.Join(c.args, " "), code, msg, c.code, c.want)
		}
		if strings.Contains(msg, "s3cretpw") {
			t.Errorf("sqlbench %s printed the password: %q", strings.Join(c.args, " "), msg)
		}
	}
}
