package envinfo

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// CPUTimes is the machine's cumulative CPU time from /proc/stat, in clock
// ticks: all of it, and the part stolen by the hypervisor to run other
// guests (time the machine wanted to run and could not).
type CPUTimes struct {
	Total, Steal uint64
}

// ReadCPUTimes reads /proc/stat.
func ReadCPUTimes() (CPUTimes, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return CPUTimes{}, fmt.Errorf("read CPU times: %w", err)
	}
	return parseCPUTimes(string(b))
}

// parseCPUTimes reads the aggregate "cpu" line: user nice system idle iowait
// irq softirq steal guest guest_nice.
func parseCPUTimes(stat string) (CPUTimes, error) {
	for _, line := range strings.Split(stat, "\n") {
		f := strings.Fields(line)
		if len(f) < 9 || f[0] != "cpu" {
			continue
		}
		var t CPUTimes
		for i, s := range f[1:9] { // guest time is already inside user
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return CPUTimes{}, fmt.Errorf("read CPU times: field %d: %w", i+1, err)
			}
			t.Total += v
			if i == 7 {
				t.Steal = v
			}
		}
		return t, nil
	}
	return CPUTimes{}, fmt.Errorf("read CPU times: no cpu line in /proc/stat")
}

// StealSince returns the fraction of CPU time stolen between before and t.
func (t CPUTimes) StealSince(before CPUTimes) float64 {
	total := t.Total - before.Total
	if total == 0 || t.Total < before.Total {
		return 0
	}
	return float64(t.Steal-before.Steal) / float64(total)
}
