package report

import (
	"slices"
	"testing"
)

// TestEnvGroupsTheMachinesWakeups: the wake-up lines of a session and its
// idle regime are facts of the machine, listed with it.
func TestEnvGroupsTheMachinesWakeups(t *testing.T) {
	cell := &Cell{}
	cell.Config = []Config{{"goos", "linux"}, {"wakeup", "thread 33.2/50.1 µs"},
		{"wakeup-run-1", "thread 30.0/48.0 µs"},
		{"idle-latency", "low"}, {"count", "6"}, {"wakeupish", "x"}}
	groups := groupEnv([]*Cell{cell})
	var machine, other []string
	for _, g := range groups {
		for _, l := range g.Lines {
			switch g.Title {
			case "Machine":
				machine = append(machine, l.Key)
			case "Other":
				other = append(other, l.Key)
			}
		}
	}
	if !slices.Equal(machine, []string{"goos", "wakeup", "wakeup-run-1", "idle-latency"}) ||
		!slices.Equal(other, []string{"wakeupish"}) {
		t.Fatalf("Machine %v, Other %v", machine, other)
	}
}
