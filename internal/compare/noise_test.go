package compare

import (
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestNoiseUnitsAreNotCompared: the runner's record of what went on around
// a run (steal, page faults, GC) is the machine's, not the cell's, so
// compare leaves it out while it compares the cell's own units.
func TestNoiseUnitsAreNotCompared(t *testing.T) {
	const text = "BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 1000 100000 ns/op" +
		" 0 steal-% 3 minor-faults/op 0.002 gc/op 0 gc-cpu-sec/op\n"
	var rs []*benchfmt.Result
	r := benchfmt.NewReader(strings.NewReader(strings.Repeat(text, 4)), "noise")
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			rs = append(rs, res.Clone())
		}
	}
	c := Units("old", rs, "new", rs)
	if len(c.Units) == 0 || c.Units[0].Unit != "ns/op" && c.Units[0].Unit != "sec/op" {
		t.Fatalf("compare left out the cell's own time")
	}
	for _, unit := range []string{"steal-%", "minor-faults/op", "gc/op", "gc-cpu-sec/op"} {
		if c.Unit(unit) != nil {
			t.Errorf("compare compares %s, the machine's noise", unit)
		}
	}
}
