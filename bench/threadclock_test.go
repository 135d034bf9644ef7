package bench

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// checkSplit fails t unless s's thread times add up to its elapsed time
// exactly and none is negative.
func checkSplit(t *testing.T, s Sample) {
	t.Helper()
	if !s.ThreadKnown {
		t.Fatalf("thread times not known: %s", s.Why)
	}
	if s.OnCPU < 0 || s.RunQueue < 0 || s.Blocked < 0 || s.BackgroundCPU < 0 {
		t.Fatalf("a negative part: on CPU %v, run queue %v, blocked %v, background %v", s.OnCPU, s.RunQueue, s.Blocked,
			s.BackgroundCPU)
	}
	if sum := s.OnCPU + s.RunQueue + s.Blocked; sum != s.Elapsed {
		t.Fatalf("on CPU %v + run queue %v + blocked %v = %v, want the elapsed %v", s.OnCPU, s.RunQueue, s.Blocked, sum,
			s.Elapsed)
	}
}

// perOp is a sample's time per operation and its parts, in ns.
type perOp struct{ ns, onCPU, runQueue, blocked, background float64 }

// measureSplit measures n operations of r, fails t unless its thread
// times add up (checkSplit), logs them and returns them per operation.
func measureSplit(t *testing.T, r Run, n int) (Sample, perOp) {
	t.Helper()
	s, err := Measure(r, 0, n, NewLatencyHistogram())
	if err != nil {
		t.Fatal(err)
	}
	checkSplit(t, s)
	var p perOp
	p.onCPU, p.runQueue, p.blocked, p.background, _ = s.PerOp()
	p.ns = s.NsPerOp()
	t.Logf("%.0f ns/op: on CPU %.0f, run queue %.0f, blocked %.0f; background CPU %.0f", p.ns, p.onCPU, p.runQueue,
		p.blocked, p.background)
	return s, p
}

// TestSplitThreadAddsUp: whatever the readings (clock skew, a negative
// difference), the three parts add up to the wall time, none negative.
func TestSplitThreadAddsUp(t *testing.T) {
	for _, c := range []struct {
		wall, cpu, rq time.Duration
		want          [3]time.Duration
	}{
		{wall: 100, cpu: 60, rq: 10, want: [3]time.Duration{60, 10, 30}},
		{wall: 100, cpu: 90, rq: 30, want: [3]time.Duration{75, 25, 0}}, // skew: scaled to the wall
		{wall: 100, cpu: -5, rq: 0, want: [3]time.Duration{0, 0, 100}},
		{wall: 0, cpu: 5, rq: 5, want: [3]time.Duration{0, 0, 0}},
		{wall: -3, want: [3]time.Duration{0, 0, 0}},
	} {
		c0, q, b := splitThread(c.wall, threadTimes{cpu: c.cpu, runQueue: c.rq})
		if got := [3]time.Duration{c0, q, b}; got != c.want {
			t.Errorf("wall %d cpu %d rq %d: got %v, want %v", c.wall, c.cpu, c.rq, got, c.want)
		}
	}
}

// TestOnCPUOfABurningOperation: operations that burn a known CPU time each
// are on a CPU that long, within 10%; the wall time adds up whatever else
// the machine runs. Heavy load from other processes can leave a run
// briefly blocked (the runtime's own waits), so one of up to three runs
// must be unblocked.
func TestOnCPUOfABurningOperation(t *testing.T) {
	const per = 200 * time.Microsecond
	onceInThree(t, func() error {
		s, p := measureSplit(t, Run{Op: func(int) error { burn(per); return nil }}, 1000)
		if p.onCPU < 0.9*float64(per) || p.onCPU > 1.1*float64(per) {
			t.Fatalf("on CPU %.0f ns/op, want %v within 10%%", p.onCPU, per)
		}
		if _, ok := s.ServerCPUPerOp(); ok {
			t.Fatal("server CPU reported without a probe")
		}
		if p.blocked > 0.1*float64(per) {
			return fmt.Errorf("blocked %.0f ns/op for an operation that never blocks", p.blocked)
		}
		return nil
	})
}

