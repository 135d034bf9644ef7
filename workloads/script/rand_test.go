package script

// newRand returns stream number stream of seed.
func newRand(seed, stream uint64) *Rand {
	r := &Rand{}
	r.Seed(seed, stream)
	return r
}
