package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// watchedLog is a session's log that a test reads while the session runs,
// and that tells it when the first line holding a mark arrives.
type watchedLog struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	mark string
	seen chan struct{}
	once sync.Once
}

func (w *watchedLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if bytes.Contains(p, []byte(w.mark)) {
		w.once.Do(func() { close(w.seen) })
	}
	return w.buf.Write(p)
}

func (w *watchedLog) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestOpenLoopShowsAServerStall: a PostgreSQL server stalled on purpose
// mid-run (another session holds the advisory lock every execution of the
// script takes, shared, for a second) shows in the open-loop run's latency
// and lateness, not only in fewer operations: the operations scheduled
// during the stall are late or skipped, the run's p99 holds the stall, and
// the progress series, printed during the run and recorded in the results
// file, has the interval where it happened.
func TestOpenLoopShowsAServerStall(t *testing.T) {
	env, stdout, _, cache, tmp := realEnv(t)
	srv, db := userDB(t, servers.KindPostgres, tmp)
	log := &watchedLog{mark: "progress: Script", seen: make(chan struct{})}
	env.Stderr = log
	dir := t.TempDir()
	sc := writeScript(t, dir, "locked.sql", "SELECT 1 FROM (SELECT pg_advisory_xact_lock_shared(4242)) s;\n")
	out := filepath.Join(dir, "out.txt")
	const rate, limit, stall = 100, 400 * time.Millisecond, time.Second
	args := []string{"run", "--db", "postgres", "--dsn", "postgres=" + srv.DSN("tcp"), "--targets", "pgx",
		"--script", sc, "--clients", "2", "--time", "6s", "--count", "1", "--slices", "1",
		"--rate", "100", "--latency-limit", limit.String(), "--progress", "1s", "-o", out, "--cache", cache}
	held := make(chan error, 1)
	go func() {
		// One second into the timed run (its first progress line), hold
		// the lock exclusively for a second.
		select {
		case <-log.seen:
		case <-time.After(5 * time.Minute):
			held <- nil
			return
		}
		ctx := context.Background()
		c, err := db.Conn(ctx)
		if err == nil {
			defer c.Close()
			if _, err = c.ExecContext(ctx, "SELECT pg_advisory_lock(4242)"); err == nil {
				time.Sleep(stall)
				_, err = c.ExecContext(ctx, "SELECT pg_advisory_unlock(4242)")
			}
		}
		held <- err
	}()
	if code := Main(context.Background(), args, env); code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, log)
	}
	select {
	case err := <-held:
		if err != nil {
			t.Fatalf("the stall: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stall did not end")
	}
	set, err := benchfile.ReadFile(out)
	if err != nil || len(set.Results) != 1 {
		t.Fatalf("%v, %d results; want 1", err, len(set.Results))
	}
	r := set.Results[0]
	late, _ := r.Value("late")
	skipped, _ := r.Value("skipped")
	p99, _ := r.Value("p99-sec/op")
	lag, okLag := r.Value("lag-sec/op")
	t.Logf("late %v, skipped %v, p99 %v s, lag %v s; series: %s", late, skipped, p99, lag, r.GetConfig("series-1"))
	// About 100 operations are scheduled in the stall, 60 of them more
	// than the limit behind it when it ends.
	if late+skipped < 30 || p99 < 0.2 || !okLag {
		t.Errorf("late %v, skipped %v, p99 %v s, lag %v s (%v); want the stall's operations late or skipped "+
			"and in the p99", late, skipped, p99, lag, okLag)
	}
	series := r.GetConfig("series-1")
	if !strings.Contains(series, "skipped=") || strings.Count(series, " | ") < 4 {
		t.Errorf("series %q, want an interval a second of a 6 s run", series)
	}
	if !strings.Contains(r.GetConfig("rate"), "100/s") || !strings.HasPrefix(r.GetConfig("latency-limit"), "400ms") {
		t.Errorf("rate %q, latency limit %q not recorded", r.GetConfig("rate"), r.GetConfig("latency-limit"))
	}
	worst := 0
	for _, iv := range strings.Split(series, " | ") {
		if strings.Contains(iv, "skipped=0") && strings.Contains(iv, "late=0") {
			continue
		}
		worst++
	}
	if worst == 0 || worst > 3 {
		t.Errorf("%d intervals with late or skipped operations, want the one or two of the stall: %s", worst, series)
	}
}

// TestOpenLoopBelowAndAboveSaturation: one client running a 5 ms statement
// serves at most ~200 operations a second. At 50/s (below) the open loop
// keeps its rate with a latency near the statement's and next to nothing
// late or skipped; at 400/s (above) with a 100 ms limit, most arrivals are
// skipped or late and the median latency is near the limit.
func TestOpenLoopBelowAndAboveSaturation(t *testing.T) {
	env, stdout, stderr, cache, tmp := realEnv(t)
	srv, _ := userDB(t, servers.KindPostgres, tmp)
	dir := t.TempDir()
	sc := writeScript(t, dir, "sleep.sql", "SELECT 1 FROM (SELECT pg_sleep(0.005)) s;\n")
	run := func(rate string) map[string]float64 {
		out := filepath.Join(dir, "rate-"+rate+".txt")
		args := []string{"run", "--db", "postgres", "--dsn", "postgres=" + srv.DSN("tcp"), "--targets", "pgx",
			"--script", sc, "--clients", "1", "--time", "3s", "--count", "1", "--slices", "1",
			"--rate", rate, "--latency-limit", "100ms", "-o", out, "--cache", cache}
		if code := Main(context.Background(), args, env); code != ExitOK {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		set, err := benchfile.ReadFile(out)
		if err != nil || len(set.Results) != 1 {
			t.Fatalf("%v, %d results; want 1", err, len(set.Results))
		}
		vals := map[string]float64{"arrivals": float64(set.Results[0].Iters)}
		for _, u := range []string{"p50-sec/op", "late", "skipped", "done-ops/s"} {
			v, ok := set.Results[0].Value(u)
			if !ok {
				t.Fatalf("rate %s: no %s", rate, u)
			}
			vals[u] = v
		}
		t.Logf("rate %s: %v", rate, vals)
		return vals
	}
	below, above := run("50"), run("400")
	if bad := below["late"] + below["skipped"]; bad > 0.05*below["arrivals"] || below["done-ops/s"] < 35 ||
		below["p50-sec/op"] > 0.05 {
		t.Errorf("below saturation: %v; want the rate kept, latency near 5 ms, nearly nothing late", below)
	}
	if bad := above["late"] + above["skipped"]; bad < 0.3*above["arrivals"] || above["p50-sec/op"] < 0.05 ||
		above["p50-sec/op"] < 5*below["p50-sec/op"] {
		t.Errorf("above saturation: %v; want most arrivals late or skipped, the median near the 100 ms limit", above)
	}
}
