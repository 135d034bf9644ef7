package bench

import (
	"strconv"
	"sync"
)

// Generated data: the rows every target writes are the same, in every
// runner and every language, and cost next to nothing to produce inside a
// timed loop. The definition, precise enough to reimplement (the JDBC
// runner does):
//
//   - Mix(k) is the SplitMix64 output function applied to
//     DataSeed + (k+1)*0x9E3779B97F4A7C15 (all arithmetic mod 2^64):
//     z ^= z>>30; z *= 0xBF58476D1CE4E5B9; z ^= z>>27; z *= 0x94D049BB133111EB;
//     z ^= z>>31.
//   - The pool is PoolSize bytes; byte k is Alphabet[Mix(k) % 62].
//   - Value(row, col, cols, width) is the width bytes of the pool starting at
//     Mix(ValueBase + row*cols + col) % (PoolSize - width + 1).
//   - RowHash(values) is Mix of the 64-bit FNV-1a hash of the values joined
//     by the byte 0x1F; a table's checksum is the sum (mod 2^64) of its rows'
//     hashes, so it does not depend on the order rows come back in.

// DataSeed seeds every generated value.
const DataSeed uint64 = 0x5EEDDA7A

// PoolSize is the size of the pool values are cut from: a value is at most
// this long.
const PoolSize = 1 << 20

// ValueBase separates the counters of values from those of the pool.
const ValueBase uint64 = 1 << 32

// Alphabet is what generated text is made of: ASCII letters and digits.
const Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// Mix returns the k-th output of SplitMix64 seeded with DataSeed.
func Mix(k uint64) uint64 {
	z := DataSeed + (k+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// pool is computed once and never changed.
var pool = sync.OnceValue(func() string {
	b := make([]byte, PoolSize)
	for k := range b {
		b[k] = Alphabet[Mix(uint64(k))%uint64(len(Alphabet))]
	}
	return string(b)
})

// Value returns the generated text of column col (of cols) in row row,
// width bytes long. It does not allocate: the string shares the pool.
func Value(row, col, cols, width int) string {
	p := pool()
	if width > PoolSize {
		width = PoolSize
	}
	off := Mix(ValueBase+uint64(row)*uint64(cols)+uint64(col)) % uint64(PoolSize-width+1)
	return p[off : off+uint64(width)]
}

// FNV-1a, 64 bits.
const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

// RowHasher hashes one row value by value; the zero value is not ready, use
// NewRowHasher.
type RowHasher struct {
	h     uint64
	first bool
}

// NewRowHasher returns a hasher for one row.
func NewRowHasher() RowHasher { return RowHasher{h: fnvOffset, first: true} }

// Add adds the next value of the row.
func (r *RowHasher) Add(v string) {
	if !r.first {
		r.h = (r.h ^ 0x1F) * fnvPrime
	}
	r.first = false
	for i := 0; i < len(v); i++ {
		r.h = (r.h ^ uint64(v[i])) * fnvPrime
	}
}

// AddBytes is Add for a byte slice.
func (r *RowHasher) AddBytes(v []byte) {
	if !r.first {
		r.h = (r.h ^ 0x1F) * fnvPrime
	}
	r.first = false
	for _, c := range v {
		r.h = (r.h ^ uint64(c)) * fnvPrime
	}
}

// AddInt adds an integer value, hashed as its decimal text.
func (r *RowHasher) AddInt(v int64) {
	var buf [20]byte
	r.AddBytes(strconv.AppendInt(buf[:0], v, 10))
}

// Sum returns the row's hash.
func (r *RowHasher) Sum() uint64 { return Mix(r.h) }

// RowHash returns the hash of a row of text values.
func RowHash(values ...string) uint64 {
	h := NewRowHasher()
	for _, v := range values {
		h.Add(v)
	}
	return h.Sum()
}

// Checksum is an order-independent digest of a set of rows: their count and
// the sum of their hashes.
type Checksum struct {
	Rows int64
	Sum  uint64
}

// Add counts one row with hash h.
func (c *Checksum) Add(h uint64) {
	c.Rows++
	c.Sum += h
}

// GeneratedChecksum returns the checksum of rows [first, first+n) of the
// generated table with cols columns of width bytes.
func GeneratedChecksum(first, n, cols, width int) Checksum {
	var c Checksum
	for i := first; i < first+n; i++ {
		h := NewRowHasher()
		for j := 0; j < cols; j++ {
			h.Add(Value(i, j, cols, width))
		}
		c.Add(h.Sum())
	}
	return c
}
