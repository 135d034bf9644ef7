package wake

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// DMALatencyPath is the kernel's PM QoS interface for the CPUs' wake-up
// latency: while a process holds it open with a value written, no CPU
// enters an idle state that takes longer than that many µs to leave.
const DMALatencyPath = "/dev/cpu_dma_latency"

// IdleHold is a held PM QoS request keeping the CPUs out of deep idle: the
// low idle-latency regime. The kernel drops the request when the file is
// closed, by Release or by the process's end, whatever ends it.
type IdleHold struct {
	f *os.File
}

// HoldIdleLatency opens path (DMALatencyPath) and writes a wake-up latency
// of us µs (0: the CPUs only poll when idle, never halt) and keeps it
// open until Release. Where the interface is missing or not writable it
// says so in one line.
func HoldIdleLatency(path string, us int32) (*IdleHold, error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s does not exist: this kernel offers no PM QoS CPU latency interface", path)
	case errors.Is(err, fs.ErrPermission):
		return nil,
			fmt.Errorf("%s is not writable by this user (it needs root, or write access given to the device)", path)
	case err != nil:
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	var b [4]byte
	binary.NativeEndian.PutUint32(b[:], uint32(us))
	if _, err := f.Write(b[:]); err != nil {
		f.Close()
		return nil, fmt.Errorf("write to %s: %w", path, err)
	}
	return &IdleHold{f: f}, nil
}

// Release drops the request: the CPUs idle as the kernel's idle driver
// chooses again. Releasing twice, or a nil hold, does nothing.
func (h *IdleHold) Release() error {
	if h == nil || h.f == nil {
		return nil
	}
	err := h.f.Close()
	h.f = nil
	return err
}

// Held reports whether the request is held.
func (h *IdleHold) Held() bool { return h != nil && h.f != nil }

// Fd returns the descriptor held open (-1 when released): for tests that
// look at what the process holds.
func (h *IdleHold) Fd() int {
	if !h.Held() {
		return -1
	}
	return int(h.f.Fd())
}
