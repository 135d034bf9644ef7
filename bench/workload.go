package bench

import (
	"context"
	"math"
	"slices"
	"time"
)

// Workload is one benchmark, written once against Conn so that it runs on
// every target. A cell is one workload on one target; a cell is set up once
// and then timed in several runs.
//
// A workload that is one point of a sweep (a concurrency level, a row size)
// or one path of several (prepared insert, COPY) shares its Name with its
// siblings and differs in Keys; ID names it uniquely.
type Workload struct {
	// Name is the benchmark name, the first element of a result name.
	Name string
	// Keys, when set, are further key=value elements of the result name,
	// slash-separated ("shape=3x8/path=copy"); they follow the target's keys.
	Keys string
	// Family groups workloads that are reported in one table.
	Family string
	// Describe says in one line what the workload does on dialect d.
	Describe func(d Dialect) string
	// Ops is how many operations one run performs at scale 1.
	Ops int
	// Unit names the operations in reports, plural ("queries", "rows").
	Unit string
	// Setup prepares the database for the workload once per cell. It is not
	// timed.
	Setup func(e Env) error
	// Begin prepares one run (prepared statements, expected values, extra
	// connections). The returned Run's operations are what the harness
	// times.
	Begin func(e Env) (Run, error)
	// Teardown drops what Setup created; it runs when the cell closes.
	Teardown func(e Env) error
	// Only, when set, lists the databases the workload runs on; nil means
	// every SQL database (AllDBs). A Kind runs only what names it here.
	Only []DB
	// Needs, when set, is the capability a target must have to run the
	// workload (see the Cap constants); targets without it are not planned.
	Needs Cap
	// Whole marks a workload whose run must not be split into slices
	// spread over the session (see internal/session's Schedule): a run that is one
	// transaction or one stream, such as a bulk insert.
	Whole bool
	// Period, when above 1, is the length of the passes a run's
	// operations come in (a statement prepared again every Period
	// operations, the pass counting from the slice's first operation): a
	// run split into slices is split at multiples of it, so that every
	// slice begins a pass where the published loop does and the run holds
	// the published prepares, neither more nor fewer.
	Period int
	// MinScale, when set, is the smallest --scale at which the workload is
	// planned: a variant too big for a smoke run (a 1 GB message) sets 1,
	// so that it runs only at the published size. The shared target tests
	// (targettest) leave such workloads to their own package's tests.
	MinScale float64
	// Smoke, when set, is the scale a smoke run (sqlbench run --quick)
	// uses for this workload instead of the catalogue's quick scale, for a
	// workload whose quick-scaled run would still take minutes on a server
	// (ten million bulk-insert rows at 0.01 is 100,000 single-row INSERTs).
	// Siblings (one Name) share it.
	Smoke float64
	// Spread asks reports for the median ± standard deviation, minimum and
	// maximum of the runs beside the usual confidence interval: the
	// statistics the published bulk-insert study gave. Siblings share it.
	Spread bool
	// NoWarmup marks a workload whose published program times its runs
	// with no warm-up (a bulk or single-row insert, an insert or read of a
	// published SQLite suite that starts from a fresh database): a session
	// runs it without untimed operations first unless asked to warm up
	// every workload (session.Config.WarmupAll, recorded as the results'
	// "warmup-all" config line).
	NoWarmup bool
	// Pool, when above 1, asks for the cell's own connection (Env.Conn) to
	// be a pool that Pool goroutines may use at once (a target with
	// CapPool), open for the cell's whole life, as a program that keeps one
	// *sql.DB for all its runs; Env.Pool then says so. The workload shares
	// it between its goroutines instead of opening a pool per run.
	Pool int
	// Timed marks a workload whose runs last a time (Run.Duration) rather
	// than a count: Ops, unscaled, is only a run's upper bound, the result
	// has the operations done, and it has no warm-up.
	Timed bool
	// FreshDB marks a workload whose published program starts each test on
	// a new database (go-sqlite-bench removes its database files first):
	// before every run, outside the clock, the runner closes the cell's
	// connection, removes a SQLite cell's database file (and its -journal,
	// -wal and -shm files), opens the cell again and runs Setup again. The
	// run then begins in the heap that Setup left (the runner settles the
	// heap before the reopening, not after), as the program's read follows
	// its insert in one process. A server's cell keeps its database.
	FreshDB bool
	// Follows lists, by ID, the workloads the published program runs
	// before this one in the same process, each on a new database of its
	// own (go-sqlite-bench's 50 and 100 KB tests before its 200 KB one), in
	// its order. Before each run of a FreshDB workload on SQLite the runner
	// replays them, outside the clock, unless the request leaves them out
	// (protocol.Request.NoPreceding): each one's Setup and one untimed run
	// of it on a new file at the cell's path, removed after, with the heap
	// settled before the first and never between, so that the run starts
	// in the heap and collector pacing the program's earlier tests left.
	Follows []string
	// SetupRuns, when set, is the ID of the workload one run of which is
	// what Setup does (the large read's set-up is the large insert's run):
	// an estimate of the time a replay of this workload (Follows) takes
	// counts that run too.
	SetupRuns string
	// ScaledData marks a workload whose tables are sized by --scale
	// (Env.Scaled), so that one operation's cost grows in proportion to the
	// scale: estimates of a --scale 1 run from a smaller one divide its
	// ns/op by the scale it ran at.
	ScaledData bool
}

