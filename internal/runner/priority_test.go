package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/sqlbench/sqlbench/floor"
	"github.com/sqlbench/sqlbench/internal/procs"
	"github.com/sqlbench/sqlbench/internal/protocol"
)

// priorityChild is the environment variable that makes the test binary a
// child of TestRaisePriority: it raises its own priority and prints what
// it did, its nice value and its autogroup.
const priorityChild = "SQLBENCH_TEST_PRIORITY_CHILD"

func TestMain(m *testing.M) {
	if env, ok := os.LookupEnv(priorityChild); ok {
		what := RaisePriority(env)
		st, err := procs.Stat(os.Getpid())
		group, _ := os.ReadFile("/proc/self/autogroup")
		fmt.Printf("%s\nnice=%d err=%v\nautogroup=%s\n", what, st.Nice, err, strings.TrimSpace(string(group)))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// raiseInChild runs RaisePriority in a child process, in a session of its
// own (as the launcher starts runners) or in the test's, with env as
// PriorityEnv's value; it returns what the child printed.
func raiseInChild(t *testing.T, ownSession bool, env string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), priorityChild+"="+env)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: ownSession, Setpgid: !ownSession}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	return string(out)
}

// TestRaisePriority: a runner leading its own session runs at nice -10,
// its autogroup too; one sharing its session with other programs raises
// its threads only, never the group it shares; SQLBENCH_PRIORITY=normal
// leaves it as it was.
func TestRaisePriority(t *testing.T) {
	if !procs.Mounted() {
		t.Skip("no /proc")
	}
	own := raiseInChild(t, true, "")
	if strings.Contains(own, "cannot raise") {
		t.Skipf("no CAP_SYS_NICE here: %s", own)
	}
	if !strings.Contains(own, "nice=-10 ") {
		t.Errorf("a runner in its own session:\n%s\nwant nice -10", own)
	}
	if _, err := os.Stat("/proc/self/autogroup"); err == nil {
		if !strings.Contains(own, "nice -10, its own autogroup too\n") ||
			!strings.Contains(own, "autogroup=/autogroup-") ||
			!strings.HasSuffix(strings.TrimSpace(own), "nice -10") {
			t.Errorf("a runner in its own session, under autogroups:\n%s\nwant its autogroup at nice -10", own)
		}
		before, _ := os.ReadFile("/proc/self/autogroup")
		shared := raiseInChild(t, false, "")
		after, _ := os.ReadFile("/proc/self/autogroup")
		if !strings.Contains(shared, "shares its session") || string(before) != string(after) {
			t.Errorf("a runner sharing the test's session:\n%s\nthe test's autogroup %q, then %q",
				shared, before, after)
		}
	}
	normal := raiseInChild(t, true, "normal")
	if !strings.HasPrefix(normal, "normal ("+PriorityEnv+"=normal)\nnice=0 ") {
		t.Errorf("with %s=normal:\n%s", PriorityEnv, normal)
	}
}

// TestInfoSaysThePriority: the info reply of a target carries the
// runner's priority, which the results file keeps beside the target's
// versions.
func TestInfoSaysThePriority(t *testing.T) {
	req := protocol.Request{Verb: protocol.VerbInfo, Target: "noise-probe", DB: string(floor.Loopback)}
	var out, log bytes.Buffer
	s := &Loop{In: strings.NewReader(req.Encode() + "\n"), Out: &out, Log: &log,
		Priority: "nice -10, its own autogroup too"}
	if err := s.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := "noise-probe-runner-priority: nice -10, its own autogroup too\n"; !strings.Contains(out.String(), want) {
		t.Errorf("info reply lacks %q:\n%s\n%s", want, out.String(), log.String())
	}
}
