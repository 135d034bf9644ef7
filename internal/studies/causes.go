package studies

import (
	"fmt"
	"slices"
)

// The status of a cause.
const (
	// Measured: the cause was measured here (the published program run
	// on this machine beside sqlbench, or sqlbench at another size), and
	// its Low and High (or Ranges) give the ratios measured.
	Measured = "measured"
	// Hypothesis: the cause is argued, not measured here (what it names
	// cannot be run here, or no ratio was recorded): it is printed as a
	// hypothesis and explains no disagreement.
	Hypothesis = "hypothesis"
)

// The driver versions a cause was measured with (Cause.Versions), and a
// comparison ran at (CauseOf).
const (
	// VersionsPinned: the versions sqlbench's go.mod pins (reproduce
	// --versions pinned), every side's catalogue target.
	VersionsPinned = "pinned"
	// VersionsPeriod: the study's own (reproduce's default, --versions
	// published), where a side runs a version target of its driver.
	VersionsPeriod = "period"
)

// Cause is a known or likely reason why some of a study's comparisons
// differ here from the published ratios, with what was measured for it.
//
// A measured cause applies to a comparison of one of its tests and pairs
// only when the comparison ran at the driver versions the cause was
// measured with (Versions) and its measured interval overlaps the ratio
// range measured for the cause (Range): the measured ratio, within its own
// uncertainty, is where the cause put it. A ratio outside it, or measured
// with other versions, is a disagreement with no known cause, whatever the
// cause's text says.
type Cause struct {
	// Tests are the test names it applies to; Pairs the [numerator,
	// denominator] side names. Both are required (TestCausesAreMeasured).
	Tests []string    `json:"tests"`
	Pairs [][2]string `json:"pairs"`
	// Status is Measured or Hypothesis.
	Status string `json:"status"`
	// Low and High bound the ratio measured here for the cause: the
	// published program's own ratio on this machine over the rounds and
	// sizes it was run at (Sizes), or, for a cause of the run's size,
	// sqlbench's at the smaller size. Ranges, when one matches a
	// comparison, give its own instead (a cause measured test by test).
	Low    float64 `json:"low,omitempty"`
	High   float64 `json:"high,omitempty"`
	Ranges []Range `json:"ranges,omitempty"`
	// Sizes says at what sizes (scale, rows, operations a run) the ratios
	// were measured; Date when (the text's own date, else the day it was
	// recorded).
	Sizes string `json:"sizes,omitempty"`
	Date  string `json:"date,omitempty"`
	// Versions are the driver versions it was measured with:
	// VersionsPinned or VersionsPeriod (required of a measured cause).
	Versions string `json:"versions,omitempty"`
	// Unmeasured says, for a hypothesis, why it is not measured here.
	Unmeasured string `json:"unmeasured,omitempty"`
	// Text says the cause and where it is measured or argued
	// (docs/reproduce.md).
	Text string `json:"text"`
}

// Range is the ratio range measured for a cause on one test, or one pair,
// or one pair on one test (an empty field: any of the cause's).
type Range struct {
	Test string    `json:"test,omitempty"`
	Pair [2]string `json:"pair,omitzero"`
	Low  float64   `json:"low"`
	High float64   `json:"high"`
}

// Names reports whether the cause names c's test and pair.
func (k *Cause) Names(c Comparison) bool {
	return slices.Contains(k.Tests, c.Test.Name) && slices.Contains(k.Pairs, [2]string{c.Num.Name, c.Den.Name})
}

// Range returns the ratio range measured for the cause on c: the first of
// Ranges that matches it, else Low and High; false when there is none
// (a hypothesis, or a cause that measured other comparisons than c).
func (k *Cause) Range(c Comparison) (low, high float64, ok bool) {
	if k.Status == Hypothesis {
		return 0, 0, false
	}
	pair := [2]string{c.Num.Name, c.Den.Name}
	for _, r := range k.Ranges {
		if (r.Test == "" || r.Test == c.Test.Name) && (r.Pair == [2]string{} || r.Pair == pair) {
			return r.Low, r.High, r.Low > 0 && r.High >= r.Low
		}
	}
	return k.Low, k.High, k.Low > 0 && k.High >= k.Low
}

// Explanation is what a study knows of one disagreement.
type Explanation struct {
	// Cause is the measured cause that applies (nil: none does).
	Cause *Cause
	// Missed are the measured causes that name the comparison but whose
	// range the measured interval does not reach.
	Missed []*Cause
	// OtherVersions are the measured causes that name it but were
	// measured with other driver versions than it ran at.
	OtherVersions []*Cause
	// Hypotheses are the hypotheses that name it.
	Hypotheses []*Cause
}

// CauseOf returns what the study knows of comparison c measured at the
// interval [lo, hi] with driver versions (VersionsPinned or
// VersionsPeriod): the first measured cause naming c, measured with those
// versions, whose range the interval overlaps; the measured ones it
// misses; those measured with other versions; and the hypotheses naming
// c.
func (s *Study) CauseOf(c Comparison, lo, hi float64, versions string) Explanation {
	var e Explanation
	for i := range s.Causes {
		k := &s.Causes[i]
		if !k.Names(c) {
			continue
		}
		if k.Status == Hypothesis {
			e.Hypotheses = append(e.Hypotheses, k)
			continue
		}
		if k.Versions != versions {
			e.OtherVersions = append(e.OtherVersions, k)
			continue
		}
		low, high, ok := k.Range(c)
		switch {
		case !ok:
			continue
		case lo <= high && hi >= low && e.Cause == nil:
			e.Cause = k
		case lo > high || hi < low:
			e.Missed = append(e.Missed, k)
		}
	}
	return e
}

// RangeText names the range measured for the cause on c: "0.63-0.74×".
func (k *Cause) RangeText(c Comparison) string {
	low, high, _ := k.Range(c)
	return FormatRange(low, high)
}

// FormatRange writes a ratio range, "0.63-0.74×", "117-155×", or one ratio
// when low and high are one: "2.20×".
func FormatRange(low, high float64) string {
	f := func(v float64) string {
		if v >= 10 {
			return fmt.Sprintf("%.0f", v)
		}
		return fmt.Sprintf("%.2f", v)
	}
	if f(low) == f(high) {
		return f(low) + "×"
	}
	return f(low) + "-" + f(high) + "×"
}
