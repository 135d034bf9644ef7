// Package session runs one benchmark session from a Config. One type,
// Session, owns a run from its plan to its report — the Config, the Plan,
// the databases, the connections to the runners, the results file and the
// journal — and Run reads as its steps: plan (targets and workloads,
// NewPlan), open (the databases: SQLite files, the user's servers,
// throwaway servers), build (the runners), declare (what each runner
// implements), header (the results file's), loop (the interleaved
// schedule, each failure contained to its cell) and report; it returns
// what it did (Outcome). Front ends — the command line's run, reproduce
// and bisect — bind their input onto a Config and print the Outcome; none
// repeats a step.
package session

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/link"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/workloads/script"
)

// Defaults of a session. Six runs are the fewest whose median has a 95%
// confidence interval (benchmath, and benchstat, which says "need >= 6
// samples" below it). Scale 0.1 and five slices keep the default run (the
// classic suite on every SQLite target) under 90 s on a 2-core machine
// (docs/methodology.md, "The default run": per-slice set-up is most of its
// time, as its fastest cells' slices last under a millisecond); scale 1
// runs the published sizes. Slices average each run over that many moments
// of the session, which the machine's own drift needs (docs/methodology.md,
// "How much noise is left": use more, --slices 20, on the servers, where
// they cost no time); a smoke run keeps five runs, for speed.
const (
	DefaultCount   = 6
	DefaultScale   = 0.1
	DefaultWarmup  = 0.1
	DefaultSlices  = 5
	DefaultPin     = pin.None
	DefaultTimeout = 5 * time.Minute
	QuickScale     = 0.01
	QuickCount     = 5
	QuickSlices    = 5
)

// The design of a budgeted --quick reproduction (sqlbench reproduce
// --quick at its own scale, without --count): QuickLooks looks (8, 12,
// ... 40 runs per cell, 5% over all looks) within QuickBudgetTimes × the
// measuring time of the fixed design of QuickCount runs per cell, about
// what every look's runs would take if no comparison were decided early. At smoke size that is still minutes,
// and the runs, not the clock, are what its comparisons lack
// (docs/methodology.md, "The default run and reproduce, budgeted by
// default").
const (
	QuickLooks       = 9
	QuickBudgetTimes = 8.0
)

// SmokeProbeShare divides the machine's probes before each pass (the
// drift loop's work, the wake-up round trips) in a smoke session
// (Config.Smoke, --quick): its slices are about a tenth as long as the
// default run's, which the probes are sized for, and at full size they
// took most of a --quick session's measuring time (docs/methodology.md,
// "The default run and reproduce, budgeted by default").
const SmokeProbeShare = 10

// The CPUs' idle regimes (Config.IdleLatency).
const (
	IdleDefault = "default"
	IdleLow     = "low"
	// IdleAuto is low where this process may hold the PM QoS request (as
	// root), else the kernel's default regime, with a note saying why;
	// reproduce's default (docs/reproduce.md, "The CPUs' idle regime").
	IdleAuto = "auto"
)

// DefaultWorkloads is what a session runs when Config.Workloads is empty:
// the classic suite, about a minute and a half on SQLite at the default
// scale and slices.
const DefaultWorkloads = "classic"

