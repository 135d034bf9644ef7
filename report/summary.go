// Package report turns results into what people read: per-cell summaries
// computed with golang.org/x/perf/benchmath, and tables in the style of the
// classic SQL-Benchmark results (rows = workloads, columns = drivers).
package report

import (
	"bytes"
	"math"
	"strings"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// Confidence is the confidence level sqlbench asks for. The intervals are
// distribution-free (order statistics around the median), which needs at
// least 6 runs at 95%; with fewer, Summarize falls back to the widest
// interval the runs allow, [min, max], whose real confidence (93.75% at 5
// runs, 87.5% at 4) is kept in Summary.Ops.Confidence and printed.
const Confidence = 0.95

// summarize returns benchmath's median and confidence interval of vals at
// Confidence, or at the highest confidence the sample size allows.
func summarize(vals []float64) benchmath.Summary {
	sample := benchmath.NewSample(vals, &benchmath.DefaultThresholds)
	sum := benchmath.AssumeNothing.Summary(sample, Confidence)
	if len(vals) >= 2 && (math.IsInf(sum.Lo, 0) || math.IsInf(sum.Hi, 0)) {
		// [min, max] covers the median with probability 1 - 2 * 0.5^n.
		sum = benchmath.AssumeNothing.Summary(sample, 1-2*math.Pow(0.5, float64(len(vals)))-1e-9)
	}
	return sum
}

// Summary is the statistics of one cell over its runs.
type Summary struct {
	// Name is the full benchmark name; Workload its base; Keys its
	// key=value parts (db, driver, api, and any others).
	Name, Workload string
	Keys           map[string]string
	// Runs is the number of runs summarized.
	Runs int
	// Ops is ops/s: median and confidence interval (see Confidence).
	Ops benchmath.Summary
	// NsPerOp is the same for ns/op.
	NsPerOp benchmath.Summary
	// Medians of the other units, by unit.
	Medians map[string]float64
	// CV is the coefficient of variation of ops/s over the runs (standard
	// deviation over mean): the run-to-run spread; 0 with one run.
	CV float64
}

// Column returns the column label of the cell: driver/api.
func (s Summary) Column() string { return s.Keys["driver"] + "/" + s.Keys["api"] }

// Row returns the row label of the cell: the workload and any keys other
// than db, driver and api.
func (s Summary) Row() string {
	row := s.Workload
	for _, kv := range strings.Split(s.Name, "/")[1:] {
		k, _, _ := strings.Cut(kv, "=")
		if k != "db" && k != "driver" && k != "api" {
			row += "/" + kv
		}
	}
	return row
}

// Summarize groups results by name, in order of first appearance, and
// summarizes each group.
func Summarize(rs []*benchfmt.Result) []Summary {
	type group struct {
		name   string
		base   string
		keys   map[string]string
		byUnit map[string][]float64
		runs   int
	}
	var order []*group
	byName := map[string]*group{}
	for _, r := range rs {
		name := r.Name.String()
		g, ok := byName[name]
		if !ok {
			base, parts := r.Name.Parts()
			g = &group{name: name, base: string(base), keys: map[string]string{}, byUnit: map[string][]float64{}}
			for _, p := range parts {
				k, v, ok := bytes.Cut(bytes.TrimPrefix(p, []byte("/")), []byte("="))
				if ok {
					g.keys[string(k)] = string(v)
				}
			}
			byName[name] = g
			order = append(order, g)
		}
		g.runs++
		for _, v := range r.Values {
			unit, val := v.Unit, v.Value
			if v.OrigUnit != "" { // keep the units as written (ns/op, not sec/op)
				unit, val = v.OrigUnit, v.OrigValue
			}
			g.byUnit[unit] = append(g.byUnit[unit], val)
		}
	}
	out := make([]Summary, 0, len(order))
	for _, g := range order {
		s := Summary{Name: g.name, Workload: g.base, Keys: g.keys, Runs: g.runs, Medians: map[string]float64{}}
		for unit, vals := range g.byUnit {
			sum := summarize(vals)
			switch unit {
			case "ops/s":
				s.Ops = sum
				if st := (stats.Sample{Xs: vals}); len(vals) > 1 && st.Mean() != 0 {
					s.CV = st.StdDev() / st.Mean()
				}
			case "ns/op":
				s.NsPerOp = sum
			}
			s.Medians[unit] = sum.Center
		}
		out = append(out, s)
	}
	return out
}