// QuickScale returns the scale a smoke run uses for the workload: Smoke
// when set, else quick, the catalogue's quick scale.
func (w Workload) QuickScale(quick float64) float64 {
	if w.Smoke > 0 {
		return w.Smoke
	}
	return quick
}

// PlannedAt reports whether the workload is planned in a run at scale s.
func (w Workload) PlannedAt(s float64) bool { return s >= w.MinScale }

// ID returns the workload's unique name: Name, then Keys.
func (w Workload) ID() string {
	if w.Keys == "" {
		return w.Name
	}
	return w.Name + "/" + w.Keys
}

// RunsOn reports whether the workload runs on db: on every SQL database
// when Only is nil, else on those Only lists.
func (w Workload) RunsOn(db DB) bool {
	if w.Only == nil {
		return db.SQL()
	}
	return slices.Contains(w.Only, db)
}

// OpsAt returns the operation count of one run at scale s: at least 1.
func (w Workload) OpsAt(s float64) int {
	n := int(math.Round(float64(w.Ops) * s))
	if n < 1 {
		n = 1
	}
	return n
}

// Cap is an ability some targets have beyond Conn (or, for a Kind, beyond
// Handle; a Kind's package declares its own). A target declares its
// capabilities where it is implemented (a Go target with RegisterOpener or
// RegisterHandleOpener, a JDBC target in the JDBC runner's Target.java);
// its runner's hello reports them, and the orchestrator skips a target
// whose declaration differs from the target catalogue's.
type Cap string

// Capabilities.
const (
	// CapPool: the Opener honours Config.Pool, returning a Conn (and Stmts)
	// that many goroutines may use at once.
	CapPool Cap = "pool"
	// CapCopy: the Conn implements Copier (PostgreSQL COPY FROM STDIN).
	CapCopy Cap = "copy"
	// CapLoad: the Conn implements Loader (MySQL LOAD DATA LOCAL INFILE).
	CapLoad Cap = "load"
	// CapBatch: the target batches a prepared statement's executions
	// (JDBC addBatch/executeBatch); only the JDBC runner implements it.
	CapBatch Cap = "batch"
	// CapRewrite: the target's batches can be rewritten into multi-row
	// INSERTs by the driver (Connector/J rewriteBatchedStatements, pgjdbc
	// reWriteBatchedInserts); only the JDBC runner implements it.
	CapRewrite Cap = "rewrite"
	// CapContext: the Conn implements ContextQuerier, a one-row call whose
	// context (deadline, cancellation) reaches the driver; a JDBC target
	// declares it for Statement.cancel() from another thread.
	CapContext Cap = "context"
)