// Config is everything a session needs to know, already parsed: what to
// run, where, and how. The zero values of the slices mean "the default".
type Config struct {
	// DBs are the databases to benchmark (default: SQLite).
	DBs []bench.DB
	// Targets names the targets to run; empty means every target of DBs.
	// Naming them makes a target that cannot run count against the
	// outcome (Outcome.Partial).
	Targets []string
	// Workloads names families, workload names (all their variants), IDs
	// or "all"; empty means DefaultWorkloads.
	Workloads []string
	// Count is the number of timed runs per cell; Slices the parts each run
	// is made of, spread over the session. With a Budget, Count is the
	// first stage's runs (raised to the fewest a look needs: Design).
	Count, Slices int
	// Budget, when above 0, makes the session budgeted (Design): after a
	// first stage of Count runs per cell, rounds of more runs go to the
	// cells of the ratio comparisons still undecided, at most Looks looks
	// in all (0: DefaultLooks), while the next round's estimated time fits
	// in what is left of Budget (the measuring time).
	Budget time.Duration
	Looks  int
	// BudgetTimes, when above 0 and Budget is 0, makes the session budgeted
	// with a default budget: BudgetTimes × the measuring time of the fixed
	// design of Count runs per cell, as the first stage measures it
	// (Design). sqlbench run sets DefaultBudgetTimes when neither --count
	// nor --budget is given.
	BudgetTimes float64
	// Scale multiplies every workload's operation count; Warmup is the
	// fraction of a run's operations run untimed before it.
	Scale, Warmup float64
	// WarmupAll applies Warmup to the workloads whose published program
	// had no warm-up too (bench.Workload.NoWarmup), which otherwise run
	// cold.
	WarmupAll bool
	// ColdJVM starts the JDBC runners without their JIT warm-up (untimed
	// runs before a cell's first timed run): a cell's first run is its
	// first in the JVM, as in a published Java program that ran cold.
	// sqlbench reproduce sets it for a study with no warm-up.
	ColdJVM bool
	// VariantWith are, per variant target name (zombiezen@v1.4.2), other
	// modules its runner is built with, as module@version: a study's
	// program built the driver on another module's engine at a version of
	// its own (sqlbench reproduce sets it from studies.Period.With).
	VariantWith map[string][]string
	// StudyBuilds, when set, is the results file's reproduce-builds line:
	// the study's targets built otherwise than the catalogue's (the
	// period versions of reproduce's default --versions published, the study's own
	// builds) and those that fell back to it.
	StudyBuilds string
	// JDBCPreparedExecSQL makes the JDBC runners' PreparedExec call
	// ps.execute(sql), the SQL passed again, as the SQL-Benchmark Java
	// program did (Connector/J runs it as a plain statement), instead of
	// ps.execute(). sqlbench reproduce sets it for those studies.
	JDBCPreparedExecSQL bool
	// NoPreceding runs every cell from a settled heap, without the replay of
	// the tests its published program ran before it in one process
	// (bench.Workload.Follows: go-sqlite-bench's 50 and 100 KB tests before
	// its 200 KB one), which is the default (protocol.Request.NoPreceding).
	NoPreceding bool
	// Smoke runs the workloads that have a smoke scale of their own
	// (bench.Workload.Smoke) at it, instead of Scale.
	Smoke bool
	// Timeout bounds one run of one cell.
	Timeout time.Duration
	// Out is the results file; empty means results/sqlbench-<time>.txt in
	// Host.Dir, suffixed -2, -3 ... when taken. An Out that exists is
	// refused unless Force.
	Out   string
	Force bool
	// Cache is where built runners are kept.
	Cache string
	// DSNs are the user's servers by database; a server database without
	// one is read from its environment variable (dsn.EnvVar), else a
	// throwaway server is started.
	DSNs map[bench.DB]string
	// AllowRemote permits a DSN whose server is not on this machine.
	AllowRemote bool
	// Nets are the transports to the servers the session starts.
	Nets []string
	// Link, when set, puts an emulated network link (package link)
	// between the runners and every server over TCP, the transport
	// floor's sinks too; the unix socket cannot go through it.
	Link *link.Spec
	// Profile configures the servers the session starts.
	Profile servers.Profile
	// TLS starts the servers with a self-signed certificate and connects
	// every target to them over TLS (tcp), verified against it where the
	// driver can; a DSN's own TLS parameters are kept whatever it says.
	TLS bool `json:",omitempty"`
	// Pin is the CPU placement of server and runner.
	Pin pin.Mode
	// IdleLatency is the CPUs' idle regime: "" or IdleDefault leaves idle
	// states to the kernel's idle driver; IdleLow holds the PM QoS request
	// of wake.DMALatencyPath at 0 µs for the session, keeping every CPU out
	// of deep idle (recorded as idle-latency); IdleAuto holds it where
	// it can and otherwise keeps the default regime, recording why (the
	// session fact idle-latency-auto). The session sets it to the regime
	// it ran in.
	IdleLatency string
	// CPUProfile, when set, is a directory where every cell's Go runner
	// writes a CPU profile of the cell's timed runs (runtime/pprof, the
	// slices merged), <target>-<workload>-<net>.pprof; JDBC cells have
	// none.
	CPUProfile string
	// SQLite holds the SQLite session settings.
	SQLite bench.SQLiteSettings
	// Command is the command line that asked for the session, recorded in
	// the results file and the journal: built from the parsed flags, with
	// passwords masked (never the raw command line).
	Command []string
	// CPUs are the GOMAXPROCS values every cell of a Go runner runs with,
	// one cell per value (go test -cpu); the result names end in "-N".
	// Empty leaves GOMAXPROCS alone and the names without a suffix. The
	// JDBC runner has no GOMAXPROCS: its cells run once, without one.
	CPUs []int
	// TimingThread says whether the goroutine that times a Go cell's
	// operations is locked to its OS thread for the run, so that the run's
	// time is divided into on-CPU, run-queue and blocked time
	// (protocol.Request.FreeThread; the rule is freeThreadFor's): ThreadLocked for every cell, ThreadFree
	// for none (a plain Go program's goroutines, as the published programs
	// ran), ThreadAuto ("" too) for the cells that wait on no network
	// (SQLite), on no process of their own (targets.Spec.Piped: sqinn) and
	// whose target hands no call to a goroutine of its own
	// (targets.Spec.FreeIn): locking costs a cell that waits on a socket a hand-over
	// between two threads per reply, +26-34% per round trip here
	// (docs/where-time-goes.md), and nothing measurable on SQLite.
	TimingThread string
	// Baseline is the target the reports' ratio tables set every other
	// against (report.Report.Baseline); "" takes the first target of each
	// table in catalogue order. It changes no measurement.
	Baseline string
	// Resolution is the smallest relative difference the reports' ratio
	// comparisons count (report.Report.Resolution; 0 takes
	// report.DefaultResolution): within it, equivalent. StudyResolution
	// is that of a reproduced study's published ratios
	// (report.Report.StudyResolution). Neither changes a measurement.
	Resolution, StudyResolution float64
	// Study, when set, is the published study the session reproduces
	// (package studies), recorded as the results file's reproduce-study
	// line so that reports set the study's figures beside the measured.
	Study string
	// Cells, when set, limits the cells of the targets it names to the
	// workload IDs it lists for them (a study that compared one target on
	// some of its tests only); targets it does not name run every planned
	// workload.
	Cells map[string][]string
	// Script, when set, is a script workload (sqlbench run --script) the
	// session runs beside the Workloads (none unless named, then).
	Script *script.Spec
	// Measure is what the session measures beside time: MeasureTime ("" too)
	// measures time only; MeasureInstructions also counts the instructions
	// each Go runner executes per operation in a run's timed region, under
	// Valgrind's callgrind (launcher.StartCounting): every Go cell's timing
	// goroutine is locked to its thread, and JDBC targets are skipped.
	Measure string
	// Rate, when above 0, runs every cell open-loop (sqlbench run --rate,
	// docs/open-loop.md): operations arrive at Rate per second, Poisson
	// distributed, and their latencies run from their scheduled starts
	// (bench.OpenLoop). LatencyLimit, with Rate, skips the operations
	// already more than it behind their schedule and counts those finished
	// over it (late). Progress, with Rate, closes an interval of each run's
	// time series every Progress, printed during the run and recorded in the
	// results file.
	Rate         float64
	LatencyLimit time.Duration
	Progress     time.Duration
	// Resume names the journal of an interrupted session to finish: the
	// session it planned is planned again, its journaled slices are taken
	// as measured, only the missing ones run. The rest of the Config but
	// DSNs and Cache comes from the journal.
	Resume string
}

