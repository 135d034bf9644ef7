package sqinn_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/testenv"
	"github.com/sqlbench/sqlbench/targets/sqinn"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// needSqinn fails the test when $SQINN_PATH is set but names no executable,
// and skips it (fails it with SQLBENCH_REQUIRE_SQINN=1, as in .ci/run) when
// neither $SQINN_PATH nor PATH has sqinn: no registry ships the program (a
// C program that scripts/sqinn builds from its public source).
func needSqinn(t *testing.T) {
	t.Helper()
	_, err := sqinn.Executable()
	if err != nil && os.Getenv(sqinn.PathEnv) != "" {
		t.Fatalf("%s is set but unusable: %v", sqinn.PathEnv, err)
	}
	testenv.NeedSqinn(t, err)
}

func TestExecutableSaysWhatIsMissing(t *testing.T) {
	t.Setenv(sqinn.PathEnv, "/nonexistent/sqinn")
	_, err := sqinn.Executable()
	if !errors.Is(err, sqinn.ErrNoExecutable) {
		t.Fatalf("Executable with %s pointing nowhere: %v, want ErrNoExecutable", sqinn.PathEnv, err)
	}
}

// TestConformance runs the shared checks on the sqinn target, given the
// sqinn program.
func TestConformance(t *testing.T) {
	needSqinn(t)
	targettest.Conformance(t, targettest.Package("sqinn"))
}

// TestInfoNamesTheProgram checks the sqinn-version line the results record
// against what the program itself prints for "sqinn version".
func TestInfoNamesTheProgram(t *testing.T) {
	needSqinn(t)
	path, _ := sqinn.Executable()
	out, err := exec.Command(path, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", path, err)
	}
	c, _ := targettest.Open(t, "sqinn", targettest.SQLite)
	in, ok := c.(bench.Informer)
	if !ok {
		t.Fatal("the sqinn connection says nothing of its program (no bench.Informer)")
	}
	kvs, err := in.Info()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(string(out)) + " (protocol 1)"
	if len(kvs) != 1 || kvs[0] != [2]string{"sqinn-version", want} {
		t.Errorf("Info = %q, want sqinn-version %q", kvs, want)
	}
}
