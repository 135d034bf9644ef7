package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestServerStopOfNoSuchServerExits1(t *testing.T) {
	state := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"server", "stop", "mariadb", "--state", state}, ExitPartial,
			"no mariadb server started by sqlbench server start"},
		{[]string{"server", "stop", "postgres", "--state", state}, ExitPartial,
			"no postgres server started by sqlbench server start"},
		{[]string{"server", "dsn", "postgres", "--state", state}, ExitPartial, "no postgres server started by " +
			"sqlbench server start is running"},
		{[]string{"server", "stop", "--all", "--state", state}, ExitOK, "no server to stop"},
		// Stopping every server is asked for by name (another session may
		// be using one).
		{[]string{"server", "stop", "--state", state}, ExitUsage, "server stop: name the kind of server to stop " +
			"(mariadb, postgres, tidb, galera, postgres-sync), or --all"},
		{[]string{"server", "stop", "all", "--state", state}, ExitUsage,
			"server stop: stopping every server takes --all"},
		{[]string{"server", "stop", "postgres", "--all", "--state", state}, ExitUsage,
			"server stop: name a kind or --all, not both"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), c.args, fakeEnv(&out, &errb))
		got := out.String() + errb.String()
		if code != c.code || !strings.Contains(got, c.out) || strings.Count(got, "\n") != 1 {
			t.Errorf("sqlbench %s: exit %d, output %q; want exit %d and one line containing %q",
				strings.Join(c.args, " "), code, got, c.code, c.out)
		}
	}
}

func TestBadDSNFromTheEnvironmentHidesThePassword(t *testing.T) {
	for _, dsn := range []string{
		"bench:s3cretpw",
		"bench:s3cretpw@tcp(127.0.0.1:3306",
		"bench:s3cretpw@tcp(127.0.0.1:3306)bench",
	} {
		var out, errb bytes.Buffer
		env := fakeEnv(&out, &errb)
		env.Getenv = func(name string) string {
			if name == "SQLBENCH_MYSQL_DSN" {
				return dsn
			}
			return ""
		}
		code := Main(context.Background(), []string{"run", "--db", "mariadb"}, env)
		msg := errb.String()
		// A DSN that does not parse is never echoed: the driver's reason is.
		if code != ExitUsage || !strings.Contains(msg, "bad mariadb DSN: invalid DSN") ||
			strings.Count(msg, "\n") != 1 {
			t.Errorf("SQLBENCH_MYSQL_DSN=%s sqlbench run --db mariadb: exit %d, stderr %q; want exit 2 and one line "+
				"with the driver's reason", dsn, code, msg)
		}
		if strings.Contains(msg, "s3cretpw") {
			t.Errorf("SQLBENCH_MYSQL_DSN=%s: the password shows: %q", dsn, msg)
		}
	}
}
