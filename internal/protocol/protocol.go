// Package protocol is the sqlbench runner protocol: the request and reply
// lines the orchestrator (cmd/sqlbench) and a runner (cmd/sqlbench-runner,
// the JDBC runner) exchange. It is a leaf: it imports only package bench
// and the standard library, so that both sides share it and neither
// depends on the other (the serving loop is package internal/runner).
//
// # Protocol, version 3
//
// A runner is a long-lived process that holds open cells (a workload set up
// on a target) between runs, so that the orchestrator can interleave runs of
// many cells without reopening databases. A runner in another language (the
// JDBC runner) speaks the same protocol.
//
// The orchestrator writes one request per line to the runner's stdin: a verb,
// a space, and URL query-encoded parameters. The runner answers each request
// on stdout with zero or more lines in the Go benchmark format ("key: value"
// configuration lines and "Benchmark..." result lines) and ends the answer
// with one status line:
//
//	--- ok
//	--- FAIL: <one-line reason>
//
// Progress and diagnostics go to stderr. At the end of its input the runner
// closes every cell and exits 0; a non-zero exit means it died, and stderr
// says why.
//
// Requests:
//
//	hello
//	    runner-protocol: 3
//	    runner-target: T [CAP,CAP...]
//	    runner-workload: W
//	    The runner's declaration of what it implements (type Hello), the
//	    source of truth the orchestrator plans from. One runner-target line
//	    per target linked into the runner, with the capabilities it
//	    declares (bench.Cap values: pool, copy, load, batch, rewrite, wire,
//	    http), comma-separated and sorted, or nothing after the name for
//	    none; one runner-workload line per workload the runner implements,
//	    by ID (see run). The orchestrator skips a catalogue target its
//	    runner does not link or whose declared capabilities differ from the
//	    catalogue's, and plans a cell only when the runner implements its
//	    workload and the target declares the capability it needs. A Go
//	    runner declares every workload registered in it (the capability
//	    decides which of its targets run one: the JDBC-only bulk-insert
//	    paths need batch or rewrite, which no Go target declares), the
//	    script workload "Script" (built from each request's script=, see
//	    check below), and each
//	    target's capabilities as registered with its opener
//	    (bench.RegisterOpener); the JDBC runner declares its Target and
//	    Workloads catalogues.
//	info target=T&db=D&<location>[&module=M][&<sqlite>]
//	    T-module: <module path and version>         (with module=M: the version
//	                                                 of Go module M linked into
//	                                                 the runner; the orchestrator
//	                                                 sends its catalogue's module
//	                                                 to Go runners)
//	    T-sqlite: <SQLite library version>          (SQLite targets)
//	    T-sqlite-session: journal_mode=J synchronous=S foreign_keys=F busy_timeout=B
//	                                                 (SQLite targets: read back)
//	    D-version: <server version>                 (server targets)
//	    T-...: <value>                              (a Conn that is a bench.Informer:
//	                                                 sqinn-version, its helper program's)
//	    T-floor: <what the floor runs on>           (db=loopback targets)
//	run target=T&workload=W&db=D&<location>&scope=C&name=NAME&n=OPS&warmup=WARM
//	        [&scale=S][&cpu=P][&<sqlite>][&cpuprofile=FILE][&thread=free][&spin=NS]   (one line)
//	    Benchmark<NAME> <OPS> <v> ns/op <v> ops/s <v> B/op <v> allocs/op
//	        [<v> MB/s] [<v> peak-RSS-B <v> RSS-growth-B] [<v> p50-ns/op <v> p99-ns/op <v> p99.9-ns/op]
//	        [<v> oncpu-ns/op <v> runq-ns/op <v> blocked-ns/op <v> bg-cpu-ns/op] [<v> server-cpu-ns/op]
//	        [<v> spin-ns/op]
//	    With spin=NS (a spin variant: --targets mattn+spin=50us) a Go runner
//	    busy-spins NS nanoseconds on the monotonic clock after each timed
//	    operation, inside the clock (after a batch call, NS times its
//	    operations), and reports the spin it spent per operation as
//	    spin-ns/op; the warm-up does not spin. The orchestrator sends it to
//	    Go runners only.
//	    oncpu-ns/op, runq-ns/op and blocked-ns/op divide ns/op by what
//	    the thread that ran the timed operations did, as the kernel's
//	    scheduler accounted it (/proc/thread-self/schedstat): running on
//	    a CPU, waiting runnable in a run queue, and the rest (blocked: the
//	    server, the disk, a lock, a wake-up). They add up to ns/op and
//	    none is negative; with several client threads (a parallel run)
//	    each is the mean over the clients. The timing goroutine of a Go
//	    runner is locked to its OS thread for the run unless thread=free,
//	    when the three are left out. bg-cpu-ns/op is the rest of the
//	    runner process's CPU in the timed region (the collector, the JIT,
//	    a driver's own goroutines or threads), in parallel with the timed
//	    thread and not a part of ns/op; server-cpu-ns/op the server's
//	    (every thread of the process server-pid names and of its
//	    descendants), when the location has a server-pid, also not a part
//	    of ns/op. Each is read once before and once after the timed
//	    region (and around the paused regions of a workload that pauses
//	    its timer), never per operation, outside the memory statistics.
//	    With rate=R (sqlbench run --rate) a runner (Go's or the JDBC
//	    runner, jdbc/.../OpenLoop.java) runs the timed
//	    operations open-loop: Poisson arrivals at R per second, each
//	    operation's latency (every one recorded, not sampled) from its
//	    scheduled start, and adds <v> lag-ns/op (the mean schedule lag),
//	    <v> late and <v> skipped (counts) and <v> done-ops/s (the rate of the
//	    operations done; ops/s counts the arrivals) to the result line; with
//	    latency-limit=NS it skips the operations already more than NS
//	    behind their schedule and counts those done over NS as late; with
//	    progress=NS it writes one line per NS interval before the result:
//	        open-loop-progress: NAME <interval, bench.Interval's String>
//	    A run whose operations are not timed one by one fails.
//	    With cpuprofile=FILE a Go runner
//	    profiles the timed region (runtime/pprof) and merges the profile
//	    into FILE; the orchestrator sends it to Go runners only (the JDBC
//	    runner ignores it).
//	    peak-RSS-B is the runner process's peak resident set size while the
//	    run (all its slices) was begun, timed and verified, RSS-growth-B how
//	    far it rose above the resident size at the start (the largest of the
//	    slices), where the runner can read them (Linux); the JDBC runner
//	    leaves them out.
//	    W is the workload's ID (its name, then its keys: "BulkInsert/shape=3x8/path=copy").
//	    With run=R&slice=K&slices=S the request times slice K of S of run R,
//	    and the answer is that slice's own sample: its result line (OPS the
//	    slice's operations), preceded, when the workload times operations
//	    one by one, by
//	        latency-hdr: <the slice's latency histogram, HdrHistogram's V2
//	                      compressed encoding in base64>
//	    The runner keeps nothing of a run between its slices: the
//	    orchestrator sums them (operations, time, memory) and merges their
//	    histograms into the run's result, so a slice's sample survives the
//	    runner that measured it (a crash, an interrupted session).
//	    MB/s is reported by workloads that move a payload; percentiles by
//	    every workload that times operations one by one. A runner that cannot
//	    count allocations leaves allocs/op out.
//	    The cell C (a short id, unique in the session, also used to name
//	    the cell's tables) is opened and set up on its first run and kept
//	    for later runs. A Go runner begins every run (every slice) by
//	    collecting its heap and returning the free memory to the OS, so
//	    that no run finds the pages the runs before it left resident or
//	    released (see docs/methodology.md). WARM untimed operations precede the OPS timed ones.
//	    A wrong result fails the run and closes the cell. S is the run's
//	    --scale (default 1): workloads whose one operation reads a whole
//	    table size that table by it when the cell is set up. P, when sent,
//	    is the GOMAXPROCS a Go runner sets while it sets up and runs the
//	    request (go test -cpu; NAME then ends in "-P"), restoring it after;
//	    the orchestrator sends it to Go runners only.
//	close target=T&scope=C
//	    drops the cell's tables and closes it, if open
//	check target=T&db=D&<location>&scope=C&script=SPEC[&scale=S][&<sqlite>]
//	    script-check: N runs=R rows=W sum=HEX|- FILE:LINE
//	    The verification pass of a script workload (workloads/script.Check):
//	    the setup script and a fixed series of executions in a namespace of
//	    scope C's own, dropped after; one line per statement. SPEC is the
//	    workload's spec (script.Spec.Encode), which every run request of the
//	    workload "Script" carries too, as script=SPEC.
//
// A location is dsn=<SQLite file> for SQLite, and for a server
// net=tcp|unix&addr=<host:port or socket path>&user=U&password=P&database=B
// [&server-pid=PID] (the server's main process, when it runs on this machine).
// db=loopback (the transport floor) takes none: its targets start their own
// sink inside the runner on 127.0.0.1.
//
// The optional <sqlite> parameters, sqlite-journal=MODE&sqlite-sync=LEVEL,
// change the SQLite session settings (PRAGMA journal_mode, synchronous) of
// every connection the request opens; absent, the defaults (DELETE, FULL).
package protocol

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// ProtocolVersion is the version of the runner protocol this package speaks.
// The orchestrator plans from a runner's hello and sums a run's slices
// itself, so a runner of another version (one that names its targets
// otherwise, or sums the slices itself) is refused by ParseHello rather
// than planned as if it implemented nothing.
const ProtocolVersion = 3

