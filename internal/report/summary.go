// Package report turns one session's results into what people read:
// per-cell summaries computed with golang.org/x/perf/benchmath; tables in the
// style of the classic SQL-Benchmark results (rows = workloads, columns =
// drivers) as text and Markdown; each target's ratio to a baseline with its
// bootstrap interval and verdict at a resolution; CSV and JSON records; a
// self-contained HTML report and PNG files of its charts (package charts);
// derived views (database/sql overhead, distance to the transport floor,
// scaling, where the time goes). The comparison of two sessions is package
// compare, the studies' published figures package published (set as Parts).
package report

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/redact"
)

// Confidence is the confidence level sqlbench asks for. The intervals are
// distribution-free (order statistics around the median), which needs at
// least 6 runs at 95%; with fewer, Summarize falls back to the widest
// interval the runs allow, [min, max], whose real confidence (93.75% at 5
// runs, 87.5% at 4) is kept in Summary.Ops.Confidence and printed.
const Confidence = 0.95

// SummarizeValues returns benchmath's median and confidence interval of vals at
// Confidence, or at the highest confidence the sample size allows.
func SummarizeValues(vals []float64) benchmath.Summary {
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
	// Stats holds every statistic of every unit, by unit as written
	// (ns/op, ops/s, B/op, ...).
	Stats map[string]Stat
	// OpsRuns is ops/s of each run, in the order the runs were written:
	// run i of two cells of one session ran in the same passes of its
	// interleaved schedule, so they pair (published.For's ratios).
	OpsRuns []float64
	// Values is every run's value of every unit, by unit, in the order
	// the runs were written.
	Values map[string][]float64
	// RunSessions is the session id of each run of OpsRuns ("" for a
	// file without one): runs of two cells pair by pass only within one
	// session (Ratio).
	RunSessions []string
	// Config is the file configuration the cell's first run ran under.
	Config []Config
	// row and col cache Row and Column.
	row, col string
}

// Config is one configuration line of a results file.
type Config struct{ Key, Value string }

// Stat is the statistics of one unit of one cell over its runs. Median, Lo,
// Hi and Confidence come from benchmath (see Confidence); Lo and Hi are
// infinite when the runs are too few for any interval.
type Stat struct {
	N                                                  int
	Median, Mean, Min, Max, StdDev, Lo, Hi, Confidence float64
	// Decimals is the finest decimal place the runs' values are written
	// to (2 for 624.08, -3 for 1.103e+07): the precision they carry.
	Decimals int
}

// newStat summarizes vals (reordering them).
func newStat(vals []float64) Stat {
	sum := SummarizeValues(vals) // sorts vals
	st := stats.Sample{Xs: vals, Sorted: true}
	s := Stat{N: len(vals), Median: sum.Center, Lo: sum.Lo, Hi: sum.Hi, Confidence: sum.Confidence,
		Min: vals[0], Max: vals[len(vals)-1], Mean: st.Mean(), Decimals: math.MinInt}
	for _, v := range vals {
		s.Decimals = max(s.Decimals, decimals(v))
	}
	if len(vals) > 1 {
		s.StdDev = st.StdDev()
	}
	return s
}

// decimals returns the decimal place of v's last significant digit in its
// shortest representation: 2 for 624.08, 0 for 512, -3 for 1.103e+07.
func decimals(v float64) int {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return math.MinInt
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(math.Abs(v), 'e', -1, 64), "e")
	e, _ := strconv.Atoi(exp)
	digits := len(strings.ReplaceAll(mant, ".", ""))
	return digits - 1 - e
}

// roundTo rounds v to decimal place d (negative: tens, hundreds), the
// float64 nearest that decimal; v as it is when d is unknown (no run had
// a non-zero value).
func roundTo(v float64, d int) float64 {
	switch {
	case d == math.MinInt || math.IsNaN(v) || math.IsInf(v, 0):
		return v
	case d >= 0:
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', min(d, 20), 64), 64)
		return r
	default:
		p := math.Pow(10, float64(-d))
		return math.Round(v/p) * p
	}
}

// Column returns the column label of the cell: the name of its target as
// the user types it in --targets (the catalogue's; driver/api for a target
// the catalogue does not know).
func (s Summary) Column() string {
	if s.col != "" {
		return s.col
	}
	return columnOf(s.Keys["driver"], s.Keys["api"]).Name
}