// TestBlockedOfASleepingOperation: an operation that sleeps is blocked,
// not on a CPU. On a loaded machine the woken thread may wait its turn in
// the run queue, rightly counted there: the check passes when one of up
// to three runs is mostly blocked.
func TestBlockedOfASleepingOperation(t *testing.T) {
	const per = 2 * time.Millisecond
	onceInThree(t, func() error {
		_, p := measureSplit(t, Run{Op: func(int) error { time.Sleep(per); return nil }}, 40)
		if p.blocked < 0.8*p.ns || p.onCPU > 0.1*p.ns {
			return fmt.Errorf("a sleep: blocked %.0f and on CPU %.0f of %.0f ns/op, want mostly blocked", p.blocked,
				p.onCPU, p.ns)
		}
		return nil
	})
}

// onceInThree runs check up to three times and fails t with the last
// error when none passes: for a real measurement whose check a spell of
// load from other processes can spoil, where the defect it looks for
// would spoil every run.
func onceInThree(t *testing.T, check func() error) {
	t.Helper()
	var err error
	for range 3 {
		if err = check(); err == nil {
			return
		}
		t.Log(err)
	}
	t.Fatal(err)
}

// TestPausedRegionIsInNoPart: CPU burned while the timer is paused is in
// none of the three parts (and not in the background CPU either). One of
// up to three runs must pass: at a load average of 8 on 2 cores, one of
// ten runs read 47 µs on CPU an operation (mechanism not established).
func TestPausedRegionIsInNoPart(t *testing.T) {
	var tm Timer
	op := func(i int) error {
		tm.Stop()
		burn(300 * time.Microsecond)
		tm.Start()
		burn(100 * time.Microsecond)
		return nil
	}
	onceInThree(t, func() error {
		_, p := measureSplit(t, Run{Op: op, Timer: &tm}, 300)
		if p.onCPU < 80e3 || p.onCPU > 125e3 {
			return fmt.Errorf("on CPU %.0f ns/op, want the 100 µs burned on the clock (the paused 300 µs left out)",
				p.onCPU)
		}
		if p.background > 50e3 {
			return fmt.Errorf("background CPU %.0f ns/op: the paused burn counted as background", p.background)
		}
		return nil
	})
}

// TestPauseFromAnotherThreadWithholdsTheSplit: a run whose clock is
// paused from another thread than its timing thread (a driver that reads
// the run's input on a goroutine of its own, as pgx's CopyFrom does) has
// its paused time taken off elapsed, but its time is not divided: that
// thread's scheduler times are not the timing thread's.
func TestPauseFromAnotherThreadWithholdsTheSplit(t *testing.T) {
	var tm Timer
	op := func(int) error {
		done := make(chan struct{})
		go func() { // another goroutine, on another thread
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			tm.Stop()
			burn(200 * time.Microsecond)
			tm.Start()
			close(done)
		}()
		<-done
		return nil
	}
	s, err := Measure(Run{Op: op, Timer: &tm}, 0, 20, NewLatencyHistogram())
	if err != nil {
		t.Fatal(err)
	}
	if s.ThreadKnown || !strings.Contains(s.Why, "paused from another thread") {
		t.Errorf("thread known %v, why %q: want the split withheld, saying why", s.ThreadKnown, s.Why)
	}
	if tm.Paused() < 20*200*time.Microsecond {
		t.Errorf("paused %v, want the 20 pauses of at least 200 µs", tm.Paused())
	}
}

// TestParallelRunSplitsEachClient: each client thread is read; their
// mean adds up to the elapsed time, and the CPU they burn is on-CPU time,
// not background (one of up to three runs: load adds the runtime's own).
func TestParallelRunSplitsEachClient(t *testing.T) {
	const per = 100 * time.Microsecond
	op := func(int) error { burn(per); return nil }
	onceInThree(t, func() error {
		_, p := measureSplit(t, Run{Parallel: []func(int) error{op, op}}, 1000)
		// Two clients burn 1000 x 100 µs: each client thread's mean time
		// on a CPU is 50 ms per 1000 operations, 50 µs per operation.
		if p.onCPU < 0.4*float64(per) || p.onCPU > 0.6*float64(per) {
			t.Fatalf("on CPU %.0f ns/op, want half the %v each operation burns (the mean of two clients)", p.onCPU, per)
		}
		if p.background > 0.2*float64(per) {
			return fmt.Errorf("background CPU %.0f ns/op: the clients' burn counted as background", p.background)
		}
		return nil
	})
}

