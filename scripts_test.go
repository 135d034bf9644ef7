package sqlbench

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrorRatesRefusesBadArguments runs scripts/error-rates with bad
// arguments: each must end with exit status 2 and one line (or the usage)
// naming the problem, before anything is built or run, and leave no
// directory behind.
func TestErrorRatesRefusesBadArguments(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	cases := []struct {
		args []string
		want string
	}{
		{nil, "Usage: scripts/error-rates N M DIR"},
		{[]string{"20", "10"}, "Usage: scripts/error-rates N M DIR"},
		{[]string{"x", "10", dir}, "N: want a number of sessions, got 'x'"},
		{[]string{"20", "-1", dir}, "M: want a number of sessions, got '-1'"},
		{[]string{"101", "10", dir}, "N: want 0 to 100 sessions, got 101"},
		{[]string{"20", "10", dir, "--budget", "40"}, "--budget: want a Go duration"},
		{[]string{"20", "10", dir, "--spin", "fast"}, "--spin: want a Go duration"},
		{[]string{"20", "10", dir, "--fail-over", "5"}, "--fail-over: want a percentage"},
		{[]string{"20", "10", dir, "--until", "not a time"}, "--until: date cannot read"},
		{[]string{"20", "10", dir, "--budget"}, "--budget: wants a value"},
		{[]string{"20", "10", dir, "--count", "6"}, "unknown argument --count"},
	}
	for _, c := range cases {
		cmd := exec.Command("bash", append([]string{"scripts/error-rates"}, c.args...)...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("error-rates %q: %v, want exit status 2; stderr:\n%s", c.args, err, stderr.String())
			continue
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("error-rates %q: stderr\n%s\nwant it to say %q", c.args, stderr.String(), c.want)
		}
		if !strings.HasPrefix(c.want, "Usage") && strings.Count(strings.TrimSpace(stderr.String()), "\n") > 0 {
			t.Errorf("error-rates %q: stderr has more than one line:\n%s", c.args, stderr.String())
		}
		if stdout.Len() > 0 {
			t.Errorf("error-rates %q: wrote to stdout:\n%s", c.args, stdout.String())
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("refused calls left %s behind (stat: %v)", dir, err)
	}
}
