package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// Alpha is the significance level of comparisons.
const Alpha = 0.05

// Change is one cell compared between two sets of results.
type Change struct {
	Name string
	// Old and New are the medians; OldN and NewN the run counts.
	Old, New   float64
	OldN, NewN int
	// P is the Mann-Whitney U test's p-value (benchmath.AssumeNothing).
	P float64
	// Delta is New/Old - 1.
	Delta float64
	// Significant is P < Alpha.
	Significant bool
	// Worse is set when the change goes the wrong way for the unit.
	Worse bool
}

// Comparison is two sets of results compared cell by cell in one unit.
type Comparison struct {
	OldLabel, NewLabel string
	// Unit is the unit compared; HigherIsBetter its direction.
	Unit           string
	HigherIsBetter bool
	Changes        []Change
	// GeoOld and GeoNew are the geometric means of the medians of the
	// cells in both sets.
	GeoOld, GeoNew float64
	// OnlyOld and OnlyNew name the cells present in one set only.
	OnlyOld, OnlyNew []string
}

// Compare compares old and new cell by cell in ops/s, or in ns/op when
// either set lacks ops/s (a plain go test -bench file).
func Compare(oldLabel string, old []*benchfmt.Result, newLabel string, new []*benchfmt.Result) *Comparison {
	unit := "ops/s"
	if !hasUnit(old, unit) || !hasUnit(new, unit) {
		unit = "ns/op"
	}
	return CompareUnit(oldLabel, old, newLabel, new, unit)
}

// CompareUnit compares old and new cell by cell in unit, a unit whose
// lower values are better unless it is a rate ("/s"); cells without it are
// listed as present in one set only.
func CompareUnit(oldLabel string, old []*benchfmt.Result, newLabel string, new []*benchfmt.Result, unit string) *Comparison {
	oldOrder, oldVals := sampleValues(old)
	newOrder, newVals := sampleValues(new)
	c := &Comparison{OldLabel: oldLabel, NewLabel: newLabel, Unit: unit, HigherIsBetter: strings.HasSuffix(unit, "/s")}
	var olds, news []float64
	for _, name := range oldOrder {
		ov := oldVals[name][unit]
		nv, ok := newVals[name][unit]
		if len(ov) == 0 || !ok || len(nv) == 0 {
			c.OnlyOld = append(c.OnlyOld, name)
			continue
		}
		os := benchmath.NewSample(ov, &benchmath.DefaultThresholds)
		ns := benchmath.NewSample(nv, &benchmath.DefaultThresholds)
		cmp := benchmath.AssumeNothing.Compare(os, ns)
		ch := Change{Name: name,
			Old:  benchmath.AssumeNothing.Summary(os, Confidence).Center,
			New:  benchmath.AssumeNothing.Summary(ns, Confidence).Center,
			OldN: cmp.N1, NewN: cmp.N2, P: cmp.P, Significant: cmp.P < Alpha}
		if ch.Old != 0 {
			ch.Delta = ch.New/ch.Old - 1
		}
		ch.Worse = c.HigherIsBetter && ch.Delta < 0 || !c.HigherIsBetter && ch.Delta > 0
		c.Changes = append(c.Changes, ch)
		if ch.Old > 0 && ch.New > 0 {
			olds, news = append(olds, ch.Old), append(news, ch.New)
		}
	}
	for _, name := range newOrder {
		if len(oldVals[name][unit]) == 0 {
			c.OnlyNew = append(c.OnlyNew, name)
		}
	}
	if len(olds) > 0 {
		c.GeoOld, c.GeoNew = stats.GeoMean(olds), stats.GeoMean(news)
	}
	return c
}

// sampleValues groups the values of results by name and unit, names in
// order of first appearance.
func sampleValues(rs []*benchfmt.Result) ([]string, map[string]map[string][]float64) {
	var order []string
	vals := map[string]map[string][]float64{}
	for _, r := range rs {
		name := r.Name.String()
		byUnit, ok := vals[name]
		if !ok {
			byUnit = map[string][]float64{}
			vals[name] = byUnit
			order = append(order, name)
		}
		for _, v := range r.Values {
			unit, val := v.Unit, v.Value
			if v.OrigUnit != "" {
				unit, val = v.OrigUnit, v.OrigValue
			}
			byUnit[unit] = append(byUnit[unit], val)
		}
	}
	return order, vals
}

