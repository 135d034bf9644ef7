package envinfo

import (
	"fmt"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// CPUTimes is the machine's cumulative CPU time from /proc/stat (as procfs
// reads it), in seconds: all of it, and the part stolen by the hypervisor
// to run other guests (time the machine wanted to run and could not).
type CPUTimes struct {
	Total, Steal float64
}

// ReadCPUTimes reads /proc/stat.
func ReadCPUTimes() (CPUTimes, error) {
	return readCPUTimes("")
}

// readCPUTimes reads the aggregate "cpu" line of the stat file of the proc
// file system at mount: user nice system idle iowait irq softirq steal
// (guest time is already inside user).
func readCPUTimes(mount string) (CPUTimes, error) {
	fs, err := procs.FS(mount)
	if err != nil {
		return CPUTimes{}, fmt.Errorf("read CPU times: %w", err)
	}
	st, err := fs.Stat()
	if err != nil {
		return CPUTimes{}, fmt.Errorf("read CPU times: %w", err)
	}
	c := st.CPUTotal
	t := CPUTimes{Total: c.User + c.Nice + c.System + c.Idle + c.Iowait + c.IRQ + c.SoftIRQ + c.Steal, Steal: c.Steal}
	if t.Total == 0 {
		return CPUTimes{}, fmt.Errorf("read CPU times: no cpu line in /proc/stat")
	}
	return t, nil
}

// StealSince returns the fraction of CPU time stolen between before and t.
func (t CPUTimes) StealSince(before CPUTimes) float64 {
	total := t.Total - before.Total
	if total <= 0 {
		return 0
	}
	return (t.Steal - before.Steal) / total
}
