package script

import (
	"slices"
	"testing"
)

// TestCrossRunnerVectors pins draws of the random stream and a row hash to
// values the JDBC runner's tests (jdbc/src/test/.../ScriptTest.java) pin
// too: a change on either side that makes the runners draw or hash
// differently fails here or there.
func TestCrossRunnerVectors(t *testing.T) {
	r := newRand(Seed, 3)
	if a, b := r.Uint64(), r.Uint64(); a != 0x6440fccd04c248a4 || b != 0xd3680ddff8d1e7fc {
		t.Errorf("stream (Seed, 3): %#x %#x", a, b)
	}
	r = newRand(Seed, 4)
	if f, n := r.Float64(), r.Int64N(1000); f != 0.4305719370160036 || n != 578 {
		t.Errorf("stream (Seed, 4): %v %v", f, n)
	}
	r = newRand(Seed, 5)
	var uni []int64
	for range 5 {
		uni = append(uni, Uniform(r, 1, 100000))
	}
	e, _ := Exponential(r, 0, 9, 3)
	z, _ := Zipfian(r, 1, 1000, 1.1)
	g, _ := Gaussian(r, 1, 11, 2.5)
	if !slices.Equal(uni, []int64{99122, 23672, 12326, 55627, 41072}) || e != 3 || z != 26 || g != 3 ||
		r.Uint64() != 4797399853982267196 {
		t.Errorf("stream (Seed, 5): %v %d %d %d", uni, e, z, g)
	}
	r = newRand(Seed, 6)
	var zs, es, gs []int64
	for range 10 {
		v, _ := Zipfian(r, 1, 100, 1.5)
		zs = append(zs, v)
	}
	for range 10 {
		v, _ := Exponential(r, 0, 99, 5)
		es = append(es, v)
	}
	for range 10 {
		v, _ := Gaussian(r, 0, 99, 2)
		gs = append(gs, v)
	}
	if !slices.Equal(zs, []int64{5, 1, 96, 2, 3, 68, 67, 1, 4, 61}) ||
		!slices.Equal(es, []int64{45, 5, 81, 14, 13, 10, 23, 2, 2, 5}) ||
		!slices.Equal(gs, []int64{23, 88, 70, 31, 61, 68, 6, 38, 31, 56}) {
		t.Errorf("stream (Seed, 6): %v %v %v", zs, es, gs)
	}
	if h := rowHash([]any{int64(1), "a", nil, 1.5, true, 2.0, []byte("xy"), 1e21}); h != 0xeff047a7cb9cb432 {
		t.Errorf("rowHash: %#x", h)
	}
}
