// Package testenv is the one rule for tests that need something a machine
// may lack — a MariaDB or PostgreSQL server, a JDK and Maven, Chromium: by
// default such a test skips with one line naming what is missing, so that
// `go test ./...` passes on a bare machine; with SQLBENCH_SERVERS=1 (set by
// scripts/test, and so by CI) the same lack fails the test, so that CI
// still runs everything.
package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Env is the variable that makes a missing dependency a failure.
const Env = "SQLBENCH_SERVERS"

// Strict reports whether a missing dependency fails the test
// (SQLBENCH_SERVERS=1) rather than skipping it.
func Strict() bool { return os.Getenv(Env) == "1" }

// Need skips t, or fails it when Strict, if missing is not nil: what names
// the thing the test needs ("a MariaDB server", "java and mvn").
func Need(t testing.TB, what string, missing error) {
	t.Helper()
	if missing == nil {
		return
	}
	if Strict() {
		t.Fatalf("needs %s: %v (%s=1: required)", what, missing, Env)
	}
	t.Skipf("needs %s: %v (%s=1 makes this a failure)", what, missing, Env)
}

// Programs is Need for programs on PATH: it names every one missing.
func Programs(t testing.TB, names ...string) {
	t.Helper()
	var missing []string
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		Need(t, strings.Join(names, " and "), notOnPath(missing))
	}
}

type notOnPath []string

func (n notOnPath) Error() string { return strings.Join(n, ", ") + " not on PATH" }

// SqinnEnv is the variable that makes a missing sqinn program a failure.
// SQLBENCH_SERVERS does not: sqinn is built from its public C source, which
// a plain clone may not reach (no registry ships it), so scripts/test skips
// the sqinn tests there while .ci/run, which has the sources beside the
// repository, sets SqinnEnv=1.
const SqinnEnv = "SQLBENCH_REQUIRE_SQINN"

// SqinnHow says how to get the sqinn program, for skip and failure lines.
const SqinnHow = "scripts/sqinn builds it from github.com/cvilsmeier/sqinn v1.1.27; then set SQINN_PATH to the path " +
	"it prints"

// NeedSqinn skips t with one line saying why and how to enable it, or fails
// it when SqinnEnv=1, if missing (the error of finding the sqinn program)
// is not nil.
func NeedSqinn(t testing.TB, missing error) {
	t.Helper()
	if missing == nil {
		return
	}
	if os.Getenv(SqinnEnv) == "1" {
		t.Fatalf("needs the sqinn program: %v (%s=1: required; %s)", missing, SqinnEnv, SqinnHow)
	}
	t.Skipf("needs the sqinn program: %v (%s; %s=1 makes this a failure)", missing, SqinnHow, SqinnEnv)
}
