package bench

import (
	"math"
	"testing"
)

func TestRowGenMatchesValue(t *testing.T) {
	rows := []int{0, 1, 2, 999, 123456, 10_000_000, math.MaxInt32, math.MaxInt64 / 64}
	for _, shape := range [][2]int{{16, 32}, {3, 8}, {1, 0}, {2, 1}, {1, PoolSize}, {1, PoolSize - 1}, {5, 1000}} {
		cols, width := shape[0], shape[1]
		g := NewRowGen(cols, width)
		if g.Cols() != cols || g.Width() != width {
			t.Fatalf("shape %v: Cols, Width = %d, %d", shape, g.Cols(), g.Width())
		}
		dst := make([]string, cols)
		check := func(row int) {
			g.Row(dst, row)
			for c := range cols {
				want := Value(row, c, cols, width)
				if got := g.Value(row, c); got != want {
					t.Fatalf("shape %v row %d col %d: Value %q, want %q", shape, row, c, got, want)
				}
				if dst[c] != want {
					t.Fatalf("shape %v row %d col %d: Row %q, want %q", shape, row, c, dst[c], want)
				}
			}
		}
		for _, r := range rows {
			check(r)
		}
		for r := range 20_000 {
			check(r)
		}
	}
}

// TestRowGenRemainder checks the division-free remainder against % on the
// dividends that matter most: all the extremes, and many mixed ones.
func TestRowGenRemainder(t *testing.T) {
	for _, width := range []int{0, 1, 8, 32, 1 << 19, PoolSize - 1, PoolSize} {
		g := NewRowGen(1, width)
		xs := []uint64{0, 1, g.d - 1, g.d, g.d + 1, math.MaxUint64, math.MaxUint64 - 1, 1 << 63,
			math.MaxUint64 / g.d * g.d}
		for i := range uint64(200_000) {
			xs = append(xs, Mix(i))
		}
		for _, x := range xs {
			if got := g.mod(x); got != x%g.d {
				t.Fatalf("width %d: %d mod %d = %d, want %d", width, x, g.d, got, x%g.d)
			}
		}
	}
}

func BenchmarkRowGen(b *testing.B) {
	g := NewRowGen(3, 8)
	dst := make([]string, 3)
	for i := range b.N {
		g.Row(dst, i)
	}
}

func BenchmarkValueRow(b *testing.B) {
	dst := make([]string, 3)
	for i := range b.N {
		for c := range dst {
			dst[c] = Value(i, c, 3, 8)
		}
	}
}
