package script

import (
	"math"
	"testing"
)

// draws draws n values from f with a fixed seed and checks each is in
// [lo, hi]; it returns the count of each value.
func draws(t *testing.T, n int, lo, hi int64, f func(r *Rand) (int64, error)) map[int64]int {
	t.Helper()
	r := newRand(7, 11)
	counts := map[int64]int{}
	for range n {
		v, err := f(r)
		if err != nil {
			t.Fatal(err)
		}
		if v < lo || v > hi {
			t.Fatalf("draw %d outside [%d, %d]", v, lo, hi)
		}
		counts[v]++
	}
	return counts
}

func TestUniform(t *testing.T) {
	const n = 100_000
	c := draws(t, n, 1, 10, func(r *Rand) (int64, error) { return Uniform(r, 1, 10), nil })
	for v := int64(1); v <= 10; v++ {
		// Each value has probability 0.1: within 5% of n/10 (4 standard
		// deviations of a binomial(100000, 0.1) are 380).
		if math.Abs(float64(c[v])-n/10) > n/10*0.05 {
			t.Errorf("value %d drawn %d times, want about %d", v, c[v], n/10)
		}
	}
	// The widest range bounds accepts draws without overflow.
	const lo, hi = math.MinInt64 / 2, math.MaxInt64/2 - 1
	if _, _, err := bounds([]Value{Int(lo), Int(hi)}); err != nil {
		t.Fatal(err)
	}
	draws(t, 100, lo, hi, func(r *Rand) (int64, error) { return Uniform(r, lo, hi), nil })
	if _, _, err := bounds([]Value{Int(math.MinInt64), Int(math.MaxInt64)}); err == nil {
		t.Error("a range wider than an int64 was accepted")
	}
}

func TestExponential(t *testing.T) {
	const n = 100_000
	c := draws(t, n, 1, 100, func(r *Rand) (int64, error) { return Exponential(r, 1, 100, 5) })
	// Truncated exponential, parameter 5 over 100 values: P(the first
	// value) = (1 - e^-0.05) / (1 - e^-5).
	p1 := (1 - math.Exp(-0.05)) / (1 - math.Exp(-5))
	if got := float64(c[1]) / n; math.Abs(got-p1) > p1*0.05 {
		t.Errorf("P(1) = %.4f, want %.4f", got, p1)
	}
	if c[1] <= c[50] || c[50] <= c[100] {
		t.Errorf("not decreasing: %d, %d, %d", c[1], c[50], c[100])
	}
}

func TestZipfian(t *testing.T) {
	const n = 100_000
	c := draws(t, n, 1, 1000, func(r *Rand) (int64, error) { return Zipfian(r, 1, 1000, 2.5) })
	// pgbench's documentation: with parameter 2.5, 1 is drawn (2/1)^2.5
	// = 5.66 times as often as 2.
	if ratio := float64(c[1]) / float64(c[2]); math.Abs(ratio-math.Pow(2, 2.5)) > 0.4 {
		t.Errorf("P(1)/P(2) = %.2f, want %.2f", ratio, math.Pow(2, 2.5))
	}
	if ratio := float64(c[2]) / float64(c[3]); math.Abs(ratio-math.Pow(1.5, 2.5)) > 0.3 {
		t.Errorf("P(2)/P(3) = %.2f, want %.2f", ratio, math.Pow(1.5, 2.5))
	}
	// Offset ranges keep their shape.
	draws(t, 1000, 500, 509, func(r *Rand) (int64, error) { return Zipfian(r, 500, 509, 1.5) })
}

func TestGaussian(t *testing.T) {
	c := draws(t, 50_000, 1, 11, func(r *Rand) (int64, error) { return Gaussian(r, 1, 11, 2.5) })
	if c[6] <= c[1] || c[6] <= c[11] {
		t.Errorf("not centred: %d %d %d", c[1], c[6], c[11])
	}
}

// TestSeeded: an execution's draws depend on its number only, so every
// target runs the same parameters.
func TestSeeded(t *testing.T) {
	set, err := Compile(Spec{Scripts: []Source{{Name: "a.sql", Text: "\\set x random(1, 1000000)\nSELECT :x;",
		Weight: 3}, {Name: "b.sql", Text: "SELECT 1;", Weight: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	a, b := &conn{set: set}, &conn{set: set}
	picks := map[int]int{}
	for i := range 1000 {
		pa, pb := a.pick(i), b.pick(i)
		if pa != pb || a.rng.Uint64() != b.rng.Uint64() {
			t.Fatalf("execution %d drew differently on two connections", i)
		}
		picks[pa]++
	}
	// Weights 3:1.
	if picks[0] < 700 || picks[0] > 800 {
		t.Errorf("a.sql@3 drawn %d of 1000 times, want about 750", picks[0])
	}
}

// TestRandIsSplitMix64: the stream is SplitMix64, checked against the
// generator's published first outputs from state 0, and each execution's
// stream starts where docs/scripts.md says.
func TestRandIsSplitMix64(t *testing.T) {
	r := &Rand{}
	for _, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := r.Uint64(); got != want {
			t.Fatalf("SplitMix64 from 0: %#x, want %#x", got, want)
		}
	}
	a, b := newRand(Seed, 5), &Rand{s: mix64(Seed) ^ mix64(5+golden)}
	if a.Uint64() != b.Uint64() {
		t.Error("stream 5 does not start from mix64(seed) ^ mix64(5 + golden)")
	}
	// Neighbouring streams do not overlap: stream 1's first draws are not
	// stream 0's later ones.
	s0, s1 := newRand(Seed, 0), newRand(Seed, 1)
	first := s1.Uint64()
	for range 1000 {
		if s0.Uint64() == first {
			t.Fatal("stream 1 repeats stream 0")
		}
	}
}