// LatencyKey is the key of the line that carries a slice's latency
// histogram in a run reply.
const LatencyKey = "latency-hdr"

// ProgressKey is the key of the lines that carry an open-loop run's time
// series in a run reply, one interval a line, written as each closes.
const ProgressKey = "open-loop-progress"

// Verbs of the protocol.
const (
	VerbHello = "hello"
	VerbInfo  = "info"
	VerbRun   = "run"
	VerbClose = "close"
	VerbCheck = "check"
)

// Status line prefixes.
const (
	statusOK   = "--- ok"
	statusFail = "--- FAIL: "
)

// Request is one request line.
type Request struct {
	Verb string
	// Target, Workload and DB name what runs; Scope names the cell.
	Target, Workload, DB, Scope string
	// Location is where the target connects.
	Location
	// Name is the benchmark name the result line carries (without the
	// "Benchmark" prefix).
	Name string
	// N and Warmup are the timed and untimed operation counts of a run.
	N, Warmup int
	// Run, Slice and Slices place a run request in its run: slice Slice of
	// Slices (1-based) of run Run. Without them (Slices 0 or 1) the request
	// is a whole run.
	Run, Slice, Slices int
	// Scale is the run's --scale; zero (not sent) means 1.
	Scale float64
	// SQLite holds SQLite session settings other than the defaults.
	SQLite bench.SQLiteSettings
	// CPUProfile, when set, is the file a run request's timed region is
	// profiled into (runtime/pprof), merged with the profile already
	// there: a cell's slices accumulate in one file.
	CPUProfile string
	// CPU, when above 0, is the GOMAXPROCS the runner sets while it sets
	// up and runs the cell (go test -cpu); 0 (not sent) leaves it as it is.
	CPU int
	// FreeThread leaves the goroutine that runs the timed operations free
	// to move between OS threads (thread=free) instead of locking it to one
	// for the run: the run's time is then not divided into on-CPU,
	// run-queue and blocked time.
	FreeThread bool
	// NoPreceding leaves out the replay of the tests a workload's published
	// program runs before it in the same process (bench.Workload.Follows;
	// preceding=none): the run then starts from a settled heap.
	NoPreceding bool
	// Module, on an info request, is the Go module the target's driver
	// comes from (the orchestrator's catalogue): a Go runner answers with
	// the version of it that it links.
	Module string
	// Script is a script workload's spec (script.Spec.Encode), sent with
	// every run and check request of the workload "Script" (see
	// internal/runner/script.go).
	Script string
	// Spin, when above 0, is the busy spin a Go runner adds after each
	// timed operation of a run, inside the clock (spin=NS).
	Spin time.Duration
	// Rate, when above 0, runs the request's timed operations open-loop
	// (rate=R: Poisson arrivals at R per second, bench.OpenLoop), with
	// LatencyLimit (latency-limit=NS) and Progress (progress=NS) when
	// above 0.
	Rate                   float64
	LatencyLimit, Progress time.Duration
	// Pool, when above 1, asks for a connection many goroutines share (the
	// runner sets it for the extra connections a workload opens, and for a
	// cell whose workload asks for a pooled connection, bench.Workload.Pool;
	// it is not sent).
	Pool int
}

