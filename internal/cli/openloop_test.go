package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestOpenLoopBadInput: a rate not above 0, a rate where no server queues
// the operations (SQLite in the runner's process), and --latency-limit or
// --progress without --rate are bad input: one line naming the flag, exit
// status 2. A rate on a server database passes the check.
func TestOpenLoopBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--db", "postgres", "--rate", "0"}, "--rate: want a rate above 0"},
		{[]string{"run", "--db", "postgres", "--rate", "-5"}, "--rate: want a rate above 0"},
		{[]string{"run", "--db", "postgres", "--rate", "fast"}, "--rate: want a rate above 0"},
		{[]string{"run", "--rate", "100"}, "run: --rate: open-loop load needs a server"},
		{[]string{"run", "--db", "sqlite,postgres", "--rate", "100"}, "sqlite runs in the runner's process"},
		{[]string{"run", "--db", "postgres", "--latency-limit", "10ms"}, "run: --latency-limit: needs --rate"},
		{[]string{"run", "--db", "postgres", "--progress", "1s"}, "run: --progress: needs --rate"},
		{[]string{"run", "--db", "postgres", "--rate", "10", "--latency-limit", "0"},
			"--latency-limit: want a duration above 0"},
		{[]string{"run", "--db", "postgres", "--rate", "10", "--progress", "-1s"},
			"--progress: want a duration above 0"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), c.args, fakeEnv(&out, &errb))
		msg := strings.TrimSuffix(errb.String(), "\n")
		if code != ExitUsage || strings.Contains(msg, "\n") || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", c.args, code, errb.String(), c.want)
		}
	}
	var out, errb bytes.Buffer
	args := []string{"run", "--db", "postgres", "--rate", "100", "--latency-limit", "20ms", "--progress", "1s",
		"--workloads", "PreparedQueryConcurrent", "--dry-run"}
	if code := Main(context.Background(), args, fakeEnv(&out, &errb)); code == ExitUsage {
		t.Errorf("%v refused: %s", args, errb.String())
	}
}
