package report

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestSpinVariantColumns: spin variants (driver=mattn+spin=2us, and of a
// version, driver=mattn@v1.14.22+spin=2us) are named as on the command
// line and ranked with their target, before a target later in the
// catalogue; their spin row marks no best (it is the user's setting), and
// the base has none.
func TestSpinVariantColumns(t *testing.T) {
	var rs []*benchfmt.Result
	for i := range 6 {
		for _, c := range []struct {
			driver string
			ops    float64
			spin   float64
		}{{"modernc", 900, 0}, {"mattn+spin=2us", 800, 2000}, {"mattn", 1000, 0},
			{"mattn@v1.14.22+spin=1us", 850, 1000}} {
			r := result("Q/db=sqlite/driver="+c.driver+"/api=sql", c.ops+float64(i))
			if c.spin > 0 {
				r.Values = append(r.Values, benchfmt.Value{Value: c.spin + float64(i), Unit: "spin-ns/op"})
			}
			rs = append(rs, r)
		}
	}
	r := New(rs, nil, nil)
	tb := r.Tables()[0]
	if want := []string{"mattn", "mattn+spin=2us", "mattn@v1.14.22+spin=1us", "modernc"}; strings.Join(tb.Cols,
		",") != strings.Join(want, ",") {
		t.Errorf("columns %q, want %q", tb.Cols, want)
	}
	var text bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	var spinLine string
	for _, l := range strings.Split(text.String(), "\n") {
		if _, after, ok := strings.Cut(l, " spin "); ok {
			spinLine = after
		}
	}
	if f := strings.Fields(spinLine); len(f) != 4 || f[0] != "-" || f[3] != "-" || strings.Contains(spinLine, "*") {
		t.Errorf("spin row %q: want - for mattn and modernc, the two spins, no best mark\n%s", spinLine, text.String())
	}
}
