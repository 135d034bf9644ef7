package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestFlagsThatDoNothingAreRefused: a flag the rest of the command line
// leaves idle is bad input, one line naming it and why, exit status 2;
// the same flag where it does something is accepted.
func TestFlagsThatDoNothingAreRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--db", "postgres", "--sqlite-journal", "wal"}, "run: --sqlite-journal: only for SQLite"},
		{[]string{"run", "--db", "mariadb", "--sqlite-sync", "off", "--sqlite-journal", "wal"},
			"run: --sqlite-journal, --sqlite-sync: only for SQLite"},
		{[]string{"run", "--dsn", "postgres=postgres://u:pw@127.0.0.1/db"}, "run: --dsn: postgres is not in --db"},
		{[]string{"run", "--net", "unix"}, "run: --net: only for servers sqlbench starts"},
		{[]string{"run", "--db", "postgres", "--dsn", "postgres=postgres://u:pw@127.0.0.1/db", "--profile", "fast"},
			"run: --profile: only for servers sqlbench starts"},
		{[]string{"run", "--allow-remote"}, "run: --allow-remote: only for a --dsn"},
		{[]string{"run", "--force"}, "run: --force: only for an -o results file"},
		{[]string{"run", "-o", "-", "--force"}, "run: --force: only for an -o results file"},
		{[]string{"run", "--warmup", "0", "--warmup-all"}, "run: --warmup-all: does nothing with --warmup 0"},
		{[]string{"run", "--quick", "--scale", "1", "--count", "2", "--slices", "1"}, "run: --quick: does nothing"},
		{[]string{"report", "--wide", "--format", "html", "testdata/results.txt"},
			"report: --wide: only for the text format"},
		{[]string{"report", "-o", "r", "testdata/results.txt"}, "report: --output: only for files"},
		{[]string{"compare", "--allow-different", "a.txt", "b.txt"},
			"compare: --allow-different: only for the --fail-over gate"},
		{[]string{"compare", "--md", "--format", "text", "a.txt", "b.txt"},
			"compare: --format: --md sets the format too"},
		{[]string{"list", "--markdown", "--json"}, "list: --json: not with --markdown"},
		{[]string{"list", "--markdown", "--estimate", "x.txt"}, "list: --estimate: not with --markdown"},
		{[]string{"reproduce", "--quick"}, "reproduce: --quick: only with a study"},
		{[]string{"reproduce", "go-sqlite-bench", "--force", "--dry-run"},
			"reproduce: --force: only for an -o results file"},
		{[]string{"reproduce", "go-sqlite-bench", "--allow-remote", "--dry-run"},
			"reproduce: --allow-remote: only for a --dsn"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), c.args, fakeEnv(&out, &errb))
		msg := strings.TrimSuffix(errb.String(), "\n")
		if code != ExitUsage || strings.Contains(msg, "\n") || !strings.Contains(msg, c.want) ||
			strings.Contains(msg, "pw@") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, errb.String(), c.want)
		}
	}
	// Where they do something, the same flags pass the check.
	for _, args := range [][]string{
		{"report", "--wide", "--format", "text", "testdata/results.txt"},
		{"report", "--format", "text,markdown", "-o", "-", "testdata/results.txt"},
		{"list", "--json"},
	} {
		var out, errb bytes.Buffer
		Main(context.Background(), args, fakeEnv(&out, &errb))
		if strings.Contains(errb.String(), "only for") || strings.Contains(errb.String(), "not with") {
			t.Errorf("%v refused: %s", args, errb.String())
		}
	}
}
