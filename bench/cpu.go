package bench

import (
	"fmt"
	"syscall"
	"time"
)

// processCPU returns the CPU time, user and system, that every thread of
// this process has used so far (getrusage, microsecond resolution).
func processCPU() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("read process CPU: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}

// ClientCPUPerOp and ServerCPUPerOp decompose the sample's time per
// operation: the process's CPU and the server's; the rest of the wall
// time is waiting (for the network, the disk, a wakeup or a CPU). ok is
// false when the part was not read.
func (s Sample) ClientCPUPerOp() (ns float64, ok bool) {
	return float64(s.ClientCPU.Nanoseconds()) / float64(s.N), s.ClientCPUKnown
}

// ServerCPUPerOp: see ClientCPUPerOp.
func (s Sample) ServerCPUPerOp() (ns float64, ok bool) {
	return float64(s.ServerCPU.Nanoseconds()) / float64(s.N), s.ServerCPUKnown
}
