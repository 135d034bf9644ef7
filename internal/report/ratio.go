package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// How a Ratio's interval was computed.
const (
	// RatioPaired: the two cells ran in the same passes of one session
	// (the same session-id on every run, as many runs each), so run i of
	// the one pairs with run i of the other; the ratio is the median of
	// the per-pass ratios, its interval benchmath's order-statistic
	// interval of that median (distribution-free, as every cell's own).
	RatioPaired = "paired"
	// RatioUnpaired: the cells did not share passes (different sessions,
	// unequal run counts, files without session ids); the ratio is the
	// ratio of the medians, its interval the percentile bootstrap of it
	// (bootstrapResamples resamples of each cell's runs, a fixed seed).
	RatioUnpaired = "unpaired"
)

// bootstrapResamples and bootstrapSeed fix the unpaired bootstrap, so that
// a report is the same every time it is written.
const (
	bootstrapResamples = 10000
	bootstrapSeed      = 20260101
)

// Ratio is one target's operations per second over the baseline's on one
// row of a table, with its confidence interval.
type Ratio struct {
	Row, Col, Baseline string
	// Ratio is the median ratio; Lo and Hi bound it at Confidence (Lo and
	// Hi infinite when the runs are too few for any interval).
	Ratio, Lo, Hi, Confidence float64
	// How is RatioPaired or RatioUnpaired; N the number of pairs (paired)
	// or the smaller run count (unpaired).
	How string
	N   int
}

// Clear reports whether the interval lies wholly on one side of 1: the
// runs support calling the target faster (Ratio > 1) or slower.
func (q Ratio) Clear() bool {
	return !math.IsInf(q.Lo, 0) && !math.IsInf(q.Hi, 0) && (q.Lo > 1 || q.Hi < 1)
}

// Kind is the ratio's verdict kind at resolution p (Classify): Equivalent
// when its interval lies within [1/(1+p), 1+p], else Faster or Slower when
// it excludes 1, else Undecided.
func (q Ratio) Kind(p float64) string { return Classify(q.Lo, q.Hi, p) }

// Verdict says what the ratio supports at resolution p: "faster",
// "slower", "equivalent", or "undecided" with the runs per cell that would
// settle it where the interval gives an estimate ("undecided, ~24 runs":
// see Settle).
func (q Ratio) Verdict(p float64) string { return VerdictText(q.Kind(p), q.Settle(p), q.N) }

// Settle estimates the runs per cell (--count) at which an undecided
// ratio would be decided at resolution p: its interval, narrowing about
// its median as 1/√runs, excluding 1 or fitting within [1/(1+p), 1+p],
// whichever comes first (SettleRuns). It is -1 beyond MaxSettleRuns, 0
// where there is no interval to estimate from or the ratio is decided.
func (q Ratio) Settle(p float64) int { return SettleRuns(q.Ratio, q.Lo, q.Hi, q.N, p) }

// BaselineOf returns the baseline target of t: want when t has that
// column, else, when want is "", the first column in catalogue order (the
// default baseline); ok is false when t cannot have one (want is not a
// column of it, or it has one column only).
func (t *Table) BaselineOf(want string) (string, bool) {
	if len(t.Cols) < 2 {
		return "", false
	}
	if want == "" {
		return t.Cols[0], true
	}
	return want, slices.Contains(t.Cols, want)
}

// Ratios returns, for every row of t and every column other than
// baseline that has a value there, its ops/s over baseline's, in row then
// column order; nil when baseline is not a column of t.
func (t *Table) Ratios(baseline string) []Ratio {
	if !slices.Contains(t.Cols, baseline) {
		return nil
	}
	var out []Ratio
	for _, row := range t.Rows {
		b := t.Cell(row, baseline)
		if b == nil {
			continue
		}
		for _, col := range t.Cols {
			if c := t.Cell(row, col); c != nil && col != baseline {
				if q, ok := ratioOf(c, b); ok {
					q.Row, q.Col, q.Baseline = row, col, baseline
					out = append(out, q)
				}
			}
		}
	}
	return out
}

