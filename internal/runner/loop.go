// Package runner is the runner side of the sqlbench runner protocol (package
// protocol), linked into cmd/sqlbench-runner: the serving loop (Loop), which
// answers hello from the bench registries, opens cells (registered workloads
// or script workloads) and times their runs, one slice at a time, and what
// it measures besides ns/op: the peak RSS, the division of the timing
// thread's time (on a CPU, in a run queue, blocked) with the background and
// server CPU beside it, CPU profiles of timed runs and a spin variant's busy
// spin. The result line of a run is SampleResult.
package runner

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/unit"
)

// Loop is the runner side of the protocol: it reads requests and answers
// them until its input ends. It serves the targets
// registered with bench.RegisterOpener (SQL targets) and
// bench.RegisterHandleOpener (targets of a bench.Kind) in this binary.
type Loop struct {
	// In carries requests, Out answers, Log progress and diagnostics.
	In       io.Reader
	Out, Log io.Writer
	// Priority, when set, says at what CPU priority the process runs
	// (RaisePriority's answer): the info reply of every target says it,
	// and the results file keeps it.
	Priority string

	cells map[cellKey]*cell
	hist  *hdrhistogram.Histogram
	out   *bufio.Writer
	bw    *benchfmt.Writer
}

type cellKey struct{ target, scope string }

// cell is a workload set up on an open connection.
type cell struct {
	w   bench.Workload
	env bench.Env
	// req is the request that opened the cell: a FreshDB workload's
	// runs open it again from it.
	req protocol.Request
	// held is a run of the cell held for its next slice (bench.Run.Carry).
	held *heldRun
}

// heldRun is a run held between two of its slices: the run, and the run
// number and slice of the request that last timed it.
type heldRun struct {
	r          bench.Run
	run, slice int
}

// endHeld ends the cell's held run, if it has one.
func (c *cell) endHeld() error {
	h := c.held
	c.held = nil
	if h == nil || h.r.End == nil {
		return nil
	}
	if err := h.r.End(); err != nil {
		return fmt.Errorf("end the run held from slice %d: %w", h.slice, err)
	}
	return nil
}

// Serve answers requests until In ends or ctx is done, then closes every cell.
func (s *Loop) Serve(ctx context.Context) error {
	s.cells = map[cellKey]*cell{}
	s.hist = bench.NewLatencyHistogram()
	s.out = bufio.NewWriter(s.Out)
	s.bw = benchfmt.NewWriter(s.out)
	defer s.closeAll()
	sc := bufio.NewScanner(s.In)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if err := ctx.Err(); err != nil {
			return err
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		err := s.handle(ctx, line)
		fmt.Fprintln(s.out, protocol.StatusLine(err))
		if err := s.out.Flush(); err != nil {
			return fmt.Errorf("write reply: %w", err)
		}
	}
	return sc.Err()
}