// Location is where a target connects: a SQLite file (DSN) or a server.
type Location struct {
	DSN string
	bench.Endpoint
	// ServerPID, when set, is the main process of the server on this
	// machine: the runner reads the CPU time of it and its descendants
	// around every timed run (server-cpu-ns/op).
	ServerPID int
}

// Encode returns the request as one line, without the newline.
func (r Request) Encode() string {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("target", r.Target)
	set("workload", r.Workload)
	set("db", r.DB)
	set("scope", r.Scope)
	set("dsn", r.DSN)
	set("net", r.Net)
	set("addr", r.Addr)
	set("user", r.User)
	set("password", r.Password)
	set("database", r.Database)
	set("tls", string(r.TLS))
	set("tls-ca", r.CA)
	set("name", r.Name)
	set("module", r.Module)
	set("sqlite-journal", r.SQLite.Journal)
	set("sqlite-sync", r.SQLite.Sync)
	set("script", r.Script)
	if r.ServerPID > 0 {
		v.Set("server-pid", strconv.Itoa(r.ServerPID))
	}
	if r.Verb == VerbCheck && r.Scale != 0 {
		v.Set("scale", strconv.FormatFloat(r.Scale, 'g', -1, 64))
	}
	if r.Verb == VerbRun {
		v.Set("n", strconv.Itoa(r.N))
		v.Set("warmup", strconv.Itoa(r.Warmup))
		if r.Slices > 1 {
			v.Set("run", strconv.Itoa(r.Run))
			v.Set("slice", strconv.Itoa(r.Slice))
			v.Set("slices", strconv.Itoa(r.Slices))
		}
		set("cpuprofile", r.CPUProfile)
		if r.Scale != 0 {
			v.Set("scale", strconv.FormatFloat(r.Scale, 'g', -1, 64))
		}
		if r.CPU > 0 {
			v.Set("cpu", strconv.Itoa(r.CPU))
		}
		if r.FreeThread {
			v.Set("thread", "free")
		}
		if r.NoPreceding {
			v.Set("preceding", "none")
		}
		if r.Spin > 0 {
			v.Set("spin", strconv.FormatInt(int64(r.Spin), 10))
		}
		if r.Rate > 0 {
			v.Set("rate", strconv.FormatFloat(r.Rate, 'g', -1, 64))
		}
		if r.LatencyLimit > 0 {
			v.Set("latency-limit", strconv.FormatInt(int64(r.LatencyLimit), 10))
		}
		if r.Progress > 0 {
			v.Set("progress", strconv.FormatInt(int64(r.Progress), 10))
		}
	}
	if len(v) == 0 {
		return r.Verb
	}
	return r.Verb + " " + v.Encode()
}