// ratioOf is n's ops/s over d's; ok is false when either has no run with
// a positive value.
func ratioOf(n, d *Cell) (Ratio, bool) {
	if len(n.OpsRuns) == 0 || len(d.OpsRuns) == 0 || slices.Min(d.OpsRuns) <= 0 || slices.Min(n.OpsRuns) < 0 {
		return Ratio{}, false
	}
	if conf := max(lookConfidence(n), lookConfidence(d)); conf > 0 {
		return sequentialRatio(n, d, conf), true // a budgeted session's, at its looks' confidence
	}
	if paired(n, d) {
		ratios := make([]float64, len(n.OpsRuns))
		for i := range ratios {
			ratios[i] = n.OpsRuns[i] / d.OpsRuns[i]
		}
		sum := SummarizeValues(ratios)
		return Ratio{
			Ratio:      sum.Center,
			Lo:         sum.Lo,
			Hi:         sum.Hi,
			Confidence: sum.Confidence,
			How:        RatioPaired,
			N:          len(ratios),
		}, true
	}
	q := Ratio{Ratio: Median(n.OpsRuns) / Median(d.OpsRuns), Lo: math.Inf(-1), Hi: math.Inf(1), How: RatioUnpaired,
		N: min(len(n.OpsRuns), len(d.OpsRuns))}
	if q.N >= 2 {
		q.Lo, q.Hi = BootstrapRatio(n.OpsRuns, d.OpsRuns)
		q.Confidence = Confidence
	}
	return q, true
}

// paired reports whether n's and d's runs pair by pass: as many runs each,
// every run with a session id, run i of both of the same session.
func paired(n, d *Cell) bool {
	if len(n.OpsRuns) != len(d.OpsRuns) || len(n.RunSessions) != len(n.OpsRuns) ||
		!slices.Equal(n.RunSessions, d.RunSessions) {
		return false
	}
	return !slices.Contains(n.RunSessions, "")
}