// Host is the machine and process a session runs in, as far as it reads
// from and writes to them (environment, PATH, working directory, log), so
// that tests can set it.
type Host struct {
	// Getenv reads an environment variable.
	Getenv func(string) string
	// LookPath finds a program on PATH.
	LookPath func(string) (string, error)
	// Dir is the working directory: where the runner sources are looked
	// for.
	Dir string
	// Log receives progress and notes; LogTTY is set when it is a
	// terminal (a progress bar instead of lines).
	Log    io.Writer
	LogTTY bool
	// DMALatency is the PM QoS device --idle-latency low holds; "" means
	// wake.DMALatencyPath (tests name another file).
	DMALatency string
	// ServerState is where `sqlbench server start` records its servers;
	// "" means servers.DefaultStateDir(). The session records its use of
	// those its DSNs point at there.
	ServerState string
}

// ScaleOf returns the scale workload w runs at: its smoke scale in a smoke
// session, else Scale.
func (c *Config) ScaleOf(w bench.Workload) float64 {
	if c.Smoke {
		return w.QuickScale(c.Scale)
	}
	return c.Scale
}

// WarmupOf returns the warm-up workload w runs with, as a fraction of a
// run: Warmup, or none for a workload whose published program had none
// (bench.Workload.NoWarmup) unless WarmupAll.
func (c *Config) WarmupOf(w bench.Workload) float64 {
	if w.Timed || w.NoWarmup && !c.WarmupAll {
		return 0
	}
	return c.Warmup
}

