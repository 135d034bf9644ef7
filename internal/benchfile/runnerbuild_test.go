package benchfile

import (
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"
)

// TestRunnerBuildIsASessionFact: the time a session spent building
// runners is a fact of that session, not a setting two sessions must
// share, and reads back as written.
func TestRunnerBuildIsASessionFact(t *testing.T) {
	if !IsSessionFact(KeyRunnerBuild) {
		t.Errorf("%s is not a session fact", KeyRunnerBuild)
	}
	for _, tc := range []struct {
		cfg  []benchfmt.Config
		want time.Duration
		ok   bool
	}{
		{[]benchfmt.Config{{Key: "count", Value: []byte("6")}, {Key: KeyRunnerBuild, Value: []byte("5m12.5s")}},
			5*time.Minute + 12500*time.Millisecond, true},
		{[]benchfmt.Config{{Key: KeyRunnerBuild, Value: []byte("0s")}}, 0, true},
		{[]benchfmt.Config{{Key: KeyRunnerBuild, Value: []byte("soon")}}, 0, false},
		{[]benchfmt.Config{{Key: "count", Value: []byte("6")}}, 0, false},
	} {
		if got, ok := RunnerBuild(tc.cfg); got != tc.want || ok != tc.ok {
			t.Errorf("RunnerBuild(%v) = %v, %v; want %v, %v", tc.cfg, got, ok, tc.want, tc.ok)
		}
	}
}

// TestRunnerPriorityIsASessionFact: the priority a runner gave itself is
// written as a comment line, so that benchstat compares a session of a
// raised runner with one of a runner that could not raise itself, or with
// a file from before runners said it.
func TestRunnerPriorityIsASessionFact(t *testing.T) {
	for _, k := range []string{"mattn-runner-priority", "mattn@v1.14.22-runner-priority"} {
		if !IsSessionFact(k) {
			t.Errorf("%s is not a session fact", k)
		}
	}
	if IsSessionFact("mattn-module") {
		t.Error("a driver's module is a session fact")
	}
}