// Row returns the row label of the cell: the workload and any keys other
// than db, driver and api, then its GOMAXPROCS suffix ("-4"), if any.
func (s Summary) Row() string {
	if s.row != "" {
		return s.row
	}
	_, cpu := SplitCPU(s.Name)
	return strings.Join(append([]string{s.Workload}, NameKeys(s.Name, "db", "driver", "api")...), "/") + cpu
}

// NameKeys returns the key=value parts of a benchmark name, as benchfmt
// splits it (the GOMAXPROCS suffix apart), other than those whose key is in
// skip, in order: "SimpleQuery/db=sqlite/driver=mattn/conns=4-8" skipping
// db and driver is [conns=4]. It is the one reader of a name's keys.
func NameKeys(name string, skip ...string) []string {
	_, parts := benchfmt.Name(name).Parts()
	var out []string
	for _, p := range parts {
		kv := strings.TrimPrefix(string(p), "/")
		if k, _, ok := strings.Cut(kv, "="); ok && !slices.Contains(skip, k) {
			out = append(out, kv)
		}
	}
	return out
}

// Summarize groups results by name, in order of first appearance, and
// summarizes each group.
func Summarize(rs []*benchfmt.Result) []Summary {
	type group struct {
		name     string
		base     string
		keys     map[string]string
		byUnit   map[string][]float64
		runs     int
		config   []benchfmt.Config
		sessions []string
	}
	var order []*group
	byName := map[string]*group{}
	for _, r := range rs {
		name := r.Name.String()
		g, ok := byName[name]
		if !ok {
			base, _ := r.Name.Parts()
			g = &group{
				name:   name,
				base:   string(base),
				keys:   map[string]string{},
				byUnit: map[string][]float64{},
				config: r.Config,
			}
			for _, kv := range NameKeys(name) {
				k, v, _ := strings.Cut(kv, "=")
				g.keys[k] = v
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
			if unit == "ops/s" {
				g.sessions = append(g.sessions, r.GetConfig(benchfile.KeySessionID))
			}
		}
	}
	out := make([]Summary, 0, len(order))
	seen := map[[2]string]string{}
	for _, g := range order {
		s := Summary{Name: g.name, Workload: g.base, Keys: g.keys, Runs: g.runs,
			Medians: map[string]float64{}, Stats: map[string]Stat{}, Config: fileConfig(g.config, seen)}
		s.OpsRuns = slices.Clone(g.byUnit["ops/s"])
		s.RunSessions = g.sessions
		s.Values = map[string][]float64{}
		for unit, vals := range g.byUnit {
			s.Values[unit] = slices.Clone(vals)
		}
		for unit, vals := range g.byUnit {
			st := newStat(vals)
			sum := benchmath.Summary{Center: st.Median, Lo: st.Lo, Hi: st.Hi, Confidence: st.Confidence}
			switch unit {
			case "ops/s":
				s.Ops = sum
				if len(vals) > 1 && st.Mean != 0 {
					s.CV = st.StdDev / st.Mean
				}
			case "ns/op":
				s.NsPerOp = sum
			}
			s.Medians[unit] = st.Median
			s.Stats[unit] = st
		}
		s.row, s.col = s.Row(), s.Column()
		out = append(out, s)
	}
	return out
}

// fileConfig returns the file configuration lines of cfg with passwords
// redacted; seen memoizes redacted values, which repeat in every cell.
func fileConfig(cfg []benchfmt.Config, seen map[[2]string]string) []Config {
	var out []Config
	for _, c := range cfg {
		if !c.File {
			continue
		}
		kv := [2]string{c.Key, string(c.Value)}
		v, ok := seen[kv]
		if !ok {
			v = RedactConfig(kv[0], kv[1])
			seen[kv] = v
		}
		out = append(out, Config{Key: c.Key, Value: v})
	}
	return out
}

// RedactConfig returns the value of configuration line key with the
// password of every DSN in it hidden (redact.Text). sqlbench records none;
// this is for results files written otherwise.
func RedactConfig(key, value string) string {
	return redact.Text(value)
}
