package cli

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/studies"
)

// TestReproduceListsEveryStudy: sqlbench reproduce without a study lists
// them all.
func TestReproduceListsEveryStudy(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"reproduce"}, fakeEnv(&out, &errb)); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, id := range studies.IDs() {
		if !strings.Contains(out.String(), id+" ") {
			t.Errorf("the list lacks %s:\n%s", id, out.String())
		}
	}
}

func TestReproduceAndCPUBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"reproduce", "nosuch"}, `unknown study "nosuch" (valid: sqlbench-2013-osx,`},
		{[]string{"reproduce", "dbi-2023", "sqinn-go"}, "one study at a time"},
		{[]string{"reproduce", "dbi-2023", "--scale", "-1"}, "--scale must be above 0"},
		{[]string{"reproduce", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"run", "--cpu", "2,x"}, `--cpu: want GOMAXPROCS values from 1 to 1024, comma-separated (e.g. 2,4,8), got "x"`},
		{[]string{"run", "--cpu", "0"}, `--cpu: want GOMAXPROCS values`},
		{[]string{"run", "--cpu", "2,2"}, "--cpu: 2 is given twice"},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), c.args, fakeEnv(&out, &errb))
		if msg := errb.String(); code != ExitUsage || !strings.Contains(msg, c.want) || strings.Count(msg, "\n") != 1 {
			t.Errorf("sqlbench %s: exit %d, stderr %q; want exit 2 and one line containing %q", strings.Join(c.args, " "), code, msg, c.want)
		}
	}
}

// TestReproduceNamesWhatCannotRun: a study none of whose comparisons can
// run here (no Go toolchain, no sqinn program) prints its published
// figures, not measured, and every reason, and fails as a machine that
// cannot run it.
func TestReproduceNamesWhatCannotRun(t *testing.T) {
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.LookPath = func(string) (string, error) { return "", exec.ErrNotFound }
	code := Main(context.Background(), []string{"reproduce", "sqinn-go"}, env)
	if code != ExitFailed || !strings.Contains(errb.String(), "nothing of the study can run here") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	for _, want := range []string{"simple/insert", "crawshaw / mattn", "1.36×", "not measured",
		"not reproduced: target mattn: needs the Go toolchain", "not reproduced: Windows 10: this machine runs Linux"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
