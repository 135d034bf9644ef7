package session

import (
	"fmt"

	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/unit"
)

// planInstructions readies cfg for --measure instructions: Valgrind must
// be on PATH, and every Go cell's timing goroutine keeps its thread
// (callgrind counts the instructions of the thread that enters the timed
// region, so the goroutine must not move to another).
func planInstructions(cfg *Config, env Host) error {
	if cfg.Measure != MeasureInstructions {
		return nil
	}
	if _, err := env.LookPath("valgrind"); err != nil {
		return inputf("--measure instructions: valgrind is not installed (Debian: apt-get install valgrind)")
	}
	switch cfg.TimingThread {
	case ThreadFree:
		return inputf(
			"--measure instructions: the timing goroutine must keep its thread: --timing-thread locked or auto")
	case "", ThreadAuto:
		cfg.TimingThread = ThreadLocked
	}
	return nil
}

// measureLine is the results file's measure line of a session that counts
// instructions: the counter and what it counts.
func measureLine() string {
	v, err := launcher.Valgrind()
	if err != nil {
		v = "valgrind (version unknown: " + err.Error() + ")"
	}
	return fmt.Sprintf("instructions (%s callgrind, not hardware counters: the timing thread's "+
		"instructions in each run's timed region, but the Go runtime's waiting code, %s)", v, unit.Instructions)
}