// hasUnit reports whether any result of rs has unit (as written).
func hasUnit(rs []*benchfmt.Result, unit string) bool {
	_, vals := sampleValues(rs)
	for _, byUnit := range vals {
		if len(byUnit[unit]) > 0 {
			return true
		}
	}
	return false
}

// TimeShareUnits returns the units of the time decomposition, in the
// order comparisons show them.
func TimeShareUnits() []string { return []string{clientCPUUnit, serverCPUUnit, waitUnit} }

// HasUnit reports whether any result of rs carries unit.
func HasUnit(rs []*benchfmt.Result, unit string) bool { return hasUnit(rs, unit) }

// Regressions returns the significant changes for the worse by more than
// threshold (0.05 is 5%).
func (c *Comparison) Regressions(threshold float64) []Change {
	var out []Change
	for _, ch := range c.Changes {
		if ch.Significant && ch.Worse && math.Abs(ch.Delta) > threshold {
			out = append(out, ch)
		}
	}
	return out
}

// CanBeSignificant reports whether the Mann-Whitney U test that Compare
// runs (benchmath.AssumeNothing) can find any difference between n1 and n2
// runs significant at Alpha: whether the p-value of two samples that do not
// overlap at all, the smallest the test gives for those sizes, is below
// Alpha.
func CanBeSignificant(n1, n2 int) bool {
	if n1 <= 0 || n2 <= 0 {
		return false
	}
	v1, v2 := make([]float64, n1), make([]float64, n2)
	for i := range v1 {
		v1[i] = float64(i + 1)
	}
	for i := range v2 {
		v2[i] = float64(n1 + i + 1)
	}
	s1 := benchmath.NewSample(v1, &benchmath.DefaultThresholds)
	s2 := benchmath.NewSample(v2, &benchmath.DefaultThresholds)
	return benchmath.AssumeNothing.Compare(s1, s2).P < Alpha
}

// MinRuns returns the fewest runs, the same number on both sides, with
// which a comparison can find a change significant (CanBeSignificant).
func MinRuns() int {
	n := 1
	for !CanBeSignificant(n, n) {
		n++
	}
	return n
}

// Undecidable returns the changes whose run counts are too few for the
// test ever to find them significant (CanBeSignificant).
func (c *Comparison) Undecidable() []Change {
	var out []Change
	for _, ch := range c.Changes {
		if !CanBeSignificant(ch.OldN, ch.NewN) {
			out = append(out, ch)
		}
	}
	return out
}

// DeltaString formats the change: "~" when not significant, else the
// signed percentage.
func (ch Change) DeltaString() string {
	if !ch.Significant {
		return "~"
	}
	return fmt.Sprintf("%+.2f%%", 100*ch.Delta)
}

// Text writes the comparison as a table: per cell the old and new medians
// with their run counts, the change (~ when not significant) and the
// p-value, then the geometric mean.
func (c *Comparison) Text(w io.Writer) error {
	better := "lower"
	if c.HigherIsBetter {
		better = "higher"
	}
	fmt.Fprintf(w, "%s (%s is better): median over the runs; change in the median, ~ when not significant (Mann-Whitney U test, alpha %g)\n", c.Unit, better, Alpha)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\t%s\t%s\tchange\tp\t\n", c.OldLabel, c.NewLabel)
	for _, ch := range c.Changes {
		fmt.Fprintf(tw, "%s\t%s n=%d\t%s n=%d\t%s\tp=%.3f\t\n", ch.Name, FormatValue(ch.Old), ch.OldN, FormatValue(ch.New), ch.NewN, ch.DeltaString(), ch.P)
	}
	if c.GeoOld > 0 {
		fmt.Fprintf(tw, "geomean\t%s\t%s\t%+.2f%%\t\t\n", FormatValue(c.GeoOld), FormatValue(c.GeoNew), 100*(c.GeoNew/c.GeoOld-1))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	for _, n := range c.OnlyOld {
		fmt.Fprintf(w, "only in %s: %s\n", c.OldLabel, n)
	}
	for _, n := range c.OnlyNew {
		fmt.Fprintf(w, "only in %s: %s\n", c.NewLabel, n)
	}
	return nil
}
