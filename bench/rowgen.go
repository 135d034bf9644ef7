package bench

import "math/bits"

// RowGen generates the rows of one table shape, cols columns of width
// bytes, as Value does, but at a fraction of Value's cost, for loops that
// generate inside the timed region: the pool is looked up once, not per
// value, and the remainder that picks a value's offset is computed with
// multiplications instead of a 64-bit division (Lemire, Kaser and Kurz,
// "Faster remainder by direct computation", 2019; exact for every 64-bit
// dividend).
type RowGen struct {
	pool        string
	cols, width int
	d           uint64 // PoolSize - width + 1: the number of offsets
	mhi, mlo    uint64 // ceil(2^128 / d), for the remainder by d
}

// NewRowGen returns the generator of rows of cols columns of width bytes
// (width at most PoolSize).
func NewRowGen(cols, width int) RowGen {
	width = max(0, min(width, PoolSize))
	d := uint64(PoolSize - width + 1)
	// M = floor((2^128 - 1) / d) + 1, as two 64-bit halves.
	hi, r := ^uint64(0)/d, ^uint64(0)%d
	lo, _ := bits.Div64(r, ^uint64(0), d)
	lo, carry := bits.Add64(lo, 1, 0)
	return RowGen{pool: pool(), cols: cols, width: width, d: d, mhi: hi + carry, mlo: lo}
}

// Cols returns the number of columns of a row.
func (g *RowGen) Cols() int { return g.cols }

// Width returns the length of every value.
func (g *RowGen) Width() int { return g.width }

// mod returns x % g.d.
func (g *RowGen) mod(x uint64) uint64 {
	// low = M*x mod 2^128; the remainder is floor(low*d / 2^128).
	h, l := bits.Mul64(g.mlo, x)
	h += g.mhi * x
	a, _ := bits.Mul64(l, g.d)
	b, c := bits.Mul64(h, g.d)
	_, carry := bits.Add64(c, a, 0)
	return b + carry
}

// Value returns Value(row, col, cols, width) of the generator's shape.
func (g *RowGen) Value(row, col int) string {
	off := g.mod(Mix(ValueBase + uint64(row)*uint64(g.cols) + uint64(col)))
	return g.pool[off : off+uint64(g.width)]
}

// Row puts row row's values into dst, one per column (len(dst) = cols).
func (g *RowGen) Row(dst []string, row int) {
	k := ValueBase + uint64(row)*uint64(g.cols)
	w := uint64(g.width)
	for c := range dst {
		off := g.mod(Mix(k + uint64(c)))
		dst[c] = g.pool[off : off+w]
	}
}
