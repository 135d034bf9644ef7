package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestAAPairPassesTheGate runs a real A/A pair, two short sessions of the
// same settings back to back with nothing changed between them, and gates
// the second against the first at --fail-over 5%: the exit status must be
// 0. Between two sessions the machine alone moves cells by more than 5%
// (docs/methodology.md), which a gate that holds every cell's raw change
// to the threshold calls a regression; compare takes out the shift every
// cell shared and holds a cell only to what is left beyond it. With
// --baseline it also sets each target against mattn in both sessions.
// The cells are CPU-bound reads: the committing cells' fsyncs move with
// the disk, which the other tests of a CI run share (docs/methodology.md:
// 8 of the 9 pairings of default sessions the gate failed were such cells).
func TestAAPairPassesTheGate(t *testing.T) {
	if testing.Short() {
		t.Skip("two real sessions")
	}
	a, b := sessionPair(t, "--targets", "mattn,modernc,zombiezen,crawshaw,ncruces",
		"--workloads", "SimpleQueryRow,PreparedQueryRow,AutoQueryRow", "--count", "6")
	paths := []string{a, b}
	var out, errb bytes.Buffer
	code := Main(context.Background(),
		[]string{"compare", "--fail-over", "5%", "--baseline", "mattn", paths[0], paths[1]}, fakeEnv(&out, &errb))
	if code != ExitOK {
		t.Fatalf("an A/A pair failed the gate: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	for _, want := range []string{"every cell alike: ", "drift loop", "wake-ups", "ops/s ÷ mattn's, old → new",
		"crawshaw"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("compare's output lacks %q:\n%s", want, out.String())
		}
	}
}
