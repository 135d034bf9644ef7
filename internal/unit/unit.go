// Package unit names the units of a result line sqlbench writes, in the Go
// benchmark format: the runners write them, the results file's table
// (benchfile.Units) and the reports read them. It is a leaf, so that both
// sides of a runner's protocol can import it.
package unit

// The time and memory of a run, per operation, as testing.B reports them.
const (
	NsPerOp     = "ns/op"
	OpsPerSec   = "ops/s"
	BytesPerOp  = "B/op"
	AllocsPerOp = "allocs/op"
	MBPerSec    = "MB/s"
)

// The latency percentiles of a run's operations, from its histogram.
const (
	P50  = "p50-ns/op"
	P99  = "p99-ns/op"
	P999 = "p99.9-ns/op"
)

// The runner's memory during a run, in bytes. PeakRSS is the process's
// peak resident set size: with one cell in the process, the memory a
// streamed bulk insert must keep flat. A runner process holds every open
// cell of its driver group, so in a larger session the peak includes
// theirs; RSSGrowth is how far the peak rose above the resident size at
// the run's start, the run's own share.
const (
	PeakRSS   = "peak-RSS-B"
	RSSGrowth = "RSS-growth-B"
)

// The division of a run's time per operation (see the protocol's run
// request): the timing thread's time on a CPU, in a run queue and blocked,
// which add up to ns/op; and, in parallel with it, the rest of the
// runner's CPU and the server's CPU.
const (
	OnCPU         = "oncpu-ns/op"
	RunQueue      = "runq-ns/op"
	Blocked       = "blocked-ns/op"
	BackgroundCPU = "bg-cpu-ns/op"
	ServerCPU     = "server-cpu-ns/op"
)

// Spin is the busy spin a spin variant's run spent per operation (a run
// request's spin=NS; --targets mattn+spin=50us).
const Spin = "spin-ns/op"

// Instructions are the instructions a run executes per operation inside
// its timed region, counted under callgrind (--measure instructions).
const Instructions = "instructions/op"

// The schedule of an open-loop run (sqlbench run --rate): the mean lag of
// an operation's start behind its scheduled start, the counts of the
// operations done over the latency limit (late) and skipped, and the rate
// of the operations done (ops/s counts the arrivals, skipped ones too).
const (
	Lag      = "lag-ns/op"
	Late     = "late"
	Skipped  = "skipped"
	DoneRate = "done-ops/s"
)

// The pool family's waits for a connection (workloads/pool.go, which
// writes them as these names; HikariCP's acquire time in the JDBC runner).
const (
	PoolWaits   = "pool-waits/op"
	PoolWait    = "pool-wait-ns/op"
	PoolAcquire = "acquire-ns/op"
)
