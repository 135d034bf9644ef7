package envinfo

import "testing"

func TestParseCPUTimes(t *testing.T) {
	stat := "cpu  100 0 50 800 10 0 5 35 0 0\ncpu0 50 0 25 400 5 0 2 18 0 0\nintr 1 2 3\n"
	got, err := parseCPUTimes(stat)
	if err != nil || got.Total != 1000 || got.Steal != 35 {
		t.Fatalf("parseCPUTimes = %+v, %v; want total 1000, steal 35", got, err)
	}
	later := CPUTimes{Total: 2000, Steal: 435}
	if f := later.StealSince(got); f != 0.4 {
		t.Errorf("StealSince = %v, want 0.4", f)
	}
	if _, err := parseCPUTimes("intr 1\n"); err == nil {
		t.Error("a stat without a cpu line parsed")
	}
	if _, err := ReadCPUTimes(); err != nil {
		t.Errorf("ReadCPUTimes on this machine: %v", err)
	}
}
