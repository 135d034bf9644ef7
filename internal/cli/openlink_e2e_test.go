package cli

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestLinkBadSchedules: a --link schedule sqlbench cannot use is one line
// and exit 2, before anything starts.
func TestLinkBadSchedules(t *testing.T) {
	for _, v := range []string{"0", "0,0@1s", "1ms,2ms", "1ms,2ms@", "1ms,2ms@0s", "1ms,2ms@2s,3ms@1s",
		"1ms,2xs@1s", "1ms/100us,50us@1s", "1ms,"} {
		var stdout, stderr bytes.Buffer
		env := fakeEnv(&stdout, &stderr)
		code := Main(t.Context(), []string{"run", "--quick", "-o", filepath.Join(t.TempDir(), "r.txt"),
			"--db", "postgres", "--link", v}, env)
		msg := strings.TrimSpace(stderr.String())
		if code != ExitUsage || !strings.HasPrefix(msg, "sqlbench: --link") || strings.Contains(msg, "\n") {
			t.Errorf("--link %s: exit %d, stderr %q; want exit 2 and one --link line", v, code, msg)
		}
	}
}

// interval is one interval of an open-loop run's progress series.
type interval struct {
	end, p50 time.Duration
	opsPerS  float64
}

// parseSeries reads a series-K line ("NAME: t=1s ops/s=… p50=… … | t=2s …").
func parseSeries(t *testing.T, line string) []interval {
	t.Helper()
	_, body, ok := strings.Cut(line, ": ")
	if !ok {
		t.Fatalf("series %q", line)
	}
	var ivs []interval
	for _, part := range strings.Split(body, " | ") {
		var iv interval
		for _, f := range strings.Fields(part) {
			k, v, _ := strings.Cut(f, "=")
			var err error
			switch k {
			case "t":
				iv.end, err = time.ParseDuration(v)
			case "p50":
				iv.p50, err = time.ParseDuration(v)
			case "ops/s":
				iv.opsPerS, err = strconv.ParseFloat(v, 64)
			}
			if err != nil {
				t.Fatalf("series interval %q: %v", part, err)
			}
		}
		ivs = append(ivs, iv)
	}
	return ivs
}

// TestOpenLoopShowsALinkSlowedMidRun: a real PostgreSQL server reached
// through the real link emulator, whose round trip goes from nothing to
// 10 ms two seconds into the run (--link 0,10ms@2s), slowed on purpose
// mid-run. Open-loop at 40/s, below what the slowed link still sustains
// (~90/s on one client), the run keeps its rate and the slowdown shows in
// the latency measured from the scheduled start: the progress series'
// median is under 5 ms in the first second and at least the link's 10 ms
// from the fourth on, and so is the run's median. Closed-loop, through
// the same schedule, the client sends fast until the change and slowly
// after it: the operations of the slow five seconds are a small share of
// the run's, so its median statement latency stays under 5 ms and the
// slowdown shows as fewer operations (a mean time per operation at least
// twice the median).
func TestOpenLoopShowsALinkSlowedMidRun(t *testing.T) {
	needServers(t, servers.KindPostgres)
	f := newFaultRun(t, buildSqlbench(t, t.TempDir()))
	srv, _ := userDB(t, servers.KindPostgres, f.tmp)
	sc := writeScript(t, f.dir, "one.sql", "SELECT 1;\n")
	const delay = 10 * time.Millisecond
	common := []string{"--db", "postgres", "--dsn", "postgres=" + srv.DSN("tcp"), "--targets", "pgx",
		"--script", sc, "--clients", "1", "--time", "7s", "--count", "1", "--slices", "1", "--warmup", "0",
		"--link", "0," + delay.String() + "@2s"}
	result := func(args ...string) *benchfmt.Result {
		t.Helper()
		out := filepath.Join(t.TempDir(), "r.txt")
		cmd := f.command(append(append([]string{"run", "-o", out}, common...), args...)...)
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Run(); err != nil {
			t.Fatalf("sqlbench run %v: %v\n%s", args, err, log.String())
		}
		set, err := benchfile.ReadFile(out)
		if err != nil || len(set.Results) != 1 {
			t.Fatalf("%v, %d results; want 1\n%s", err, len(set.Results), log.String())
		}
		r := set.Results[0]
		if l := r.GetConfig("link"); !strings.Contains(l, "then round trip +10ms from 2s into each run slice") {
			t.Errorf("link line %q does not record the schedule", l)
		}
		return r
	}

	open := result("--rate", "40", "--progress", "1s")
	series := open.GetConfig("series-1")
	t.Logf("open loop: %s", series)
	ivs := parseSeries(t, series)
	if len(ivs) < 6 {
		t.Fatalf("%d intervals in the series, want 7: %s", len(ivs), series)
	}
	if ivs[0].p50 >= delay/2 {
		t.Errorf("open loop, first second (before the step): p50 %s, want under %s", ivs[0].p50, delay/2)
	}
	for _, iv := range ivs {
		if iv.end >= 4*time.Second && iv.end < 7*time.Second && iv.p50 < delay {
			t.Errorf("open loop, interval to %s (after the step): p50 %s, want at least the link's %s", iv.end,
				iv.p50, delay)
		}
		if iv.end <= 7*time.Second && iv.opsPerS < 15 {
			t.Errorf("open loop, interval to %s: %.1f ops/s, want about the rate, 40/s, kept", iv.end, iv.opsPerS)
		}
	}
	if p50, _ := open.Value("p50-sec/op"); p50 < delay.Seconds() {
		t.Errorf("open loop: the run's p50 %.4f s, want at least the link's %s (5 of its 7 s are after the step)",
			p50, delay)
	}

	closed := result()
	p50, ok50 := closed.Value("stmt1-p50-sec/op")
	p99, _ := closed.Value("stmt1-p99-sec/op")
	mean, okMean := closed.Value("sec/op")
	t.Logf("closed loop: %d operations, p50 %.4f s, p99 %.4f s, mean %.4f s", closed.Iters, p50, p99, mean)
	if !ok50 || !okMean || p50 >= (delay/2).Seconds() || mean < 2*p50 {
		t.Errorf("closed loop: p50 %.4f s, mean %.4f s per operation; want the median under %s and the mean "+
			"at least twice it (the slow seconds as fewer operations)", p50, mean, delay/2)
	}
}