// Runs reports whether the session runs the cell of target on workload
// id, as far as Cells says.
func (c *Config) Runs(target, id string) bool {
	ids, limited := c.Cells[target]
	return !limited || slices.Contains(ids, id)
}

// SmokeScales lists, for the results file, the workloads of ws that run at
// a scale other than Scale (BulkInsert=0.0001), by name, in catalogue
// order.
func (c *Config) SmokeScales(ws []bench.Workload) []benchfile.NamedScale {
	var out []benchfile.NamedScale
	for _, w := range ws {
		s := benchfile.NamedScale{Name: w.Name, Scale: c.ScaleOf(w)}
		if s.Scale != c.Scale && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// InputError is bad input found by the session (an unknown name, a DSN
// that does not parse or reach, an unwritable results path): the front end
// reports it as such, not as a failure of the machine.
type InputError struct{ Msg string }

func (e InputError) Error() string { return e.Msg }

func inputf(format string, args ...any) error { return InputError{fmt.Sprintf(format, args...)} }

// What a session measures (Config.Measure).
const (
	MeasureTime         = "time"
	MeasureInstructions = "instructions"
)

// Timing-thread modes (Config.TimingThread).
const (
	ThreadAuto   = "auto"
	ThreadLocked = "locked"
	ThreadFree   = "free"
)

// ParseTimingThread checks a --timing-thread value.
func ParseTimingThread(s string) (string, error) {
	switch s {
	case ThreadAuto, ThreadLocked, ThreadFree:
		return s, nil
	}
	return "", fmt.Errorf("must be auto, locked or free, got %q", s)
}

// The values of --preceding-tests: replay the tests a cell's published
// program ran before it in its process (the default), or none
// (Config.NoPreceding).
const (
	PrecedingReplay = "replay"
	PrecedingNone   = "none"
)

// PrecedingUsage is the help text of --preceding-tests.
const PrecedingUsage = "replay: before each run of go-sqlite-bench's 100 and 200 KB large tests, its runner runs " +
	"the program's smaller large tests (50 KB; 50 and 100 KB), untimed, on their own files, removed after, with " +
	"no settling of the heap between, as the program runs them in one process; none: every run from a settled " +
	"heap; recorded as preceding-tests"

// ParsePreceding parses a --preceding-tests value into Config.NoPreceding.
func ParsePreceding(s string) (bool, error) {
	switch s {
	case PrecedingReplay:
		return false, nil
	case PrecedingNone:
		return true, nil
	}
	return false, fmt.Errorf("must be %s or %s, got %q", PrecedingReplay, PrecedingNone, s)
}