// ParseRequest parses one request line.
func ParseRequest(line string) (Request, error) {
	verb, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	v, err := url.ParseQuery(rest)
	if err != nil {
		return Request{}, fmt.Errorf("bad parameters: %w", err)
	}
	r := Request{
		Verb: verb, Target: v.Get("target"), Workload: v.Get("workload"),
		DB: v.Get("db"), Scope: v.Get("scope"), Name: v.Get("name"), CPUProfile: v.Get("cpuprofile"),
		Module: v.Get("module"), Script: v.Get("script"),
		Location: Location{DSN: v.Get("dsn"), Endpoint: bench.Endpoint{Net: v.Get("net"), Addr: v.Get("addr"),
			User: v.Get("user"), Password: v.Get("password"), Database: v.Get("database"),
			CA: v.Get("tls-ca")}},
	}
	if r.TLS, err = bench.ParseTLSMode(v.Get("tls")); err != nil {
		return r, err
	}
	if j := v.Get("sqlite-journal"); j != "" {
		if r.SQLite.Journal, err = bench.ParseSQLiteJournal(j); err != nil {
			return r, err
		}
	}
	if y := v.Get("sqlite-sync"); y != "" {
		if r.SQLite.Sync, err = bench.ParseSQLiteSync(y); err != nil {
			return r, err
		}
	}
	if p := v.Get("server-pid"); p != "" {
		if r.ServerPID, err = strconv.Atoi(p); err != nil || r.ServerPID < 1 {
			return r, fmt.Errorf("server-pid must be a process id, got %q", p)
		}
	}
	switch verb {
	case VerbHello, VerbInfo, VerbClose:
	case VerbCheck:
		if r.Scope == "" || r.Script == "" {
			return r, fmt.Errorf("check: scope and script are required")
		}
		if sc := v.Get("scale"); sc != "" {
			if r.Scale, err = strconv.ParseFloat(sc, 64); err != nil || !(r.Scale > 0) {
				return r, fmt.Errorf("check: scale must be a positive number, got %q", sc)
			}
		}
	case VerbRun:
		if r.N, err = strconv.Atoi(v.Get("n")); err != nil || r.N < 1 {
			return r, fmt.Errorf("run: n must be a positive integer, got %q", v.Get("n"))
		}
		if r.Warmup, err = strconv.Atoi(v.Get("warmup")); err != nil || r.Warmup < 0 {
			return r, fmt.Errorf("run: warmup must be a non-negative integer, got %q", v.Get("warmup"))
		}
		if sc := v.Get("scale"); sc != "" {
			if r.Scale, err = strconv.ParseFloat(sc, 64); err != nil || !(r.Scale > 0) {
				return r, fmt.Errorf("run: scale must be a positive number, got %q", sc)
			}
		}
		if c := v.Get("cpu"); c != "" {
			if r.CPU, err = strconv.Atoi(c); err != nil || r.CPU < 1 {
				return r, fmt.Errorf("run: cpu must be a positive integer, got %q", c)
			}
		}
		switch t := v.Get("thread"); t {
		case "", "locked":
		case "free":
			r.FreeThread = true
		default:
			return r, fmt.Errorf("run: thread must be locked or free, got %q", t)
		}
		switch p := v.Get("preceding"); p {
		case "", "replay":
		case "none":
			r.NoPreceding = true
		default:
			return r, fmt.Errorf("run: preceding must be replay or none, got %q", p)
		}
		if sp := v.Get("spin"); sp != "" {
			ns, err := strconv.ParseInt(sp, 10, 64)
			if err != nil || ns < 1 {
				return r, fmt.Errorf("run: spin must be a positive number of nanoseconds, got %q", sp)
			}
			r.Spin = time.Duration(ns)
		}
		if err := parseOpenLoop(v, &r); err != nil {
			return r, err
		}
		if r.Name == "" || r.Workload == "" || r.Scope == "" {
			return r, fmt.Errorf("run: name, workload and scope are required")
		}
		if v.Has("slices") {
			r.Run, _ = strconv.Atoi(v.Get("run"))
			r.Slice, _ = strconv.Atoi(v.Get("slice"))
			r.Slices, _ = strconv.Atoi(v.Get("slices"))
			if r.Run < 1 || r.Slices < 1 || r.Slice < 1 || r.Slice > r.Slices {
				return r, fmt.Errorf("run: bad slice %q of %q in run %q", v.Get("slice"), v.Get("slices"), v.Get("run"))
			}
		}
	default:
		return r, fmt.Errorf("unknown verb %q", verb)
	}
	if verb != VerbHello && r.Target == "" {
		return r, fmt.Errorf("%s: target is required", verb)
	}
	return r, nil
}

