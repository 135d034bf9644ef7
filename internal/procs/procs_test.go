package procs

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestReadsThisProcess(t *testing.T) {
	if !Mounted() {
		t.Skip("no /proc")
	}
	st, err := Stat(os.Getpid())
	if err != nil || st.PPID != os.Getppid() || st.Starttime == 0 || st.State == "Z" {
		t.Fatalf("Stat(self) = ppid %d, start %d, state %q, %v; want ppid %d, a start time, not a zombie", st.PPID,
			st.Starttime, st.State, err, os.Getppid())
	}
	if args, err := CmdLine(os.Getpid()); err != nil || !slices.Equal(args, os.Args) {
		t.Errorf("CmdLine(self) = %q, %v; want %q", args, err, os.Args)
	}
	pids, err := PIDs()
	if err != nil || !slices.Contains(pids, os.Getpid()) || !slices.Contains(pids, 1) {
		t.Errorf("PIDs() = %d pids, %v; want this process and pid 1 among them", len(pids), err)
	}
	if n, err := MemTotal(); err != nil || n < 1<<20 {
		t.Errorf("MemTotal() = %d, %v", n, err)
	}
	if len(BootID()) != 36 {
		t.Errorf("BootID() = %q, want a UUID", BootID())
	}
	if SharedMemory(-1, -1) {
		t.Error("a shared memory segment with id -1")
	}
}

func TestGoneProcess(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if _, err := Stat(cmd.Process.Pid); !Gone(err) {
		t.Errorf("Stat of a reaped process: %v, want an error Gone knows", err)
	}
}

func TestChildren(t *testing.T) {
	cmd := exec.Command("sleep", "10")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	var all []int
	fs, err := FS("")
	if err != nil {
		t.Fatal(err)
	}
	threads, err := fs.AllThreads(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	for _, th := range threads {
		all = append(all, Children("", os.Getpid(), th.PID)...)
	}
	if !slices.Contains(all, cmd.Process.Pid) {
		t.Errorf("children of this process's threads = %v, want %d among them", all, cmd.Process.Pid)
	}
	if kids := Children("", os.Getpid(), 1<<30); kids != nil {
		t.Errorf("children of a thread that does not exist: %v", kids)
	}
}

// TestPeakRSSGrowsWithTouchedMemory: this process's VmHWM, read by procfs,
// is positive and counts 32 MiB touched since.
func TestPeakRSSGrowsWithTouchedMemory(t *testing.T) {
	before, err := PeakRSS()
	if err != nil || before <= 0 {
		t.Fatalf("PeakRSS = %d, %v; want a positive size", before, err)
	}
	b := make([]byte, 32<<20)
	for i := range b {
		b[i] = byte(i)
	}
	after, err := PeakRSS()
	if err != nil || after < before+16<<20 || b[len(b)-1] != byte(len(b)-1) {
		t.Errorf("PeakRSS after touching 32 MiB = %d (before %d), %v; want it 16 MiB higher at least", after, before,
			err)
	}
}

// TestParseThreadSched reads the counts from a sched file's text (a
// kernel 6.18 thread's, shortened) and refuses text without them.
func TestParseThreadSched(t *testing.T) {
	text := "cat (18020, #threads: 1)\n" +
		"-------------------------------------------------------------------\n" +
		"se.exec_start                                :      10789060.260184\n" +
		"se.nr_migrations                             :                    3\n" +
		"nr_switches                                  :                   12\n" +
		"nr_voluntary_switches                        :                    4\n" +
		"nr_involuntary_switches                      :                    8\n" +
		"current_node=0, numa_group_id=0\n"
	got, err := parseThreadSched(text)
	if err != nil || got != (ThreadSched{Migrations: 3, Involuntary: 8, Voluntary: 4}) {
		t.Errorf("got %+v, %v", got, err)
	}
	if _, err := parseThreadSched("se.nr_migrations : 3\n"); err == nil {
		t.Error("text without switch counts accepted")
	}
	if _, err := parseThreadSched(strings.Replace(text, ":                    8", ": x", 1)); err == nil {
		t.Error("a count that is not a number accepted")
	}
}

// TestSelfCountsGrow: this thread's switches, this process's faults and
// the machine's CPU time only grow, and a thread that sleeps switches out
// of its own accord.
func TestSelfCountsGrow(t *testing.T) {
	if !Mounted() {
		t.Skip("no /proc")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, err := SelfThreadSched()
	if err != nil {
		t.Fatal(err)
	}
	total0, steal0, err := CPUTotals()
	if err != nil {
		t.Fatal(err)
	}
	minor0, _, err := SelfFaults()
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond)
	b := make([]byte, 8<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	t1, _ := SelfThreadSched()
	total1, steal1, _ := CPUTotals()
	minor1, _, _ := SelfFaults()
	if t1.Voluntary <= t0.Voluntary || t1.Involuntary < t0.Involuntary || t1.Migrations < t0.Migrations {
		t.Errorf("thread counts %+v then %+v", t0, t1)
	}
	if total1 <= total0 || steal1 < steal0 || steal1 > total1 {
		t.Errorf("CPU %v then %v, steal %v then %v", total0, total1, steal0, steal1)
	}
	if minor1 <= minor0 {
		t.Errorf("minor faults %d then %d after touching 8 MiB", minor0, minor1)
	}
	runtime.KeepAlive(b)
}
