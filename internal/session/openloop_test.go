package session

import (
	"math"
	"strings"
	"testing"
)

// TestMergeSumsOpenLoopCounts: an open-loop run's late and skipped counts
// are the sums of its slices', its schedule lag per operation the slices'
// weighted by their operations; its time series is one session fact
// holding every slice's intervals in order.
func TestMergeSumsOpenLoopCounts(t *testing.T) {
	var sl []Slice
	for _, line := range []string{
		"BenchmarkX 100 1000 ns/op 1000 lag-ns/op 2 late 1 skipped",
		"BenchmarkX 300 1000 ns/op 3000 lag-ns/op 5 late 0 skipped",
	} {
		res, err := parseSlice([]string{"open-loop-progress: X t=1s ops/s=1", line}, "X")
		if err != nil {
			t.Fatal(err)
		}
		sl = append(sl, res)
	}
	res, err := (&runSum{slices: sl}).merge("X")
	if err != nil {
		t.Fatal(err)
	}
	for unit, want := range map[string]float64{"late": 7, "skipped": 1, "lag-sec/op": 2.5e-6} {
		// benchfmt tidies lag-ns/op into seconds, as it does ns/op.
		if got, ok := res.Value(unit); !ok || math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s = %g (%v), want %g", unit, got, ok, want)
		}
	}
	if len(sl[0].Progress) != 1 || !strings.HasPrefix(sl[0].Progress[0], "X t=1s") {
		t.Errorf("progress lines %q, want the interval without its key", sl[0].Progress)
	}
}