// Env is what a workload's functions are given: the cell's connection and
// dialect, and a way to open more connections of the same target.
type Env struct {
	// Ctx is cancelled when the run is abandoned.
	Ctx context.Context
	// Conn is the cell's connection, open for the cell's lifetime; nil for
	// a target of a Kind.
	Conn Conn
	// Handle is the cell's session for a target of a Kind, open for the
	// cell's lifetime; nil for a SQL target. The kind's workloads
	// type-assert it.
	Handle Handle
	// Dialect is the cell's database dialect, scoped to the cell.
	Dialect Dialect
	// Open opens another connection of the cell's target to the same
	// database, with the dialect's session settings applied. pool > 1 asks
	// for a Conn that pool goroutines may use at once (targets with
	// CapPool). The caller closes it. Nil for a target of a Kind.
	Open func(ctx context.Context, pool int) (Conn, error)
	// Pool is how many goroutines Conn may serve at once: the workload's
	// Pool when the cell's connection was opened as a pool for it, else 0
	// (one goroutine at a time).
	Pool int
	// Warm and N are the untimed and timed operation counts of the run
	// being begun (set for Begin only): operations 0 .. Warm+N-1.
	Warm, N int
	// Scale is the run's --scale (1 = the published sizes), set for Setup
	// and Begin; zero means 1. A workload whose one operation reads a whole
	// table sizes that table by it (see Scaled), since scaling the
	// operation count alone would leave every run reading the published
	// size.
	Scale float64
}

// Scaled returns n multiplied by the environment's Scale, rounded, and at
// least 1.
func (e Env) Scaled(n int) int {
	s := e.Scale
	if s <= 0 {
		s = 1
	}
	return max(1, int(math.Round(float64(n)*s)))
}

// Run is one timed run of a workload. It sets exactly one of Op, Parallel
// and Batch.
type Run struct {
	// Op performs operation i of the run and checks its result. A result
	// that differs from what the workload wrote is an error: the cell fails.
	Op func(i int) error
	// Parallel holds one operation function per client goroutine; the
	// harness runs them at once, each taking the next operation number
	// until the run's operations are done.
	Parallel []func(i int) error
	// Batch performs operations [first, first+n) in one call, for APIs that
	// take a whole stream (COPY, LOAD DATA); no latencies are sampled.
	Batch func(first, n int) error
	// Start, when set, runs before the first operation and is timed: what
	// a published program does inside its timed region before its loop
	// (prepare the statement its loop runs). A run with Start pairs it
	// with Finish (close the statement), and may run them more than once:
	// its warm-up, when it has one, runs untimed between a Start and a
	// Finish of its own (see Warm), and a run split into slices times
	// Start in its first slice only, Finish in its last only, and runs
	// them outside the clock in the others (see Options.Continued).
	Start func() error
	// Finish, when set, runs after the last operation and is timed (the
	// commit of a bulk insert, the close of what Start prepared).
	Finish func() error
	// End releases what Begin prepared and checks what the run wrote; it is
	// not timed. It may be nil.
	End func() error
	// Carry keeps what Start made from one slice of a run to the next: the
	// runner holds the run between its slices instead of finishing it,
	// untimed, after each and starting it again before the next (see
	// Options.Carried), so that no slice remakes, inside the clock, what
	// the run had made in its earlier slices. It is for what an untimed
	// Start cannot remake as the run left it: a statement prepared on a
	// pool, which database/sql prepares again on each other connection at
	// its first use there, inside the clock (the published program does
	// that once a run, each slice did it again). A runner that no longer
	// holds the run (restarted) starts it again as without Carry.
	Carry bool
	// BytesPerOp, when set, is the payload one operation moves; the result
	// then reports MB/s.
	BytesPerOp float64
	// Timer, when set, is the clock the run's Op or Batch may pause (see
	// Timer); the paused time is excluded from the run's figure.
	Timer *Timer
	// Clients, when set, are the client goroutines each operation fans
	// out to (Clients.Go): the run's time is divided by their threads'
	// times instead of the operation's own goroutine's.
	Clients *Clients
	// Duration, when set (Parallel runs only), ends the timed run once it
	// has lasted that long, or after its n operations if sooner: the
	// sample's N is then the operations done (a script run for a time,
	// sqlbench run --time).
	Duration time.Duration
	// Uncollected starts the clock without the collection that otherwise
	// precedes it (see MeasureProbed): the run reads in the heap, and under
	// the collector's pacing, that its Setup and Begin left, as a published
	// program that times a read right after its untimed insert in one
	// process (go-sqlite-bench's large test).
	Uncollected bool
	// Metrics, when set, returns further values of the run's result line,
	// read after the timed region (a script's per-statement latencies).
	Metrics func() []Metric
}

// Metric is one further value of a run's result line: a value and its unit
// in the Go benchmark format ("p50-ns/op").
type Metric struct {
	Value float64
	Unit  string
}