// Median returns the median of xs (not reordering them).
func Median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// medianInPlace returns the median of xs, sorting them.
func medianInPlace(xs []float64) float64 {
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// BootstrapRatio is the percentile bootstrap interval at Confidence of
// Median(n) / Median(d) (bootstrapRatioAt).
func BootstrapRatio(n, d []float64) (lo, hi float64) { return bootstrapRatioAt(n, d, Confidence) }

// bootstrapRatioAt is the percentile bootstrap interval at conf of
// Median(n) / Median(d): each resample draws len(n) runs of n and len(d)
// of d with replacement, from a generator of a fixed seed.
func bootstrapRatioAt(n, d []float64, conf float64) (lo, hi float64) {
	n, d = slices.Sorted(slices.Values(n)), slices.Sorted(slices.Values(d)) // whatever order the runs came in
	rng := rand.New(rand.NewPCG(bootstrapSeed, uint64(len(n))<<32|uint64(len(d))))
	rs := make([]float64, bootstrapResamples)
	bn, bd := make([]float64, len(n)), make([]float64, len(d))
	for i := range rs {
		for j := range bn {
			bn[j] = n[rng.IntN(len(n))]
		}
		for j := range bd {
			bd[j] = d[rng.IntN(len(d))]
		}
		rs[i] = medianInPlace(bn) / medianInPlace(bd)
	}
	slices.Sort(rs)
	a := (1 - conf) / 2
	return rs[int(math.Floor(a*float64(len(rs))))], rs[int(math.Ceil((1-a)*float64(len(rs))))-1]
}

// FormatRatioInterval formats a ratio's interval: "1.02–1.15×", or "-"
// when there is none.
func FormatRatioInterval(q Ratio) string {
	if math.IsInf(q.Lo, 0) || math.IsInf(q.Hi, 0) {
		return "-"
	}
	return strconv.FormatFloat(q.Lo, 'f', 2, 64) + "–" + FormatRatio(q.Hi)
}

// ratioGrids is the ratio table of each family table that has a baseline
// (Table.BaselineOf of want): per row and target, its ops/s over the
// baseline's with its interval, how it was computed and the verdict.
func ratioGrids(tables []*Table, want string, p float64) []textlayout.Table {
	var out []textlayout.Table
	for _, t := range tables {
		base, ok := t.BaselineOf(want)
		if !ok {
			continue
		}
		qs := t.Ratios(base)
		if len(qs) == 0 {
			continue
		}
		var d Decisions
		// One way of computing for every row is said once, in the title,
		// so that the verdicts have the room.
		how := howLabel(qs[0])
		for _, q := range qs {
			if howLabel(q) != how {
				how = ""
			}
		}
		g := textlayout.Table{Title: fmt.Sprintf("%s · %s · ops/s ÷ %s's (baseline)", t.Family, t.DB, base),
			Header: []string{
				"workload",
				"target",
				"ratio",
				"interval",
				"how",
				"verdict",
			}, Left: 2, Groups: true, LeftLast: true}
		if how != "" {
			g.Title += ", " + how
			g.Header = slices.Delete(g.Header, 4, 5)
		}
		last := ""
		for _, q := range qs {
			row := q.Row
			if row == last {
				row = ""
			}
			last = q.Row
			cells := []textlayout.Cell{
				textlayout.Label(row),
				textlayout.Label(q.Col),
				{Text: FormatRatio(q.Ratio)},
				{Text: FormatRatioInterval(q)},
			}
			if how == "" {
				cells = append(cells, textlayout.Cell{Text: howLabel(q)})
			}
			g.Rows = append(g.Rows, append(cells, textlayout.Label(q.Verdict(p))))
			d.Add(q.Kind(p))
		}
		g.Notes = append(g.Notes, fmt.Sprintf("%s at %s", d, FormatResolution(p)))
		out = append(out, g)
	}
	return out
}

// howLabel is how a ratio was computed and its interval's level:
// "paired 96.8%".
func howLabel(q Ratio) string {
	if q.Confidence == 0 {
		return q.How
	}
	return q.How + " " + confPct(q.Confidence)
}

// confPct formats a confidence level as a percentage, rounded down to a
// tenth: "96.8%".
func confPct(c float64) string {
	return strconv.FormatFloat(math.Floor(c*1000)/10, 'f', -1, 64) + "%"
}

// ratioText explains the ratio tables: what the ratio is, how its
// interval was computed, what the verdict means.
func ratioText(want string, p float64) string {
	base := "the first target of each table in catalogue order (--baseline TARGET picks another)"
	if want != "" {
		base = want
	}
	lo, hi := strconv.FormatFloat(1/(1+p), 'f', 3, 64), strconv.FormatFloat(1+p, 'f', 3, 64)
	return "Each target's operations per second divided by the baseline's, " + base +
		", per workload: the median ratio and its confidence interval. " +
		"paired: the two ran in the same passes of one session, so the ratio is the median of the per-pass ratios " +
		"and its interval the distribution-free order-statistic interval of that median " +
		"(golang.org/x/perf/benchmath; 95%, or [min, max] at the level the runs allow below 6 runs); " +
		"unpaired: the ratio of the medians, its interval a 95% percentile bootstrap (10,000 resamples, " +
		"a fixed seed). faster or slower when the whole interval lies on one side of 1; equivalent when it " +
		"holds 1 and lies wholly within the resolution " + FormatResolution(p) +
		" (between " + lo + "× and " + hi + "×, --resolution sets it): no difference that matters; " +
		"else undecided, with the runs per cell (--count) that would likely decide it, excluding 1 or fitting " +
		"within the resolution, whichever comes first, estimated from the interval narrowing as 1/√runs about " +
		"its median."
}
