package pin

import (
	"os/exec"
	"reflect"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

func TestPlanFor(t *testing.T) {
	for _, c := range []struct {
		mode           Mode
		ncpu           int
		server, runner []int
	}{
		{Split, 2, []int{0}, []int{1}},
		{Split, 8, []int{0, 1, 2, 3}, []int{4, 5, 6, 7}},
		{Same, 2, []int{1}, []int{1}},
		{None, 8, nil, nil},
		{Split, 1, nil, nil},
	} {
		p := LayoutFor(c.mode, c.ncpu)
		if !reflect.DeepEqual(p.Server, c.server) || !reflect.DeepEqual(p.Runner, c.runner) {
			t.Errorf("LayoutFor(%s, %d) = %v", c.mode, c.ncpu, p)
		}
	}
	if _, err := ParseMode("diagonal"); err == nil {
		t.Error("ParseMode accepted an unknown mode")
	}
}

func TestProcessPinsEveryThread(t *testing.T) {
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if err := Process(cmd.Process.Pid, []int{0}); err != nil {
		t.Fatal(err)
	}
	got, err := affinity(cmd.Process.Pid)
	if err != nil || !reflect.DeepEqual(got, []int{0}) {
		t.Fatalf("affinity %v, %v; want [0]", got, err)
	}
}

// affinity returns the CPUs process pid may run on.
func affinity(pid int) ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(pid, &set); err != nil {
		return nil, err
	}
	var cpus []int
	for c := 0; c < runtime.NumCPU()*2+64; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}
