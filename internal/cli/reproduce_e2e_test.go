package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReproduceRunsAStudyEndToEnd reproduces the MariaDB single-insert
// study at smoke size: its seed server started as run starts one, GOMAXPROCS
// 2, 4 and 8 in the result names, the study and the server.cnf recorded,
// and the published-beside-measured table printed, written into the
// Markdown report and rebuilt from the results file by sqlbench report.
func TestReproduceRunsAStudyEndToEnd(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "study.txt")
	code := Main(context.Background(),
		[]string{"reproduce", "mariadb-tcp-http", "--quick", "--count", "2", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	runs, cfg := readRuns(t, out)
	for _, name := range []string{
		"SingleInsert/db=mariadb/driver=go-sql-driver@v1.8.1/api=sql/net=tcp/data=fixed/conns=1/prepare=each-2",
		"SingleInsert/db=mariadb/driver=go-sql-driver@v1.8.1/api=sql/net=tcp/data=random/conns=1/prepare=each-4",
		"TCPSend/db=loopback/driver=tcp/api=raw/size=9-8",
		"HTTPPost/db=loopback/driver=http/api=raw/size=9-2",
		"TCPSend/db=loopback/driver=tcp/api=raw/size=2048-4",
		"HTTPPost/db=loopback/driver=http/api=raw/size=2048-8",
	} {
		if runs[name] != 2 {
			t.Errorf("%s: %d runs, want 2 (runs: %v)", name, runs[name], runs)
		}
	}
	conf := map[string]string{}
	for _, c := range cfg.Config {
		conf[c.Key] = string(c.Value)
	}
	if conf["reproduce-study"] != "mariadb-tcp-http" || conf["gomaxprocs"] != "2,4,8" || conf["cpu"] == "2,4,8" ||
		conf["mariadb-profile"] != "seed" ||
		!strings.HasPrefix(conf["mariadb-seed-collation-server"],
			"requested=utf8mb4_unicode_ci in-force=utf8mb4_unicode_ci") {
		t.Errorf("config lines: study %q, gomaxprocs %q (cpu %q), profile %q, collation %q", conf["reproduce-study"],
			conf["gomaxprocs"], conf["cpu"],
			conf["mariadb-profile"], conf["mariadb-seed-collation-server"])
	}
	table := stdout.String()[strings.Index(stdout.String(), "test / comparison  "):]
	_, cpu8, _ := strings.Cut(table, "\n-cpu=8\n")
	if !strings.Contains(table, "21 of 21 comparisons measured: ") ||
		!strings.Contains(cpu8, "  TCP send 2KB / MariaDB single insert") ||
		!strings.Contains(cpu8, "60.80×") {
		t.Errorf("published table:\n%s", table)
	}
	if head := stdout.String(); !strings.Contains(head, "  https://github.com/rah-0/hyperion/blob/2a8026c/benchmarks/"+
		"README.md\n") || strings.Contains(head, "shared/studies") {
		t.Errorf("the study is not cited by its public address:\n%s", head)
	}
	fits(t, table)
	md, err := os.ReadFile(strings.TrimSuffix(out, ".txt") + ".md")
	if err != nil || !strings.Contains(string(md), "## Published beside measured: mariadb-tcp-http") {
		t.Errorf("markdown report lacks the published table (%v)", err)
	}
	stdout.Reset()
	if code := Main(context.Background(), []string{"report", out}, env); code != ExitOK {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	rebuilt := stdout.String()[strings.Index(stdout.String(), "test / comparison  "):]
	firstRows := func(s string) string { return strings.Join(strings.Split(s, "\n")[:10], "\n") }
	if firstRows(rebuilt) != firstRows(table) {
		t.Errorf("sqlbench report rebuilt another table:\n%s\nwant:\n%s", firstRows(rebuilt), firstRows(table))
	}
}
