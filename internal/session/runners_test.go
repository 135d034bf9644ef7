package session

import (
	"slices"
	"testing"

	"github.com/sqlbench/sqlbench/internal/launcher"
)

// TestJVMOptionsFollowTheSession: a cold JVM has no JIT warm-up, even at
// smoke size; a smoke run a short one; any other run the runner's own.
func TestJVMOptionsFollowTheSession(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want []string
	}{
		{Config{}, nil},
		{Config{Smoke: true}, []string{launcher.SmokeJITWarmup}},
		{Config{ColdJVM: true}, []string{launcher.ColdJIT}},
		{Config{ColdJVM: true, Smoke: true}, []string{launcher.ColdJIT}},
		{Config{ColdJVM: true, JDBCPreparedExecSQL: true}, []string{launcher.ColdJIT, launcher.PreparedExecWithSQL}},
	} {
		if got := jvmOptions(&tc.cfg); !slices.Equal(got, tc.want) {
			t.Errorf("cold %v, smoke %v: %v, want %v", tc.cfg.ColdJVM, tc.cfg.Smoke, got, tc.want)
		}
	}
	if launcher.PreparedExecWithSQL != "-Dsqlbench.preparedExec=with-sql" {
		t.Errorf("PreparedExecWithSQL %q: the JDBC runner reads sqlbench.preparedExec=with-sql",
			launcher.PreparedExecWithSQL)
	}
	if launcher.ColdJIT != "-Dsqlbench.jit.maxMillis=0" {
		t.Errorf("ColdJIT %q: the JDBC runner turns its warm-up off at maxMillis 0", launcher.ColdJIT)
	}
}
