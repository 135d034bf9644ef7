package cli

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
)

func TestCommandLineIsBuiltFromTheParsedFlags(t *testing.T) {
	// run outside the command tree: the record starts "sqlbench" alone.
	var out, errb bytes.Buffer
	c := runCommand(context.Background(), fakeEnv(&out, &errb))
	args := []string{"--quick", "--db", "mariadb,postgres", "--dsn", "mysql=u:s3cretpw@tcp(127.0.0.1:3306)/bench",
		"--dsn=postgres=host=/tmp port=5432 user=u password='s3cret pw' dbname=bench sslmode=disable", "-o", "a b.txt"}
	if err := c.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	got := commandLine(c, nil)
	want := []string{"sqlbench", "--quick=true", "--db=mariadb,postgres",
		"--dsn='mysql=u:xxxxx@tcp(127.0.0.1:3306)/bench'",
		`--dsn='postgres=host=/tmp port=5432 user=u password='\''xxxxx'\'' dbname=bench sslmode=disable'`,
		"--output='a b.txt'"}
	if !slices.Equal(got, want) {
		t.Errorf("commandLine =\n%q\nwant\n%q", got, want)
	}
	if strings.Contains(strings.Join(got, " "), "s3cret") {
		t.Error("the command line holds the password")
	}
	// A DSN the driver rejects is recorded as the mask alone.
	c = runCommand(context.Background(), fakeEnv(&out, &errb))
	if err := c.ParseFlags([]string{"--dsn", "mariadb=bench:s3cretpw@tcp(127.0.0.1:3306"}); err != nil {
		t.Fatal(err)
	}
	if got := commandLine(c, nil); !slices.Equal(got, []string{"sqlbench", "--dsn=mariadb=xxxxx"}) {
		t.Errorf("commandLine = %q, want the DSN masked whole", got)
	}
}
