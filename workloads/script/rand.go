package script

import "math"

// Rand is the random stream a script execution draws from. It is
// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", 2014) with the draws below written out here rather than
// taken from a library, so that a runner in another language (the JDBC
// runner) can draw exactly the same values, and a change of Go's own
// generators changes nothing: every target runs execution i with the same
// parameters (see docs/scripts.md, "The random stream").
type Rand struct{ s uint64 }

const golden = 0x9e3779b97f4a7c15

// mix64 is SplitMix64's output function.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Seed restarts r as stream number stream of seed. Streams of one seed
// start from unrelated states (each mixed), so that no stream is another
// shifted by a few draws.
func (r *Rand) Seed(seed, stream uint64) { r.s = mix64(seed) ^ mix64(stream+golden) }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.s += golden
	return mix64(r.s)
}

// Float64 returns a number in [0, 1): the top 53 bits of the next draw.
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) * 0x1p-53 }

// maxRejections bounds Int64N's redraws; each is less likely than one in
// two, so the bound is never reached in practice.
const maxRejections = 1000

// Int64N returns an integer in [0, n), n > 0, each with equal probability:
// a draw below 2^64 mod n is redrawn, the rest taken modulo n.
func (r *Rand) Int64N(n int64) int64 {
	un := uint64(n)
	thresh := -un % un // 2^64 mod n
	x := r.Uint64()
	for i := 0; x < thresh && i < maxRejections; i++ {
		x = r.Uint64()
	}
	return int64(x % un)
}

// NormFloat64 returns a standard normal number, by the Box-Muller
// transform of two draws.
func (r *Rand) NormFloat64() float64 {
	u1 := 1 - r.Float64() // (0, 1]
	u2 := r.Float64()
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}
