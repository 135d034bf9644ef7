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
