package envinfo

import (
	"strings"
	"testing"
)

func TestParseProcBytes(t *testing.T) {
	const status = "Name:\tsqlbench-runner\nVmPeak:\t  812344 kB\nVmHWM:\t   13312 kB\nThreads:\t7\n"
	for _, tt := range []struct {
		in, key string
		want    int64
		err     string
	}{
		{status, "VmHWM", 13312 << 10, ""},
		{status, "Threads", 7, ""},
		{"MemTotal: 2 MB\n", "MemTotal", 2 << 20, ""},
		{status, "VmRSS", 0, "no VmRSS line"},
		{"VmHWM:\n", "VmHWM", 0, "no value"},
		{"VmHWM: lots kB\n", "VmHWM", 0, `"lots"`},
		{"VmHWM: -5 kB\n", "VmHWM", 0, "negative"},
		{"VmHWM: 5 parsecs\n", "VmHWM", 0, `unknown unit "parsecs"`},
	} {
		got, err := parseProcBytes(tt.in, tt.key)
		if tt.err == "" && (err != nil || got != tt.want) {
			t.Errorf("parseProcBytes(%q, %s) = %d, %v; want %d", tt.in, tt.key, got, err, tt.want)
		}
		if tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("parseProcBytes(%q, %s) = %d, %v; want an error with %q", tt.in, tt.key, got, err, tt.err)
		}
	}
}

func TestProcBytesReadsTheRealFile(t *testing.T) {
	if n, err := ProcBytes("/proc/self/status", "VmHWM"); err != nil || n <= 0 {
		t.Fatalf("ProcBytes(/proc/self/status, VmHWM) = %d, %v; want a positive size", n, err)
	}
	if _, err := ProcBytes("/proc/self/status", "NoSuchKey"); err == nil || !strings.Contains(err.Error(), "/proc/self/status: no NoSuchKey line") {
		t.Fatalf("missing key: err = %v, want one naming the file and the key", err)
	}
}