func (s *Loop) handle(ctx context.Context, line string) (err error) {
	req, err := protocol.ParseRequest(line)
	if err != nil {
		return err
	}
	defer func() {
		// A driver that panics fails the request, not the runner.
		if p := recover(); p != nil {
			s.closeCell(cellKey{req.Target, req.Scope})
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	switch req.Verb {
	case protocol.VerbHello:
		for _, line := range goHello().Lines() {
			fmt.Fprintln(s.out, line)
		}
		return nil
	case protocol.VerbInfo:
		return s.info(ctx, req)
	case protocol.VerbRun:
		return s.run(ctx, req)
	case protocol.VerbCheck:
		return s.check(ctx, req)
	default: // protocol.VerbClose
		return s.closeCell(cellKey{req.Target, req.Scope})
	}
}

// open opens req's target at req's database and returns the cell's
// environment without its workload's parts: for a SQL target a Conn with
// the dialect's session settings applied (and Open, for more), for a
// target of a bench.Kind its Handle.
func (s *Loop) open(ctx context.Context, req protocol.Request) (bench.Env, error) {
	db, err := bench.ParseDB(req.DB)
	if err != nil {
		return bench.Env{}, err
	}
	d := bench.DialectOf(db).WithSQLite(req.SQLite)
	d.Scope = req.Scope
	e := bench.Env{Ctx: ctx, Dialect: d, Scale: req.Scale}
	if open, ok := bench.LookupHandleOpener(req.Target); ok {
		if db.SQL() {
			return e, fmt.Errorf("target %q speaks no SQL: it cannot open %s", req.Target, db)
		}
		if e.Handle, err = open(ctx, bench.Config{DB: db, DSN: req.DSN, Server: req.Endpoint}); err != nil {
			return e, fmt.Errorf("open: %w", err)
		}
		return e, nil
	}
	if !db.SQL() {
		return e, fmt.Errorf("target %q is not linked into this runner as a target of %s", req.Target, db)
	}
	if e.Conn, err = s.openConn(ctx, req, db, d, req.Pool); err != nil {
		return e, err
	}
	if req.Pool > 1 {
		e.Pool = req.Pool
	}
	e.Open = func(ctx context.Context, pool int) (bench.Conn, error) { return s.openConn(ctx, req, db, d, pool) }
	return e, nil
}

// openConn opens a Conn of req's SQL target at db with d's session
// settings applied; pool > 1 asks for a pooled Conn.
func (s *Loop) openConn(ctx context.Context, req protocol.Request, db bench.DB, d bench.Dialect, pool int) (bench.Conn,
	error) {
	open, ok := bench.LookupOpener(req.Target)
	if !ok {
		return nil, fmt.Errorf("target %q is not linked into this runner", req.Target)
	}
	c, err := open(ctx, bench.Config{DB: db, DSN: req.DSN, Server: req.Endpoint, Pool: pool, Session: d.Setup})
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	for _, q := range d.Setup {
		if err := c.Exec(q); err != nil {
			c.Close()
			return nil, fmt.Errorf("session setting %q: %w", q, err)
		}
	}
	return c, nil
}

// closeEnv closes what open opened.
func closeEnv(e bench.Env) error {
	if e.Handle != nil {
		return e.Handle.Close()
	}
	return e.Conn.Close()
}

func (s *Loop) info(ctx context.Context, req protocol.Request) error {
	if req.Module != "" {
		fmt.Fprintf(s.out, "%s-module: %s\n", req.Target, moduleVersion(req.Module))
	}
	if s.Priority != "" {
		fmt.Fprintf(s.out, "%s-runner-priority: %s\n", req.Target, s.Priority)
	}
	e, err := s.open(ctx, req)
	if err != nil {
		return err
	}
	defer closeEnv(e)
	if kind, ok := bench.LookupKind(e.Dialect.DB); ok {
		// A kind of target other than a database: what it says of itself.
		if kind.Info != nil {
			for _, kv := range kind.Info(req.Target) {
				fmt.Fprintf(s.out, "%s: %s\n", kv[0], kv[1])
			}
		}
		return nil
	}
	c, d := e.Conn, e.Dialect
	var v string
	if err := c.QueryRow(d.Version, func(r bench.Row) error { return r.Scan(&v) }); err != nil {
		return fmt.Errorf("read version: %w", err)
	}
	if d.DB == bench.SQLite {
		// Each SQLite driver links its own library.
		fmt.Fprintf(s.out, "%s-sqlite: %s\n", req.Target, v)
		pragmas, err := readPragmas(c)
		if err != nil {
			return err
		}
		fmt.Fprintf(s.out, "%s-sqlite-session: %s\n", req.Target, pragmas)
	} else {
		fmt.Fprintf(s.out, "%s-version: %s\n", d.DB, v)
	}
	if req.TLS != bench.TLSOff && d.TLSStatus != "" {
		// What the server says of this target's connection.
		var version, cipher string
		if err := c.QueryRow(d.TLSStatus, func(r bench.Row) error { return r.Scan(&version, &cipher) }); err != nil {
			return fmt.Errorf("read TLS status: %w", err)
		}
		fmt.Fprintf(s.out, "%s-tls: %s %s\n", req.Target, version, cipher)
	}
	if in, ok := c.(bench.Informer); ok {
		// What the target says of itself beyond its module and library.
		kvs, err := in.Info()
		if err != nil {
			return fmt.Errorf("read %s's info: %w", req.Target, err)
		}
		for _, kv := range kvs {
			fmt.Fprintf(s.out, "%s: %s\n", kv[0], kv[1])
		}
	}
	return nil
}

// readPragmas reads back the session settings a SQLite connection runs
// under, as the library reports them (synchronous as a number: 0 off,
// 1 normal, 2 full, 3 extra), so the results file records what applied.
func readPragmas(c bench.Conn) (string, error) {
	var parts []string
	for _, p := range []string{"journal_mode", "synchronous", "foreign_keys", "busy_timeout"} {
		var v string
		if err := c.QueryRow("PRAGMA "+p, func(r bench.Row) error { return r.Scan(&v) }); err != nil {
			return "", fmt.Errorf("read PRAGMA %s: %w", p, err)
		}
		parts = append(parts, p+"="+v)
	}
	return strings.Join(parts, " "), nil
}

// moduleVersion returns "path version" for a module linked into this binary.
func moduleVersion(path string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return path + " (unknown version)"
	}
	for _, m := range bi.Deps {
		if m.Path == path {
			if m.Replace != nil {
				return fmt.Sprintf("%s %s => %s %s", m.Path, m.Version, m.Replace.Path, m.Replace.Version)
			}
			return m.Path + " " + m.Version
		}
	}
	return path + " (not linked)"
}

func (s *Loop) run(ctx context.Context, req protocol.Request) error {
	if req.CPU > 0 {
		// go test -cpu: the run's GOMAXPROCS, set around setup and run.
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(req.CPU))
	}
	key := cellKey{req.Target, req.Scope}
	c, ok := s.cells[key]
	if !ok {
		w, err := lookupWorkload(req)
		if err != nil {
			return err
		}
		db, err := bench.ParseDB(req.DB)
		if err != nil {
			return err
		}
		if !w.RunsOn(db) {
			// A SQL workload on a target of a kind (or the reverse) has
			// nothing to run on.
			return fmt.Errorf("workload %s does not run on %s", req.Workload, db)
		}
		if w.Pool > 1 {
			// The cell's own connection is the pool the workload's
			// goroutines share, for the cell's life.
			req.Pool = w.Pool
		}
		env, err := s.open(ctx, req)
		if err != nil {
			return err
		}
		c = &cell{w: w, env: env, req: req}
		if !c.freshDB() { // set up before each run instead (measure)
			fmt.Fprintf(s.Log, "set up %s on %s\n", req.Workload, req.Target)
			if err := w.Setup(c.env); err != nil {
				closeEnv(env)
				return fmt.Errorf("setup: %w", err)
			}
		}
		s.cells[key] = c
	}
	c.env.Ctx = ctx
	pr := newProbe(req)
	sample, err := s.measure(c, req, pr)
	if err != nil {
		s.closeCell(key)
		return err
	}
	if err := pr.saveProfile(req.CPUProfile); err != nil {
		return err
	}
	if req.Slices > 1 && sample.Latency != nil {
		// The orchestrator sums a run's slices; it merges their latencies
		// from this line.
		enc, err := sample.Latency.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		if err != nil {
			return fmt.Errorf("encode latencies: %w", err)
		}
		fmt.Fprintf(s.out, "%s: %s\n", protocol.LatencyKey, enc)
	}
	if !sample.ThreadKnown && !req.FreeThread {
		fmt.Fprintf(s.Log, "%s: time not divided: %s\n", req.Name, sample.Why)
	}
	res := SampleResult(req.Name, sample)
	res.Values = append(res.Values, timeShare(sample)...)
	return s.bw.Write(res)
}

