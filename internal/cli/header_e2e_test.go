package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunHeaderKeysAreStable runs a representative session (two SQLite
// targets and the transport floor) and compares the results file's
// configuration keys, in order, with testdata/config-keys.golden, which
// was written by the command line before the run pipeline moved into
// internal/session: the move kept every line the results file carries.
// The session's own facts ("# started", benchfile.IsSessionFact) come
// first, as comment lines benchstat does not group by.
func TestRunHeaderKeysAreStable(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(),
		[]string{"run", "--quick", "--db", "sqlite,loopback", "--targets", "mattn,modernc,tcp",
			"--workloads", "SimpleExec,TCPRoundTrip", "--count", "1", "-o", out, "--cache", cache}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// The command is recorded from the parsed flags (commandLine).
	cmd := "sqlbench run --quick=true --db=sqlite,loopback --targets=mattn,modernc,tcp " +
		"--workloads=SimpleExec,TCPRoundTrip --count=1 --output=" + out
	if !strings.Contains(string(b), "sqlbench-command: "+cmd+" --cache="+cache+"\n") {
		_, got, _ := strings.Cut(string(b), "sqlbench-command: ")
		got, _, _ = strings.Cut(got, "\n")
		t.Errorf("sqlbench-command:\n got %s\nwant %s --cache=%s", got, cmd, cache)
	}
	var keys []string
	for _, line := range strings.Split(string(b), "\n") {
		// "# runner-build" is written only by a session that built a
		// runner, which depends on the cache, not on the session.
		if k, _, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, "Benchmark") &&
			!strings.HasPrefix(line, "Unit ") && k != "# runner-build" {
			keys = append(keys, k)
		}
	}
	want, err := os.ReadFile(filepath.Join("testdata", "config-keys.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(keys, "\n") + "\n"; got != string(want) {
		t.Errorf("config keys differ from testdata/config-keys.golden:\n got:\n%s\nwant:\n%s", got, want)
	}
}
