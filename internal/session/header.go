package session

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/envinfo"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/internal/wake"
	"github.com/sqlbench/sqlbench/targets"
)

// writeHeader writes the results file's configuration lines: the machine,
// what each runner reported of its drivers (info), the SQLite session
// settings, the servers, the CPU placement and the session's own settings
// and id (the first part of every table name it creates).
func writeHeader(ctx context.Context, w *benchfile.Writer, cfg *Config, p *Plan, info []string, dbs *dbSet,
	placement pin.Layout, id string, began time.Time) error {
	for _, f := range envinfo.Collect(ctx) {
		w.SetConfig(f.Key, f.Value)
	}
	for _, line := range info {
		if k, v, ok := strings.Cut(line, ": "); ok {
			w.SetConfig(k, v)
		}
	}
	if p.Uses(bench.SQLite) {
		for _, q := range cfg.SQLite.Setup() {
			k, v, _ := strings.Cut(strings.TrimPrefix(q, "PRAGMA "), "=")
			w.SetConfig("sqlite-"+strings.ReplaceAll(k, "_", "-"), v)
		}
		if cfg.SQLite.Sync == bench.SQLiteSyncDriver {
			w.SetConfig("sqlite-synchronous", "each driver's own (its -sqlite-session line)")
		}
	}
	for _, kv := range dbs.config() {
		w.SetConfig(kv[0], kv[1])
	}
	h := benchfile.Header{
		Pin: placement.String(), Version: Version(), Command: strings.Join(cfg.Command, " "),
		Count: cfg.Count, Slices: cfg.Slices, Scale: cfg.Scale, SmokeScales: cfg.SmokeScales(p.Workloads),
		Warmup: cfg.Warmup, WarmupAll: cfg.WarmupAll, CPUs: cfg.CPUs, Study: cfg.Study,
		Began: began, Started: time.Now(), SessionID: id,
	}
	switch cfg.TimingThread {
	case ThreadFree:
		h.TimingThread = "free (Go timing goroutines not locked to a thread; time not divided)"
	case ThreadLocked:
		h.TimingThread = "locked (Go timing goroutines locked to a thread; time divided)"
	default:
		// Fits 100 columns after "timing-thread: " (benchstat prints it).
		h.TimingThread = "auto (locked, time divided, on SQLite but sqinn, crawshaw's suite; free on a socket)"
	}
	if cfg.IdleLatency == IdleLow {
		h.IdleLatency = IdleLowSetting
	}
	if cfg.CPUProfile != "" {
		h.CPUProfile = cfg.CPUProfile +
			" (a CPU profile of each Go cell's timed runs, <cell>.pprof; none for JDBC cells)"
	}
	if cfg.ColdJVM {
		h.JITWarmup = "off: JDBC cells run in a cold JVM, as the study's published Java program (reproduce " +
			"--jit-warmup warms them)"
	}
	h.Write(w)
	if cfg.StudyBuilds != "" {
		w.SetConfig("reproduce-builds", cfg.StudyBuilds)
	}
	if cfg.JDBCPreparedExecSQL && slices.ContainsFunc(p.Runnable, func(t targets.Spec) bool { return t.JVM }) {
		w.SetConfig("jdbc-prepared-exec", "ps.execute(sql): the SQL passed again, as the SQL-Benchmark Java program "+
			"(Connector/J runs it as a plain statement; reproduce --jdbc-prepared-exec plain: ps.execute())")
	}
	if line, ok := precedingLine(cfg, p); ok {
		w.SetConfig(PrecedingKey, line)
	}
	if cfg.Measure == MeasureInstructions {
		w.SetConfig("measure", measureLine())
	}
	for _, kv := range openLoopConfig(cfg) {
		w.SetConfig(kv[0], kv[1])
	}
	for _, kv := range scriptConfig(cfg) {
		w.SetConfig(kv[0], kv[1])
	}
	return w.WriteUnits()
}

// IdleLowSetting is the idle-latency line of a session that held the CPUs
// out of deep idle.
const IdleLowSetting = "low (" + wake.DMALatencyPath + " held at 0 µs: CPUs kept out of deep idle states)"

// joinInts writes ns as go test -cpu takes them: "2,4,8".
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ",")
}

// PrecedingKey is the results' line that says whether the cells whose
// published program ran other tests before them in one process ran after
// a replay of those (bench.Workload.Follows).
const PrecedingKey = "preceding-tests"

// precedingLine returns the preceding-tests line of a session of cfg and
// p: only when p runs a workload with preceding tests on SQLite.
func precedingLine(cfg *Config, p *Plan) (string, bool) {
	if !p.Uses(bench.SQLite) || !slices.ContainsFunc(p.Workloads, func(w bench.Workload) bool {
		return len(w.Follows) > 0 && w.FreshDB
	}) {
		return "", false
	}
	if cfg.NoPreceding {
		return "none: every run from a settled heap (the default replays the tests the published program ran " +
			"before it in its process)", true
	}
	return "replay: a run whose published program ran other tests before it in its process (go-sqlite-bench's " +
		"50 and 100 KB before its 200 KB) follows them, untimed, in its runner, the heap unsettled " +
		"(--preceding-tests none: a settled heap)", true
}
