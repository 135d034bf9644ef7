// Command noise-probe times mattn's `SELECT number, str FROM test` (the
// 100-row table of the classic family) run after run, as a bare
// `go test -bench` loop does, and records with each run what might explain
// its time: the thread's run-queue wait and migrations, the process's page
// faults, context switches and kernel time, the machine's steal time, the
// garbage collector's cycles and CPU. Arms alternate run by run (A B A B …)
// so that a ratio of neighbouring runs compares them under the same load.
// It prints one tab-separated line per run; docs/methodology.md ("What makes
// memory-heavy cells vary here") says what it found.
//
//	go run ./scripts/noise-probe -runs 40 -arms base,gcoff
package main

import (
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"syscall"
	"time"

	_ "github.com/mattn/go-sqlite3"
	"golang.org/x/sys/unix"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// knownArms are the arms prepare knows.
var knownArms = []string{"base", "settle", "gcoff", "gc400", "thpoff", "procs1", "sleep", "nice", "autogroup", "spin"}

func main() {
	runs := flag.Int("runs", 24, "runs per arm")
	ops := flag.Int("ops", 1000, "queries per run")
	arms := flag.String("arms", "base", "comma-separated arms, alternated run by run: "+
		"base (runtime.GC before the run, as go test), settle (debug.FreeOSMemory before it, as sqlbench), "+
		"gcoff (GOGC off in the run), gc400 (GOGC=400 in the run), thpoff (PR_SET_THP_DISABLE), "+
		"procs1 (GOMAXPROCS=1 in the run), sleep (5 ms asleep before the run), "+
		"nice (every thread at nice -10 in the run), autogroup (the process's autogroup at nice -10 in the run: "+
		"start the probe with setsid, "+
		"so that the group is its own), "+
		"spin (a pure CPU loop as long as the queries)")
	flag.Parse()
	list := strings.Split(*arms, ",")
	for _, a := range list {
		if !slices.Contains(knownArms, a) {
			fmt.Fprintf(os.Stderr, "noise-probe: -arms: unknown arm %q (known: %s)\n", a, strings.Join(knownArms, ", "))
			os.Exit(2)
		}
	}
	if *runs < 1 || *ops < 1 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "noise-probe: -runs and -ops want a number above 0, and no other argument")
		os.Exit(2)
	}
	if err := probe(*runs, *ops, list); err != nil {
		fmt.Fprintln(os.Stderr, "noise-probe:", err)
		os.Exit(1)
	}
}

type sampleSet struct {
	wall                     time.Duration
	minflt, majflt           int64
	nvcsw, nivcsw            int64
	utime, stime             time.Duration
	threadCPU, threadRunq    time.Duration
	migrations               int64
	steal, total             float64
	gcCycles                 uint64
	gcCPU, scavCPU           float64
	heapReleased, heapMapped uint64
}

var metricNames = []string{
	"/gc/cycles/total:gc-cycles",
	"/cpu/classes/gc/total:cpu-seconds",
	"/cpu/classes/scavenge/total:cpu-seconds",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/total:bytes",
}

func read(ms []metrics.Sample, s *sampleSet) error {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return err
	}
	s.minflt, s.majflt, s.nvcsw, s.nivcsw = ru.Minflt, ru.Majflt, ru.Nvcsw, ru.Nivcsw
	s.utime = time.Duration(syscall.TimevalToNsec(ru.Utime))
	s.stime = time.Duration(syscall.TimevalToNsec(ru.Stime))
	b, err := os.ReadFile("/proc/thread-self/schedstat")
	if err != nil {
		return err
	}
	var cpu, runq int64
	if _, err := fmt.Sscan(string(b), &cpu, &runq); err != nil {
		return err
	}
	s.threadCPU, s.threadRunq = time.Duration(cpu), time.Duration(runq)
	b, err = os.ReadFile("/proc/thread-self/sched")
	if err != nil {
		return err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "se.nr_migrations" {
			fmt.Sscan(f[2], &s.migrations)
		}
	}
	if s.total, s.steal, err = procs.CPUTotals(); err != nil {
		return err
	}
	metrics.Read(ms)
	s.gcCycles = ms[0].Value.Uint64()
	s.gcCPU, s.scavCPU = ms[1].Value.Float64(), ms[2].Value.Float64()
	s.heapReleased, s.heapMapped = ms[3].Value.Uint64(), ms[4].Value.Uint64()
	return nil
}

