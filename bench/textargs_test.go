package bench

import "testing"

func TestTextArgsHoldTheStringsSet(t *testing.T) {
	a := NewTextArgs(3)
	if a.Len() != 3 {
		t.Fatalf("Len = %d", a.Len())
	}
	for i, v := range a.List() {
		if s, ok := v.(string); !ok || s != "" {
			t.Fatalf("arg %d starts as %#v, want the empty string", i, v)
		}
	}
	g3 := NewRowGen(3, 8)
	a.Set(1, "gopher")
	if s, _ := a.List()[1].(string); s != "gopher" {
		t.Fatalf("after Set: %#v", a.List()[1])
	}
	for row := range 100 {
		a.SetRow(0, row, &g3)
		for c, v := range a.List() {
			if s, ok := v.(string); !ok || s != Value(row, c, 3, 8) {
				t.Fatalf("row %d col %d: %#v, want %q", row, c, v, Value(row, c, 3, 8))
			}
		}
	}
	var n any = a.List()[2]
	if _, ok := n.(string); !ok || a.List()[2] != n {
		t.Fatal("an argument is not comparable as a string")
	}
}

func TestTextArgsDoNotAllocate(t *testing.T) {
	a := NewTextArgs(16)
	g16 := NewRowGen(16, 32)
	use := func(args ...any) int { return len(args[3].(string)) }
	total := 0
	allocs := testing.AllocsPerRun(100, func() {
		for row := range 100 {
			a.SetRow(0, row, &g16)
			total += use(a.List()...)
		}
	})
	if allocs != 0 {
		t.Errorf("SetRow + List allocate %.1f times per 100 rows", allocs)
	}
	if total == 0 {
		t.Fatal("no values used")
	}
}
