package benchfile

import (
	"math"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchunit"
)

// noiseDigits is the significant digits kept of a value whose resolution
// is not known: float64 arithmetic leaves its error beyond the 15th.
const noiseDigits = 12

// Precise returns r's values rounded to the precision they were measured
// with, so that a file says 624.08 B/op, not 624.0800000000002:
//
//   - a value per operation (a unit ending in "/op": ns/op, B/op,
//     allocs/op, the latency percentiles, the time decomposition) is a
//     count over r.Iters operations, so it is known to 1/Iters: rounded to
//     the decimals of that step (3 decimals for 1,000 operations);
//   - a rate (a unit ending in "/s": ops/s, MB/s) is derived from the
//     run's total time, a whole number of nanoseconds: rounded to as many
//     significant digits as that total has;
//   - any other value (peak-RSS-B, a count) keeps its integer as is, and
//     a fraction to 12 significant digits.
//
// Values are rewritten in place; r is returned.
func Precise(r *benchfmt.Result) *benchfmt.Result {
	totalNs := 0.0
	for _, v := range r.Values {
		if unitOf(v) == "ns/op" {
			totalNs = math.Round(valueOf(v) * float64(r.Iters))
		}
	}
	for i := range r.Values {
		v := &r.Values[i]
		unit := unitOf(*v)
		x := valueOf(*v)
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0) || x == 0:
			continue
		case strings.HasSuffix(unit, "/op") && r.Iters > 0:
			x = roundDecimals(x, int(math.Ceil(math.Log10(float64(r.Iters)))))
		case strings.HasSuffix(unit, "/s") && totalNs >= 1:
			x = roundSignificant(x, max(3, int(math.Floor(math.Log10(totalNs)))+1))
		case x == math.Trunc(x):
		default:
			x = roundSignificant(x, noiseDigits)
		}
		if v.OrigUnit != "" {
			v.Value *= x / v.OrigValue // the tidy unit's value, scaled alike
			v.OrigValue = x
		} else {
			v.Value = x
		}
	}
	return r
}

func unitOf(v benchfmt.Value) string {
	if v.OrigUnit != "" {
		return v.OrigUnit
	}
	return v.Unit
}

func valueOf(v benchfmt.Value) float64 {
	if v.OrigUnit != "" {
		return v.OrigValue
	}
	return v.Value
}

// roundDecimals rounds x to d decimals (d may be negative: tens, hundreds)
// and returns the float64 nearest that decimal.
func roundDecimals(x float64, d int) float64 {
	if d >= 0 {
		y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', d, 64), 64)
		return y
	}
	p := math.Pow(10, float64(-d))
	return math.Round(x/p) * p
}

// roundSignificant rounds x to n significant digits and returns the
// float64 nearest that decimal.
func roundSignificant(x float64, n int) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', n-1, 64), 64)
	return y
}

// denoise rounds r's values that are not whole to noiseDigits significant
// digits: float64's error goes, every digit a measurement can carry stays.
func denoise(r *benchfmt.Result) *benchfmt.Result {
	for i := range r.Values {
		v := &r.Values[i]
		x := valueOf(*v)
		if x == 0 || x == math.Trunc(x) || math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		y := roundSignificant(x, noiseDigits)
		if v.OrigUnit != "" {
			v.Value *= y / v.OrigValue
			v.OrigValue = y
		} else {
			v.Value = y
		}
	}
	return r
}

// zerosTidied returns r, or a copy of it whose zero values of a unit that
// benchfmt tidies (blocked-ns/op: blocked-sec/op) are in the tidied unit.
// benchfmt's reader tidies a value only when tidying changes it, so a 0
// would keep its unit as written and benchstat would set it apart from
// the same unit's other values, in a table of its own; 0 ns is 0 s, so
// the file says it in the unit the others are read in (zerosAsWritten
// reads it back).
func zerosTidied(r *benchfmt.Result) *benchfmt.Result {
	var out *benchfmt.Result
	for i, v := range r.Values {
		unit := unitOf(v)
		if valueOf(v) != 0 || !strings.HasSuffix(unit, "ns/op") {
			continue
		}
		if _, tidy := benchunit.Tidy(1, unit); tidy != unit {
			if out == nil {
				out = r.Clone()
			}
			out.Values[i] = benchfmt.Value{Value: 0, Unit: tidy}
		}
	}
	if out == nil {
		return r
	}
	return out
}

// zerosAsWritten gives a zero written in a tidied time unit (zerosTidied)
// the unit sqlbench writes the others in: "0 blocked-sec/op" reads as
// 0 blocked-ns/op, as a non-zero blocked-ns/op value reads.
func zerosAsWritten(r *benchfmt.Result) *benchfmt.Result {
	for i, v := range r.Values {
		if v.OrigUnit == "" && v.Value == 0 && strings.HasSuffix(v.Unit, "-sec/op") {
			r.Values[i].OrigUnit = strings.TrimSuffix(v.Unit, "sec/op") + "ns/op"
		}
	}
	return r
}
