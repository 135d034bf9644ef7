package session

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/envinfo"
	"github.com/sqlbench/sqlbench/internal/pin"
	"github.com/sqlbench/sqlbench/internal/wake"
)

// writeHeader writes the results file's configuration lines: the machine,
// what each runner reported of its drivers (info), the SQLite session
// settings, the servers, the CPU placement and the session's own settings
// and id (the first part of every table name it creates).
func writeHeader(ctx context.Context, w *benchfile.Writer, cfg *Config, p *Plan, info []string, dbs *dbSet, placement pin.Plan, id string) error {
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
	}
	for _, kv := range dbs.config() {
		w.SetConfig(kv[0], kv[1])
	}
	w.SetConfig("pin", placement.String())
	switch cfg.TimingThread {
	case ThreadFree:
		w.SetConfig("timing-thread", "free (Go timing goroutines not locked to a thread; time not divided)")
	case ThreadLocked:
		w.SetConfig("timing-thread", "locked (Go timing goroutines locked to a thread; time divided)")
	default:
		w.SetConfig("timing-thread", "auto (Go timing goroutines locked, time divided, on SQLite; free on a socket)")
	}
	if cfg.IdleLatency == IdleLow {
		w.SetConfig("idle-latency", IdleLowSetting)
	}
	if cfg.CPUProfile != "" {
		w.SetConfig("cpuprofile", cfg.CPUProfile+" (a CPU profile of each Go cell's timed runs, <cell>.pprof; none for JDBC cells)")
	}
	w.SetConfig("sqlbench", Version())
	w.SetConfig("sqlbench-command", strings.Join(cfg.Command, " "))
	w.SetConfig("count", fmt.Sprint(cfg.Count))
	w.SetConfig("slices", fmt.Sprint(cfg.Slices))
	w.SetConfig("scale", fmt.Sprint(cfg.Scale))
	if own := cfg.SmokeScales(p.Workloads); own != "" {
		w.SetConfig("smoke-scales", own)
	}
	w.SetConfig("warmup", fmt.Sprint(cfg.Warmup))
	w.SetConfig("warmup-all", fmt.Sprint(cfg.WarmupAll))
	if cfg.ColdJVM {
		w.SetConfig("jit-warmup", "off: JDBC cells run in a cold JVM, as the study's published Java program (reproduce --jit-warmup warms them)")
	}
	if len(cfg.CPUs) > 0 {
		w.SetConfig("cpu", joinInts(cfg.CPUs))
	}
	if cfg.Study != "" {
		w.SetConfig("reproduce-study", cfg.Study)
	}
	for _, kv := range scriptConfig(cfg) {
		w.SetConfig(kv[0], kv[1])
	}
	w.SetConfig("started", time.Now().UTC().Format(time.RFC3339))
	w.SetConfig("session-id", id)
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