// parseOpenLoop reads a run request's open-loop parameters: rate,
// latency-limit and progress, the last two only with a rate.
func parseOpenLoop(v url.Values, r *Request) error {
	if s := v.Get("rate"); s != "" {
		rate, err := strconv.ParseFloat(s, 64)
		if err != nil || !(rate > 0) || math.IsInf(rate, 0) {
			return fmt.Errorf("run: rate must be a positive number of operations per second, got %q", s)
		}
		r.Rate = rate
	}
	for _, p := range []struct {
		key string
		d   *time.Duration
	}{{"latency-limit", &r.LatencyLimit}, {"progress", &r.Progress}} {
		s := v.Get(p.key)
		if s == "" {
			continue
		}
		ns, err := strconv.ParseInt(s, 10, 64)
		if err != nil || ns < 1 {
			return fmt.Errorf("run: %s must be a positive number of nanoseconds, got %q", p.key, s)
		}
		if r.Rate == 0 {
			return fmt.Errorf("run: %s needs a rate", p.key)
		}
		*p.d = time.Duration(ns)
	}
	return nil
}

// Reply is a runner's answer to one request.
type Reply struct {
	// Lines are the answer's lines before the status line.
	Lines []string
	// Fail is the reason the request failed; empty on success.
	Fail string
}

// ParseStatus reports whether line is a status line and, if so, the failure
// reason it carries (empty for ok).
func ParseStatus(line string) (isStatus bool, fail string) {
	if line == statusOK {
		return true, ""
	}
	if strings.HasPrefix(line, statusFail) {
		fail = strings.TrimSpace(strings.TrimPrefix(line, statusFail))
		if fail == "" {
			fail = "failed"
		}
		return true, fail
	}
	return false, ""
}

// StatusLine returns the status line that ends an answer: ok when err is
// nil, else FAIL with err's message flattened to one line.
func StatusLine(err error) string {
	if err == nil {
		return statusOK
	}
	return statusFail + oneLine(err.Error())
}

// oneLine flattens an error message to one line for a status line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