func probe(runs, ops int, arms []string) error {
	dir, err := os.MkdirTemp("", "noise-probe")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	db, err := sql.Open("sqlite3", filepath.Join(dir, "probe.db"))
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	const create = "CREATE TABLE test (number INT NOT NULL, str VARCHAR(4) NOT NULL, PRIMARY KEY (number))"
	if _, err := db.Exec(create); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("INSERT INTO test (number, str) VALUES ")
	for i := range 100 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "(%d,'Test')", i)
	}
	if _, err := db.Exec(b.String()); err != nil {
		return err
	}
	query := func() error {
		rows, err := db.Query("SELECT number, str FROM test")
		if err != nil {
			return err
		}
		var n int64
		var s string
		k := 0
		for rows.Next() {
			if err := rows.Scan(&n, &s); err != nil {
				return err
			}
			k++
		}
		if k != 100 {
			return fmt.Errorf("%d rows", k)
		}
		return rows.Close()
	}
	runtime.LockOSThread()
	for range ops { // warm-up
		if err := query(); err != nil {
			return err
		}
	}
	ms := make([]metrics.Sample, len(metricNames))
	for i, n := range metricNames {
		ms[i].Name = n
	}
	fmt.Println("run\tarm\tns/op\trunq-ns/op\toffcpu-ns/op\tsteal%\tminflt\tmajflt\tnvcsw\tnivcsw\tmigr" +
		"\tstime-ns/op\tgc\tgc-cpu-ns/op\tscav-cpu-ns/op\treleased-MB\tmapped-MB\tload1")
	for r := range runs * len(arms) {
		arm := arms[r%len(arms)]
		if err := prepare(arm, true); err != nil {
			return err
		}
		var s0, s1 sampleSet
		if err := read(ms, &s0); err != nil {
			return err
		}
		t0 := time.Now()
		if arm == "spin" {
			sink += spin(sink|1, spinSteps*ops)
		} else {
			for range ops {
				if err := query(); err != nil {
					return err
				}
			}
		}
		wall := time.Since(t0)
		if err := read(ms, &s1); err != nil {
			return err
		}
		if err := prepare(arm, false); err != nil {
			return err
		}
		n := float64(ops)
		steal := 0.0
		if d := s1.total - s0.total; d > 0 {
			steal = 100 * (s1.steal - s0.steal) / d
		}
		cpu := s1.threadCPU - s0.threadCPU
		runq := s1.threadRunq - s0.threadRunq
		load, _ := os.ReadFile("/proc/loadavg")
		fmt.Printf("%d\t%s\t%.0f\t%.0f\t%.0f\t%.2f\t%d\t%d\t%d\t%d\t%d\t%.0f\t%d\t%.0f\t%.0f\t%.1f\t%.1f\t%s\n",
			r/len(arms), arm, float64(wall)/n, float64(runq)/n, float64(wall-cpu-runq)/n, steal,
			s1.minflt-s0.minflt, s1.majflt-s0.majflt, s1.nvcsw-s0.nvcsw, s1.nivcsw-s0.nivcsw,
			s1.migrations-s0.migrations, float64(s1.stime-s0.stime)/n, s1.gcCycles-s0.gcCycles,
			(s1.gcCPU-s0.gcCPU)*1e9/n, (s1.scavCPU-s0.scavCPU)*1e9/n,
			float64(s1.heapReleased)/(1<<20), float64(s1.heapMapped)/(1<<20), strings.Fields(string(load))[0])
	}
	return nil
}

// niceAll sets the nice value of every thread of the process (Linux keeps
// one per thread; a new thread takes its creator's).
func niceAll(v int) error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		var tid int
		if _, err := fmt.Sscan(t.Name(), &tid); err != nil {
			continue
		}
		if err := unix.Setpriority(unix.PRIO_PROCESS, tid, v); err != nil && !errors.Is(err, unix.ESRCH) {
			return fmt.Errorf("nice %d thread %d: %w", v, tid, err)
		}
	}
	return nil
}

// spinSteps is the number of steps of spin that take about as long as one
// query on this machine (about 32 µs).
const spinSteps = 21_000

var sink uint64

// spin is n steps of a multiply-xorshift chain that touches no memory (the
// drift probe's work, internal/drift).
func spin(x uint64, n int) uint64 {
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
		x ^= x >> 29
	}
	return x
}

// prepare sets arm up before its run (before true) or undoes it after.
func prepare(arm string, before bool) error {
	switch arm {
	case "base":
		if before {
			runtime.GC()
		}
	case "settle":
		if before {
			debug.FreeOSMemory()
		}
	case "gcoff", "gc400":
		if before {
			runtime.GC()
			debug.SetGCPercent(map[string]int{"gcoff": -1, "gc400": 400}[arm])
		} else {
			debug.SetGCPercent(100)
		}
	case "sleep":
		if before {
			runtime.GC()
			time.Sleep(5 * time.Millisecond)
		}
	case "nice":
		v := 0
		if before {
			runtime.GC()
			v = -10
		}
		return niceAll(v)
	case "autogroup":
		v := "0"
		if before {
			runtime.GC()
			v = "-10"
		}
		return os.WriteFile("/proc/self/autogroup", []byte(v), 0)
	case "spin":
		if before {
			runtime.GC()
		}
	case "procs1":
		if before {
			runtime.GC()
			runtime.GOMAXPROCS(1)
		} else {
			runtime.GOMAXPROCS(runtime.NumCPU())
		}
	case "thpoff":
		v := 0
		if before {
			runtime.GC()
			v = 1
		}
		return unix.Prctl(unix.PR_SET_THP_DISABLE, uintptr(v), 0, 0, 0)
	default:
		return errors.New("unknown arm " + arm)
	}
	return nil
}
