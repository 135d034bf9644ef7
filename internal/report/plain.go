package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// Plain reports whether results hold no cell of sqlbench: no name has the
// db= and driver= keys of a sqlbench result (a plain go test -bench file).
// Such results have no targets, workloads or ops/s to tabulate.
func Plain(rs []*benchfmt.Result) bool {
	for _, r := range rs {
		if name := "/" + r.Name.String(); strings.Contains(name, "/db=") && strings.Contains(name, "/driver=") {
			return false
		}
	}
	return true
}

// PlainNote says in one line what the report of Plain results shows and
// what it cannot.
const PlainNote = "not sqlbench results: medians per benchmark only; no targets, ops/s or verdicts (compare: benchstat)"

// PlainText writes Plain results as one table: per benchmark (in order of
// first appearance) and unit, the median over the runs, its confidence
// interval as ± percent of it (benchmath, assuming nothing, as summarize
// gives it; "-" for one run), that interval's confidence and the run count.
func PlainText(w io.Writer, rs []*benchfmt.Result) error {
	var names []string
	vals := map[string]map[string][]float64{}
	unitsOf := map[string][]string{}
	for _, r := range rs {
		name := r.Name.String()
		if vals[name] == nil {
			vals[name] = map[string][]float64{}
			names = append(names, name)
		}
		for _, v := range r.Values {
			unit, val := v.Unit, v.Value
			if v.OrigUnit != "" { // as written: ns/op, not benchfmt's sec/op
				unit, val = v.OrigUnit, v.OrigValue
			}
			if _, ok := vals[name][unit]; !ok {
				unitsOf[name] = append(unitsOf[name], unit)
			}
			vals[name][unit] = append(vals[name][unit], val)
		}
	}
	var rows [][]string
	for _, name := range names {
		for i, unit := range unitsOf[name] {
			sum := SummarizeValues(vals[name][unit])
			label := name
			if i > 0 {
				label = ""
			}
			interval, conf := "-", "-" // one run: no interval
			if n := len(vals[name][unit]); n > 1 {
				interval, conf = spreadPct(sum), fmt.Sprintf("%.1f%%", 100*sum.Confidence)
			}
			rows = append(rows, []string{label, unit, MeasureOf(unit).Format(sum.Center), interval, conf,
				strconv.Itoa(len(vals[name][unit]))})
		}
	}
	header := []string{"benchmark", "unit", "median", "interval", "confidence", "runs"}
	if err := textlayout.Labels(header, rows).WriteColumns(w); err != nil {
		return fmt.Errorf("write the table: %w", err)
	}
	return nil
}

// spreadPct is a summary's interval as ± percent of its center: the larger
// side, "±∞" when the runs are too few for an interval, "0%" for none.
func spreadPct(s benchmath.Summary) string {
	if s.Center == 0 {
		return "-"
	}
	d := max(s.Hi-s.Center, s.Center-s.Lo) / s.Center
	if d != d || d > 1e300 {
		return "±∞"
	}
	return fmt.Sprintf("±%.0f%%", 100*d)
}
