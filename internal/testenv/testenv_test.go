package testenv_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/testenv"
)

// helperEnv marks the re-run of this test binary in which
// TestNeedSqinnHelper calls NeedSqinn for real.
const helperEnv = "SQLBENCH_TESTENV_HELPER"

// TestNeedSqinnHelper is not a test of its own: run by
// TestNeedSqinnSkipsOrFails in a child process, it calls NeedSqinn with a
// missing program.
func TestNeedSqinnHelper(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("run by TestNeedSqinnSkipsOrFails")
	}
	testenv.NeedSqinn(t, errors.New("sqinn not on PATH"))
	t.Log("NeedSqinn returned")
}

// TestNeedSqinnSkipsOrFails runs a test that lacks the sqinn program twice
// in a child process: without SQLBENCH_REQUIRE_SQINN it skips with one line
// that says why and how to get the program (so that a plain clone passes);
// with SQLBENCH_REQUIRE_SQINN=1 (.ci/run) it fails. SQLBENCH_SERVERS=1,
// which scripts/test always sets, must not make it fail.
func TestNeedSqinnSkipsOrFails(t *testing.T) {
	run := func(require string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestNeedSqinnHelper$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), helperEnv+"=1", testenv.Env+"=1", testenv.SqinnEnv+"="+require)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("")
	if err != nil {
		t.Fatalf("without %s the test failed: %v\n%s", testenv.SqinnEnv, err, out)
	}
	if !strings.Contains(out, "--- SKIP: TestNeedSqinnHelper") {
		t.Errorf("without %s the test did not skip:\n%s", testenv.SqinnEnv, out)
	}
	for _, want := range []string{"needs the sqinn program: sqinn not on PATH", "scripts/sqinn", testenv.SqinnEnv +
		"=1"} {
		if !strings.Contains(out, want) {
			t.Errorf("the skip line does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "NeedSqinn returned") {
		t.Errorf("NeedSqinn returned instead of skipping:\n%s", out)
	}

	out, err = run("1")
	if err == nil {
		t.Fatalf("with %s=1 the test passed:\n%s", testenv.SqinnEnv, out)
	}
	if !strings.Contains(out, "--- FAIL: TestNeedSqinnHelper") || !strings.Contains(out, "required") {
		t.Errorf("with %s=1 the test did not fail saying sqinn is required:\n%s", testenv.SqinnEnv, out)
	}
}

// TestNeedSqinnPassesWhenPresent: nothing missing, nothing said.
func TestNeedSqinnPassesWhenPresent(t *testing.T) {
	t.Setenv(testenv.SqinnEnv, "1")
	testenv.NeedSqinn(t, nil)
}
