package workloads

import (
	"testing"
	"time"
)

// TestTypedValues pins the values the typed family computes from a row's id:
// the JDBC runner's twin (TypedWorkloadsTest.theValuesAreGos) computes the
// same, so that both runners write and check the same rows.
func TestTypedValues(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{string(appendTypedAmount(nil, 1)), "0.7920"},
		{string(appendTypedAmount(nil, 5)), "-3.9600"},
		{typedUUID(7).String(), "5a1be04c-937d-4e21-0000-000000000007"},
		{typedTime(7).Format(time.RFC3339Nano), "2026-01-02T03:04:12.000007Z"},
		{string(appendTypedDoc(nil, 2)), `{"n": 2, "ok": true, "tag": "item-2"}`},
		{string(appendWideText(nil, 8, 5)), "w5-8"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	if note, ok := appendTypedNote(nil, 3); ok || len(note) != 0 {
		t.Errorf("row 3's note = %q, %v: want NULL", note, ok)
	}
	if q, ok := typedQty(7); !ok || q != 49 {
		t.Errorf("row 7's qty = %d, %v: want 49", q, ok)
	}
}