// measure warms the cell up and times one run of it, with the request's
// spin after each timed operation if it asks for one (spin.go). Unless the request
// leaves the thread free, the warm-up and the run share one OS thread, the
// one whose time the run divides.
//
// Every run begins from the same heap, whatever ran before it in this
// runner: settleHeap collects it and returns its free memory to the OS, as
// in a fresh process. Without that a run inherited the free memory of the
// runs before it: kept resident after a run of its own cell (a large read
// reused its pages), returned to the OS after other cells had shrunk the
// heap (the same read faulted its pages back in: at 1 GB a query, 1.2 to 3
// times as slow, the more so the busier the machine). Whatever Begin and the
// warm-up allocate stays resident, so a warm-up still warms.
//
// A FreshDB workload's run (its first slice) begins on a new database:
// after settling the heap, the cell is opened again on a removed file and
// set up again (fresh), so that the run starts in the heap its Setup left.
// Before that, unless the request says preceding=none, the tests its
// published program runs before it in one process (bench.Workload.Follows)
// are replayed, untimed and with no settling between, and the run then
// starts with no collection, as the program's (replay). After its run (its
// last slice) such a cell's database is closed and removed and the heap
// settled (leave), so that neither its file nor the runner's free memory
// is there while another cell runs.
func (s *Loop) measure(c *cell, req protocol.Request, pr *probe) (bench.Sample, error) {
	settleHeap()
	replayed := false
	if c.freshDB() && (req.Slices <= 1 || req.Slice <= 1) {
		replayed = len(c.w.Follows) > 0 && !req.NoPreceding
		if err := s.fresh(c, replayed); err != nil {
			return bench.Sample{}, err
		}
	}
	if !req.FreeThread {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	warm, n := req.Warmup, req.N
	e := c.env
	e.Warm, e.N = warm, n
	base, rssErr := resetPeakRSS()
	// A run split into slices times its Start in its first slice and its
	// Finish in its last. A run that carries what Start made (Run.Carry)
	// is held between its slices: the next slice of the same run goes on
	// with it; any other request ends it first.
	sliced := req.Slices > 1
	var r bench.Run
	carried := sliced && req.Slice > 1 && c.held != nil && c.held.run == req.Run && c.held.slice == req.Slice-1
	if carried {
		r = c.held.r
		c.held = nil
	} else {
		if err := c.endHeld(); err != nil {
			return bench.Sample{}, err
		}
		var err error
		if r, err = c.w.Begin(e); err != nil {
			return bench.Sample{}, fmt.Errorf("begin: %w", err)
		}
		// After the program's earlier tests, no collection before the
		// clock: the program starts its clock in the heap they left.
		r.Uncollected = r.Uncollected || replayed
	}
	carries := sliced && req.Slice < req.Slices && r.Carry && r.Start != nil
	// The timing thread's own counts are the run's when it runs the
	// operations itself.
	pr.noise.thread = !req.FreeThread && r.Parallel == nil && r.Clients == nil
	var spun *spinner
	sample, err := func() (bench.Sample, error) {
		warmed := r
		if carried {
			// Its statement is open: the warm-up runs on it, without a
			// Start and Finish of its own.
			warmed.Start, warmed.Finish = nil, nil
		}
		if err := bench.Warm(warmed, warm); err != nil {
			return bench.Sample{}, err
		}
		timed := r
		if req.Spin > 0 {
			timed, spun = withSpin(r, req.Spin)
		}
		return bench.MeasureProbed(timed, warm, n, s.hist, bench.Options{Probe: pr, FreeThread: req.FreeThread,
			Continued: sliced && req.Slice > 1, Continues: sliced && req.Slice < req.Slices,
			Carried: carried, Carries: carries, OpenLoop: s.openLoop(req)})
	}()
	pr.record(&sample)
	if ol := sample.OpenLoop; ol != nil && err == nil {
		sample.Metrics = append(sample.Metrics,
			bench.Metric{Value: float64(ol.MeanLag()), Unit: unit.Lag},
			bench.Metric{Value: float64(ol.Late), Unit: unit.Late},
			bench.Metric{Value: float64(ol.Skipped), Unit: unit.Skipped},
			bench.Metric{Value: float64(ol.Done) / sample.Elapsed.Seconds(), Unit: unit.DoneRate})
	}
	if spun != nil && err == nil {
		spin := bench.Metric{Value: float64(spun.total()) / float64(sample.N), Unit: unit.Spin}
		sample.Metrics = append(sample.Metrics, spin)
	}
	if err == nil && carries {
		c.held = &heldRun{r: r, run: req.Run, slice: req.Slice}
	} else if r.End != nil {
		if eerr := r.End(); err == nil && eerr != nil {
			err = fmt.Errorf("end: %w", eerr)
		}
	}
	if rssErr == nil {
		if peak, err := peakRSS(); err == nil {
			sample.PeakRSS, sample.RSSGrowth = peak, max(0, peak-base)
		}
	}
	if c.freshDB() && c.held == nil && (req.Slices <= 1 || req.Slice >= req.Slices) {
		if derr := s.leave(c); err == nil && derr != nil {
			err = derr
		}
	}
	return sample, err
}

// leave ends a FreshDB cell's run as the published program leaves a test
// when the next begins: its database closed and its files removed (the
// next run opens a new one, fresh), so that no cell's file is kept beside
// the one a run is using, and the heap settled, so that a runner waiting
// for its next run holds no free memory, as the program holds only one
// test's file and one process at a time.
func (s *Loop) leave(c *cell) error {
	defer settleHeap()
	err := closeEnv(c.env)
	c.env = bench.Env{Ctx: c.env.Ctx} // closed: fresh and closeCell must not close it again
	if err != nil {
		return fmt.Errorf("leave the database: close: %w", err)
	}
	return removeDBFiles(c.req.DSN)
}

// openLoop returns the open-loop schedule a run request asks for (rate=R),
// or nil. Its intervals (progress=NS) go to the orchestrator as they close,
// each a line of the reply before its result: written straight to Out,
// which nothing else writes to during the run.
func (s *Loop) openLoop(req protocol.Request) *bench.OpenLoop {
	if req.Rate <= 0 {
		return nil
	}
	ol := &bench.OpenLoop{Rate: req.Rate, LatencyLimit: req.LatencyLimit, Progress: req.Progress,
		Seed: uint64(req.Slice)} // every run of a cell draws the same schedule
	if req.Progress > 0 {
		ol.OnProgress = func(iv bench.Interval) {
			fmt.Fprintf(s.Out, "%s: %s %s\n", protocol.ProgressKey, req.Name, iv)
		}
	}
	return ol
}

// SampleResult turns one run's sample into the result line the protocol
// sends for it.
func SampleResult(name string, s bench.Sample) *benchfmt.Result {
	ns := s.NsPerOp()
	n := float64(s.N)
	vals := []benchfmt.Value{
		{Value: ns, Unit: unit.NsPerOp},
		{Value: 1e9 / ns, Unit: unit.OpsPerSec},
		{Value: float64(s.Bytes) / n, Unit: unit.BytesPerOp},
		{Value: float64(s.Allocs) / n, Unit: unit.AllocsPerOp},
	}
	if s.BytesPerOp > 0 {
		vals = append(vals, benchfmt.Value{Value: s.BytesPerOp * 1e3 / ns, Unit: unit.MBPerSec})
	}
	if s.PeakRSS > 0 {
		vals = append(vals,
			benchfmt.Value{Value: float64(s.PeakRSS), Unit: unit.PeakRSS},
			benchfmt.Value{Value: float64(s.RSSGrowth), Unit: unit.RSSGrowth})
	}
	if s.Latency != nil {
		vals = append(vals,
			benchfmt.Value{Value: float64(s.Latency.ValueAtQuantile(50)), Unit: unit.P50},
			benchfmt.Value{Value: float64(s.Latency.ValueAtQuantile(99)), Unit: unit.P99},
			benchfmt.Value{Value: float64(s.Latency.ValueAtQuantile(99.9)), Unit: unit.P999},
		)
	}
	for _, m := range s.Metrics {
		vals = append(vals, benchfmt.Value{Value: m.Value, Unit: m.Unit})
	}
	return &benchfmt.Result{Name: benchfmt.Name(name), Iters: s.N, Values: vals}
}

// freshDB reports whether each run of c starts on a new database: a
// FreshDB workload on SQLite (a server's cell keeps its database, and the
// suite's inserts recreate their tables each run).
func (c *cell) freshDB() bool {
	db, err := bench.ParseDB(c.req.DB)
	return c.w.FreshDB && err == nil && db == bench.SQLite
}

// fresh closes c's connection, removes its SQLite database's files, opens
// it again and runs the workload's Setup: the run that follows starts on a
// new database, as a program that removes its database files before each
// test. With replay, the workloads c's follows (bench.Workload.Follows) run
// first, each on a new database at the same path (replay).
func (s *Loop) fresh(c *cell, replay bool) error {
	if err := c.endHeld(); err != nil {
		return err
	}
	ctx := c.env.Ctx
	var err error
	if c.env.Conn != nil || c.env.Handle != nil { // not closed by leave
		err = closeEnv(c.env)
	}
	c.env = bench.Env{} // closed: closeCell must not close it again
	if err != nil {
		return fmt.Errorf("fresh database: close: %w", err)
	}
	if replay {
		for _, id := range c.w.Follows {
			if err := s.replay(ctx, c.req, id); err != nil {
				return fmt.Errorf("replay %s before %s: %w", id, c.req.Workload, err)
			}
		}
	}
	c.env, err = s.newDatabase(ctx, c.req, c.w, fmt.Sprintf("set up %s on %s, on a fresh database", c.req.Workload,
		c.req.Target))
	return err
}

// newDatabase opens a new database at req's path (its files removed
// first), says what it is for in the log and runs w's Setup on it. The
// database is returned open whenever it opened, even when Setup failed,
// for the caller to close.
func (s *Loop) newDatabase(ctx context.Context, req protocol.Request, w bench.Workload, what string) (bench.Env,
	error) {
	if err := removeDBFiles(req.DSN); err != nil {
		return bench.Env{}, fmt.Errorf("fresh database: %w", err)
	}
	e, err := s.open(ctx, req)
	if err != nil {
		return bench.Env{}, fmt.Errorf("fresh database: %w", err)
	}
	fmt.Fprintln(s.Log, what)
	if err := w.Setup(e); err != nil {
		return e, fmt.Errorf("setup: %w", err)
	}
	return e, nil
}

// replay runs the workload id once as the published program runs its test
// before the cell's in one process: on a new database at the cell's path
// (req's), its Setup, then one run of its operations at the cell's scale,
// untimed, with no collection before it, then the database closed. Its
// files are left for the next removal (fresh removes them before it opens
// the cell again). Its figures are dropped.
func (s *Loop) replay(ctx context.Context, req protocol.Request, id string) error {
	w, ok := bench.LookupWorkload(id)
	if !ok {
		return fmt.Errorf("unknown workload %q", id)
	}
	e, err := s.newDatabase(ctx, req, w, fmt.Sprintf("replay %s on %s before %s, untimed", id, req.Target,
		req.Workload))
	if e.Conn == nil && e.Handle == nil { // not opened
		return err
	}
	if err == nil {
		err = s.runUntimed(e, req, w)
	}
	if cerr := closeEnv(e); err == nil && cerr != nil {
		err = fmt.Errorf("close: %w", cerr)
	}
	return err
}

// runUntimed runs w's operations once on e at req's scale, with no
// warm-up and no collection before them, and drops the figures: a replayed
// test's run.
func (s *Loop) runUntimed(e bench.Env, req protocol.Request, w bench.Workload) error {
	scale := req.Scale
	if scale == 0 {
		scale = 1
	}
	e.Warm, e.N = 0, w.OpsAt(scale)
	r, err := w.Begin(e)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	r.Uncollected = true
	_, err = bench.Measure(r, 0, e.N, s.hist)
	if r.End != nil {
		if eerr := r.End(); err == nil && eerr != nil {
			err = fmt.Errorf("end: %w", eerr)
		}
	}
	return err
}

// removeDBFiles removes the SQLite database at path and the files SQLite
// keeps beside it (rollback journal, write-ahead log, shared memory), as
// go-sqlite-bench's removeDbfiles, and checks that they are gone. An
// in-memory database or a URI has no file to remove.
func removeDBFiles(path string) error {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil
	}
	for _, name := range []string{path, path + "-journal", path + "-wal", path + "-shm"} {
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", name, err)
		}
		if _, err := os.Stat(name); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s is still there after its removal", name)
		}
	}
	return nil
}

// settleHeap collects the heap and returns every free page of it to the OS.
func settleHeap() { debug.FreeOSMemory() }

func (s *Loop) closeCell(key cellKey) error {
	c, ok := s.cells[key]
	if !ok {
		return nil
	}
	delete(s.cells, key)
	err := c.endHeld()
	if c.env.Conn == nil && c.env.Handle == nil {
		return err // closed by a failed fresh
	}
	if terr := c.w.Teardown(c.env); err == nil {
		err = terr
	}
	if cerr := closeEnv(c.env); err == nil {
		err = cerr
	}
	return err
}

func (s *Loop) closeAll() {
	for k := range s.cells {
		if err := s.closeCell(k); err != nil {
			fmt.Fprintf(s.Log, "close cell %s on %s: %v\n", k.scope, k.target, err)
		}
	}
}
