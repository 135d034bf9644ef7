package runner

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestPeakRSSFollowsAnAllocationAndResets: after touching 64 MiB the peak
// is at least that much above the reset baseline; after a reset, with the
// memory released, it falls back.
func TestPeakRSSFollowsAnAllocationAndResets(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from Linux's /proc")
	}
	base, err := resetPeakRSS()
	if err != nil || base <= 0 {
		t.Fatalf("resetPeakRSS = %d, %v", base, err)
	}
	const size = 64 << 20
	b := make([]byte, size)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	grown, err := peakRSS()
	if err != nil {
		t.Fatal(err)
	}
	if grown < base+size*9/10 {
		t.Errorf("peak after touching 64 MiB = %d, want at least %d", grown, base+size*9/10)
	}
	runtime.KeepAlive(b)
	b = nil
	runtime.GC()
	debug.FreeOSMemory()
	after, err := resetPeakRSS()
	if err != nil {
		t.Fatal(err)
	}
	if after > grown-size/2 {
		t.Errorf("peak after release and reset = %d, want below %d", after, grown-size/2)
	}
}
