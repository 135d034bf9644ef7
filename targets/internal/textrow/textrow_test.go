package textrow

import (
	"strings"
	"testing"
)

// TestScan: text values reach each destination type, and a value the
// destination cannot hold (a non-number, a NULL) is an error naming it,
// never a zero.
func TestScan(t *testing.T) {
	r := Row{Values: [][]byte{[]byte("42"), []byte("Test"), nil, []byte("7"), nil}}
	var n int64
	var s string
	var b []byte
	var i int
	var a any = "x"
	if err := r.Scan(&n, &s, &b, &i, &a); err != nil || n != 42 || s != "Test" || b != nil || i != 7 || a != nil {
		t.Fatalf("Scan = %d %q %v %d %v, %v", n, s, b, i, a, err)
	}
	for _, c := range []struct {
		row  Row
		dest any
		want string
	}{
		{Row{Values: [][]byte{[]byte("4x2")}}, &n, "4x2"},
		{Row{Values: [][]byte{nil}}, &s, "NULL"},
		{Row{Values: [][]byte{[]byte("1")}}, new(float32), "float32"},
	} {
		if err := c.row.Scan(c.dest); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Scan(%q into %T) = %v, want an error naming %q", c.row.Values, c.dest, err, c.want)
		}
	}
	if err := r.Scan(&n); err == nil {
		t.Error("one destination for five columns was accepted")
	}
}
