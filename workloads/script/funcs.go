package script

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// function is a function an expression may call.
type function struct {
	name     string
	min, max int
	call     func(args []Value, r *Rand) (Value, error)
}

func (f *function) arity() string {
	switch {
	case f.min == f.max && f.min == 1:
		return "1 argument"
	case f.min == f.max:
		return strconv.Itoa(f.min) + " arguments"
	case f.max > 16:
		return "at least " + strconv.Itoa(f.min) + " argument(s)"
	}
	return fmt.Sprintf("%d to %d arguments", f.min, f.max)
}

// functions are pgbench's expression functions that sqlbench implements.
var functions = map[string]*function{}

func def(name string, min, max int, call func([]Value, *Rand) (Value, error)) {
	functions[name] = &function{name: name, min: min, max: max, call: call}
}

func init() {
	def("random", 2, 2, func(a []Value, r *Rand) (Value, error) {
		lo, hi, err := bounds(a)
		if err != nil {
			return Value{}, err
		}
		return Int(Uniform(r, lo, hi)), nil
	})
	def("random_exponential", 3, 3, func(a []Value, r *Rand) (Value, error) {
		lo, hi, err := bounds(a)
		if err != nil {
			return Value{}, err
		}
		v, err := Exponential(r, lo, hi, a[2].float())
		return Int(v), err
	})
	def("random_gaussian", 3, 3, func(a []Value, r *Rand) (Value, error) {
		lo, hi, err := bounds(a)
		if err != nil {
			return Value{}, err
		}
		v, err := Gaussian(r, lo, hi, a[2].float())
		return Int(v), err
	})
	def("random_zipfian", 3, 3, func(a []Value, r *Rand) (Value, error) {
		lo, hi, err := bounds(a)
		if err != nil {
			return Value{}, err
		}
		v, err := Zipfian(r, lo, hi, a[2].float())
		return Int(v), err
	})
	def("abs", 1, 1, func(a []Value, _ *Rand) (Value, error) {
		if a[0].Float {
			return Double(math.Abs(a[0].F)), nil
		}
		if a[0].I == math.MinInt64 {
			return Value{}, errors.New("integer out of range")
		}
		if a[0].I < 0 {
			return Int(-a[0].I), nil
		}
		return a[0], nil
	})
	def("int", 1, 1, func(a []Value, _ *Rand) (Value, error) {
		i, err := a[0].toInt()
		return Int(i), err
	})
	def("double", 1, 1, func(a []Value, _ *Rand) (Value, error) { return Double(a[0].float()), nil })
	def("sqrt", 1, 1, func(a []Value, _ *Rand) (Value, error) { return Double(math.Sqrt(a[0].float())), nil })
	def("pi", 0, 0, func([]Value, *Rand) (Value, error) { return Double(math.Pi), nil })
	def("least", 1, 99, func(a []Value, _ *Rand) (Value, error) { return extreme(a, -1), nil })
	def("greatest", 1, 99, func(a []Value, _ *Rand) (Value, error) { return extreme(a, 1), nil })
}

// extreme returns the least (sign -1) or greatest (1) of a: a double if any
// argument is one, as in pgbench.
func extreme(a []Value, sign float64) Value {
	anyFloat := false
	for _, v := range a {
		anyFloat = anyFloat || v.Float
	}
	best := a[0]
	for _, v := range a[1:] {
		if anyFloat {
			if (v.float()-best.float())*sign > 0 {
				best = v
			}
		} else if (v.I > best.I) == (sign > 0) && v.I != best.I {
			best = v
		}
	}
	if anyFloat {
		return Double(best.float())
	}
	return best
}

