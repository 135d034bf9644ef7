package launcher

import (
	"os/exec"
	"testing"
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
