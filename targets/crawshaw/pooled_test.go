package crawshaw

import (
	"path/filepath"
	"testing"
)

// TestHoldTakesTheConnectionAsTheSqinnGoProgram checks the two ways the
// pooled connection is taken: Hold as the Sqinn-Go craw program's Get(nil)
// (no tracer, so no trace region per Step), Checkout as the go-sqlite-bench
// craw adapter's Get(context.TODO()) (a tracer); either once at a time,
// and a connection given back is usable untimed and can be taken again.
func TestHoldTakesTheConnectionAsTheSqinnGoProgram(t *testing.T) {
	p, err := open(filepath.Join(t.TempDir(), "p.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for range 2 {
		if err := p.Hold(); err != nil {
			t.Fatal(err)
		}
		if p.Tracer() != nil {
			t.Error("held: the connection has a tracer; Get(nil) sets none")
		}
		if err := p.Hold(); err == nil {
			t.Error("held twice without an error")
		}
		if err := p.Checkout(); err == nil {
			t.Error("checked out while held without an error")
		}
		p.Release()
		if err := p.Checkout(); err != nil {
			t.Fatal(err)
		}
		if p.Tracer() == nil {
			t.Error("checked out: the connection has no tracer; Get(context.TODO()) sets one")
		}
		p.Checkin()
		s, _, err := p.PrepareTransient("SELECT 1")
		if err != nil {
			t.Fatalf("given back: %v", err)
		}
		if _, err := s.Step(); err != nil {
			t.Fatalf("given back: %v", err)
		}
		s.Finalize()
	}
}
