package launcher

import (
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"
)

// TestKilledTellsSIGKILLFromACrash: a runner killed from outside has no
// last words of its own on stderr; one that exited or crashed does.
func TestKilledTellsSIGKILLFromACrash(t *testing.T) {
	c := exec.Command("sleep", "10")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	c.Process.Kill()
	if err := c.Wait(); !killed(err) {
		t.Errorf("sleep killed with SIGKILL: killed(%v) = false", err)
	}
	for _, script := range []string{"exit 2", "kill -SEGV $$"} {
		if err := exec.Command("sh", "-c", script).Run(); err == nil || killed(err) {
			t.Errorf("sh -c %q: killed(%v) = true or no error", script, err)
		}
	}
	if killed(nil) {
		t.Error("killed(nil) = true")
	}
}

// TestRunnerLeadsItsOwnSession: a runner starts in a session of its own,
// so that its autogroup is its own (runner.RaisePriority raises it) and a
// signal to its process group reaches it and its helpers.
func TestRunnerLeadsItsOwnSession(t *testing.T) {
	p, err := Start("/bin/sh", "-c", "read x")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	sid, err := unix.Getsid(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	pgid, err := unix.Getpgid(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	if sid != p.Pid() || pgid != p.Pid() {
		t.Errorf("runner %d: session %d, process group %d; want both its own", p.Pid(), sid, pgid)
	}
	if own, _ := unix.Getsid(0); own == sid {
		t.Errorf("the runner shares the test's session %d", own)
	}
}