// TestFreeThreadIsNotDivided: a free-thread run says why it has no split.
func TestFreeThreadIsNotDivided(t *testing.T) {
	s, err := MeasureProbed(Run{Op: func(int) error { return nil }}, 0, 100, NewLatencyHistogram(),
		Options{FreeThread: true})
	if err != nil {
		t.Fatal(err)
	}
	if s.ThreadKnown || s.Why == "" || s.OnCPU != 0 {
		t.Fatalf("free thread: known %v, why %q, on CPU %v; want unknown with a reason", s.ThreadKnown, s.Why, s.OnCPU)
	}
}

// allocProbe allocates as much as the server probe does when it reads
// /proc for a server's processes.
type allocProbe struct{ keep [][]byte }

func (p *allocProbe) Start() { p.allocate() }
func (p *allocProbe) Stop()  { p.allocate() }
func (p *allocProbe) allocate() {
	for range 400 {
		p.keep = append(p.keep, make([]byte, 160))
	}
}

// TestProbeAllocationsAreNotTheWorkloads: a probe that allocates 64 KB
// at each reading leaves the workload's B/op and allocs/op as they are
// without it.
func TestProbeAllocationsAreNotTheWorkloads(t *testing.T) {
	var sink []byte
	op := func(int) error { sink = make([]byte, 100); _ = sink; return nil }
	measure := func(p Probe) Sample {
		s, err := MeasureProbed(Run{Op: op}, 0, 200, NewLatencyHistogram(), Options{Probe: p})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	measure(nil) // warm: the histogram, the runtime's first allocations
	plain, probed := measure(nil), measure(&allocProbe{})
	perOp := func(s Sample) (float64, float64) {
		return float64(s.Bytes) / float64(s.N), float64(s.Allocs) / float64(s.N)
	}
	b0, a0 := perOp(plain)
	b1, a1 := perOp(probed)
	t.Logf("without the probe %.1f B/op %.2f allocs/op; with it %.1f B/op %.2f allocs/op", b0, a0, b1, a1)
	if math.Abs(b1-b0) > 1 || math.Abs(a1-a0) > 0.05 {
		t.Fatalf("with an allocating probe %.1f B/op %.2f allocs/op, without %.1f B/op %.2f allocs/op: the probe "+
			"counted as the workload's", b1, a1, b0, a0)
	}
}

// TestThreadReadingsDoNotAllocate: opening and reading the thread's clock
// and the process's CPU allocate nothing (they sit inside the memory
// statistics).
func TestThreadReadingsDoNotAllocate(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	allocs := testing.AllocsPerRun(100, func() {
		var c threadClock
		if err := c.open(); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.read(); err != nil {
			t.Fatal(err)
		}
		c.close()
		if _, err := processCPU(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per reading, want none", allocs)
	}
}

// busyEnv names the environment variable that makes this test binary a
// CPU burner pinned to one CPU (see TestRunQueueUnderCompetition).
const busyEnv = "SQLBENCH_TEST_BUSY_CPU"

func TestMain(m *testing.M) {
	if cpu := os.Getenv(busyEnv); cpu != "" {
		n, _ := strconv.Atoi(cpu)
		var set unix.CPUSet
		set.Set(n)
		_ = unix.SchedSetaffinity(0, &set)
		// Bounded: 20 s at most, or until the parent goes.
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end) && os.Getppid() != 1; {
			for range 1_000_000 {
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestRunQueueUnderCompetition: three CPU-bound processes pinned to the
// CPU the timing thread is pinned to make the thread wait in the run
// queue. The thread only burns, so its time off a CPU is time in the run
// queue, never blocked: the competed runs spend at least half their time
// in the run queue (the three take three quarters of the CPU, or more
// when other work shares it too), and nine tenths of their time off a CPU
// is counted as run queue. Whatever else loads the machine only adds to
// both, where a comparison with an uncompeted run (logged beside) fades
// as the machine's own load rises (CI once had 86% without the three).
// Medians of 3 rounds.
func TestRunQueueUnderCompetition(t *testing.T) {
	if testing.Short() {
		t.Skip("starts CPU burners for a few seconds")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		t.Fatal(err)
	}
	cpu := -1
	for i := range 1024 {
		if old.IsSet(i) {
			cpu = i
			break
		}
	}
	var one unix.CPUSet
	one.Set(cpu)
	if err := unix.SchedSetaffinity(0, &one); err != nil { // this thread only
		t.Fatal(err)
	}
	defer unix.SchedSetaffinity(0, &old)
	// run returns the run-queue share of a run's time and of its time
	// off a CPU.
	run := func() (share, offCPU float64) {
		_, p := measureSplit(t, Run{Op: func(int) error { burn(100 * time.Microsecond); return nil }}, 1000)
		return p.runQueue / p.ns, p.runQueue / (p.runQueue + p.blocked)
	}
	compete := func() (stop func()) {
		var cmds []*exec.Cmd
		for range 3 {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), busyEnv+"="+strconv.Itoa(cpu))
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, cmd)
		}
		time.Sleep(30 * time.Millisecond)
		return func() {
			for _, c := range cmds {
				_ = c.Process.Kill()
				_ = c.Wait()
			}
		}
	}
	var idle, busy, busyOff []float64
	for range 3 {
		share, _ := run()
		idle = append(idle, share)
		stop := compete()
		share, off := run()
		busy, busyOff = append(busy, share), append(busyOff, off)
		stop()
	}
	for _, v := range [][]float64{idle, busy, busyOff} {
		slices.Sort(v)
	}
	t.Logf("run-queue share on CPU %d: without competitors %.1f%%, with three on the same CPU %.1f%%, %.1f%% of "+
		"their time off it (medians of 3)",
		cpu, 100*idle[1], 100*busy[1], 100*busyOff[1])
	if busy[1] < 0.5 || busyOff[1] < 0.9 {
		t.Fatalf("with three competitors on the same CPU: run-queue share %.1f%% (want at least 50%%), %.1f%% of the "+
			"time off it (want at least 90%%)",
			100*busy[1], 100*busyOff[1])
	}
}

// BenchmarkThreadClockRead times one reading of the timing thread's clock,
// which a run makes twice (each client of a parallel run twice, plus an
// open and a close), never per operation.
func BenchmarkThreadClockRead(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var c threadClock
	if err := c.open(); err != nil {
		b.Fatal(err)
	}
	defer c.close()
	for b.Loop() {
		if _, _, err := c.read(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestShortRunIsOnCPU: a run far shorter than a scheduler tick, on a
// thread that is never switched out, is still on a CPU for its work (the
// CPU time is read so that it includes the running slice).
func TestShortRunIsOnCPU(t *testing.T) {
	const per = 2 * time.Microsecond
	_, p := measureSplit(t, Run{Op: func(int) error { burn(per); return nil }}, 200)
	if p.onCPU < 0.9*float64(per) {
		t.Fatalf("a 400 µs run burning %v an operation: on CPU %.0f ns/op", per, p.onCPU)
	}
}

// TestClientsSplitTheirThreads: an operation that fans out to two client
// goroutines (Clients.Go), each burning 500 µs, is divided by the clients'
// threads: each is on a CPU 500 µs per operation, the coordinator's
// waiting is not blocked time, and the clients' burn is not background.
// The runtime's own background (its spinning threads, the coordinator's
// wake-ups) grows with the machine's load, so one of up to three runs
// must pass: a burn counted as background would be in every one of them,
// at 500 µs or more.
func TestClientsSplitTheirThreads(t *testing.T) {
	const per = 500 * time.Microsecond
	cl := NewClients(2)
	op := func(int) error {
		cl.Go(func(int) { burn(per) })
		return nil
	}
	onceInThree(t, func() error {
		_, p := measureSplit(t, Run{Op: op, Clients: cl}, 200)
		if p.onCPU < 0.9*float64(per) || p.onCPU > 1.2*float64(per) {
			t.Fatalf("on CPU %.0f ns/op, want the %v each client burns per operation", p.onCPU, per)
		}
		if p.background > 0.5*float64(per) {
			return fmt.Errorf("background CPU %.0f ns/op: the clients' burn counted as background", p.background)
		}
		return nil
	})
	if _, err := Measure(Run{Parallel: []func(int) error{op}, Clients: cl}, 0, 1, NewLatencyHistogram()); err == nil {
		t.Error("clients of a parallel run accepted")
	}
}