// bounds reads the [lo, hi] range of a random function: two integers, lo
// at most hi, the range at most MaxInt64 wide.
func bounds(a []Value) (lo, hi int64, err error) {
	if lo, err = a[0].toInt(); err == nil {
		hi, err = a[1].toInt()
	}
	switch {
	case err != nil:
		return 0, 0, err
	case lo > hi:
		return 0, 0, fmt.Errorf("empty range [%d, %d]", lo, hi)
	case hi-lo < 0 || hi-lo == math.MaxInt64:
		return 0, 0, fmt.Errorf("range [%d, %d] too wide", lo, hi)
	}
	return lo, hi, nil
}

// Uniform draws an integer from [lo, hi] with equal probability (pgbench's
// random). The caller checks lo <= hi and that the range fits an int64.
func Uniform(r *Rand, lo, hi int64) int64 {
	return lo + r.Int64N(hi-lo+1)
}

// Exponential draws an integer from [lo, hi] with an exponential
// distribution truncated to the range (pgbench's random_exponential): the
// density falls by a factor e^-param over the range, so lo is the most
// frequent value. param must be positive.
func Exponential(r *Rand, lo, hi int64, param float64) (int64, error) {
	if !(param > 0) || math.IsInf(param, 0) {
		return 0, fmt.Errorf("parameter must be greater than 0, got %g", param)
	}
	// Inverse of the CDF of the truncated exponential on [0, 1).
	cut := math.Exp(-param)
	u := 1 - r.Float64() // (0, 1]
	x := -math.Log(cut+(1-cut)*u) / param
	return clampDraw(lo, hi, x), nil
}

// Gaussian draws an integer from [lo, hi] with a normal distribution
// centred on the middle of the range and cut at param standard deviations
// on either side (pgbench's random_gaussian). param must be at least 2.
func Gaussian(r *Rand, lo, hi int64, param float64) (int64, error) {
	if !(param >= 2) || math.IsInf(param, 0) {
		return 0, fmt.Errorf("parameter must be at least 2, got %g", param)
	}
	// Redraw beyond the cut; at param >= 2 fewer than 5% of draws are, so
	// 1000 attempts all failing has a probability below 1e-1000.
	for range 1000 {
		z := r.NormFloat64()
		if z >= -param && z < param {
			return clampDraw(lo, hi, (z+param)/(2*param)), nil
		}
	}
	return 0, errors.New("no draw within the cut after 1000 attempts")
}

// zipfTries bounds the rejection loop of Zipfian.
const zipfTries = 1_000_000

// Zipfian draws an integer from [lo, hi] with a bounded Zipf distribution
// of exponent s (pgbench's random_zipfian): value k of the range (counted
// from 1) is drawn ((k+1)/k)^s times as often as k+1. s must be in
// [1.001, 1000]. It uses the rejection method for the Zipf distribution
// given by Devroye (Non-Uniform Random Variate Generation, 1986, X.6),
// redrawing values beyond the range.
func Zipfian(r *Rand, lo, hi int64, s float64) (int64, error) {
	if !(s >= 1.001 && s <= 1000) {
		return 0, fmt.Errorf("parameter must be in [1.001, 1000], got %g", s)
	}
	n := float64(hi - lo + 1)
	b := math.Pow(2, s-1)
	for range zipfTries {
		u := 1 - r.Float64() // (0, 1]
		v := r.Float64()
		x := math.Floor(math.Pow(u, -1/(s-1)))
		if x > n || x < 1 || math.IsInf(x, 0) || math.IsNaN(x) {
			continue
		}
		t := math.Pow(1+1/x, s-1)
		if v*x*(t-1)/(b-1) <= t/b {
			return lo + int64(x) - 1, nil
		}
	}
	return 0, fmt.Errorf("no draw within [%d, %d] after %d attempts", lo, hi, zipfTries)
}

// clampDraw maps x in [0, 1) onto [lo, hi].
func clampDraw(lo, hi int64, x float64) int64 {
	w := float64(hi-lo) + 1
	d := int64(w * x)
	if d < 0 {
		d = 0
	}
	if d > hi-lo {
		d = hi - lo
	}
	return lo + d
}
