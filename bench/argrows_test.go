package bench

import (
	"testing"
)

// TestArgRowsHoldGeneratedRows: a filled block holds the generator's rows,
// as strings or as []byte, and filling it again allocates nothing.
func TestArgRowsHoldGeneratedRows(t *testing.T) {
	g := NewRowGen(3, 8)
	for _, bytes := range []bool{false, true} {
		a := NewArgRows(4, 3, bytes)
		a.Fill(10, 4, &g)
		for row := 10; row < 14; row++ {
			if !a.Holds(row) {
				t.Fatalf("bytes=%v: the block of rows 10-13 does not hold %d", bytes, row)
			}
			for c, v := range a.Row(row) {
				var got string
				switch x := v.(type) {
				case string:
					got = x
					if bytes {
						t.Fatalf("a []byte block holds a string")
					}
				case []byte:
					got = string(x)
					if !bytes {
						t.Fatalf("a string block holds a []byte")
					}
				default:
					t.Fatalf("argument of type %T", v)
				}
				if want := Value(row, c, 3, 8); got != want {
					t.Errorf("bytes=%v: row %d column %d is %q, want %q", bytes, row, c, got, want)
				}
			}
		}
		if a.Holds(14) || a.Holds(9) {
			t.Errorf("bytes=%v: the block claims rows it does not hold", bytes)
		}
		if n := testing.AllocsPerRun(10, func() { a.Fill(100, 4, &g) }); n != 0 {
			t.Errorf("bytes=%v: Fill allocates %v times", bytes, n)
		}
	}
}
