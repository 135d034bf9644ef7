package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestLinkBadValues: a --link sqlbench cannot use is one line and exit 2,
// before anything starts.
func TestLinkBadValues(t *testing.T) {
	for _, args := range [][]string{
		{"--db", "postgres", "--link", "1xs"},
		{"--db", "postgres", "--link", "0ms"},
		{"--db", "postgres", "--link", "1ms/2ms"},
		{"--db", "postgres", "--link", "1ms/0/fast"},
		{"--db", "postgres", "--link", "1ms/0/1bit"},
		{"--db", "postgres", "--link", "nearby"},
		{"--db", "sqlite", "--link", "1ms"},
		{"--db", "postgres", "--net", "unix", "--link", "1ms"},
	} {
		var stdout, stderr bytes.Buffer
		env := fakeEnv(&stdout, &stderr)
		code := Main(context.Background(),
			append([]string{"run", "--quick", "-o", filepath.Join(t.TempDir(), "r.txt")}, args...), env)
		msg := strings.TrimSpace(stderr.String())
		if code != ExitUsage || !strings.HasPrefix(msg, "sqlbench: --link") || strings.Contains(msg, "\n") {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 and one --link line", args, code, msg,
				stdout.String())
		}
	}
}

// linkRun is the results of one session with or without a link.
type linkRun struct {
	nsop map[string]float64 // median ns/op by cell name
	cfg  *benchfmt.Result
}

func runLinked(t *testing.T, f *faultRun, args ...string) linkRun {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.txt")
	cmd := f.command(append([]string{"run", "-o", out}, args...)...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		t.Fatalf("sqlbench run %v: %v\n%s", args, err, log.String())
	}
	set, err := benchfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string][]float64{}
	for _, r := range set.Results {
		if v, ok := r.Value("sec/op"); ok {
			byName[r.Name.String()] = append(byName[r.Name.String()], v*1e9)
		}
	}
	lr := linkRun{nsop: map[string]float64{}, cfg: set.Results[len(set.Results)-1]}
	for n, vs := range byName {
		lr.nsop[n] = medianOf(vs)
	}
	return lr
}

func medianOf(vs []float64) float64 {
	s := append([]float64(nil), vs...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s[len(s)/2]
}

// linkRTT reads the measured round trip through the link from a results
// file's link-rtt line ("through the link 1095.8 µs (...").
func linkRTT(t *testing.T, cfg *benchfmt.Result) time.Duration {
	t.Helper()
	line := cfg.GetConfig("link-rtt")
	rest, ok := strings.CutPrefix(line, "through the link ")
	num, _, ok2 := strings.Cut(rest, " µs")
	v, err := strconv.ParseFloat(num, 64)
	if !ok || !ok2 || err != nil {
		t.Fatalf("link-rtt line %q", line)
	}
	return time.Duration(v * float64(time.Microsecond))
}

// TestLinkAddsItsRoundTripToEachOperation runs a real PostgreSQL and
// MariaDB with and without --link 1ms, on workloads of one round trip per
// operation (an unprepared statement without arguments: one simple-query
// message; the transport floor's TCP echo), and holds the rise of each
// cell's time per operation to the link: at least 0.9 ms, and at most four
// of the round trips measured through the link and 1 ms more (a loaded
// 2-CPU machine wakes the runner's, the proxy's and the server's threads
// late: +1.3-1.5 ms per round trip alone here, up to +3.2 ms with a second
// session running beside it). It also checks the link's lines, that
// no cell ran over the unix socket, and that the proxy is gone after.
func TestLinkAddsItsRoundTripToEachOperation(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	f := newFaultRun(t, buildSqlbench(t, t.TempDir()))
	args := []string{"--db", "mariadb,postgres,loopback", "--targets", "pgx-native,mysql,tcp",
		"--workloads", "SimpleExec,TCPRoundTrip/size=16", "--quick", "--count", "3", "--profile", "fast"}
	plain := runLinked(t, f, append(args, "--net", "tcp")...)
	linked := runLinked(t, f, append(args, "--link", "1ms")...)
	rtt := linkRTT(t, linked.cfg)
	if rtt < time.Millisecond {
		t.Errorf("the round trip measured through a 1ms link is %s", rtt)
	}
	for _, key := range []string{"link", "link-rtt", "link-cpu"} {
		if linked.cfg.GetConfig(key) == "" {
			t.Errorf("no %s line in the linked session's results", key)
		}
	}
	if l := linked.cfg.GetConfig("link"); !strings.Contains(l, "toxiproxy v2.12.0") || !strings.Contains(l, "+1ms") {
		t.Errorf("link line %q", l)
	}
	cells := 0
	for name, ns := range linked.nsop {
		if strings.Contains(name, "net=unix") {
			t.Errorf("%s ran over the unix socket under a link", name)
		}
		base, ok := plain.nsop[name]
		if !ok {
			t.Errorf("%s: no cell of that name without the link", name)
			continue
		}
		cells++
		rise := time.Duration(ns - base)
		t.Logf("%s: %.0f ns/op plain, %.0f ns/op through the link (+%s; link round trip %s)", name, base, ns, rise, rtt)
		if limit := 4*rtt + time.Millisecond; rise < 900*time.Microsecond || rise > limit {
			t.Errorf("%s: the link adds %s per operation; want from 0.9 ms to %s", name, rise, limit)
		}
	}
	if cells != 3 {
		t.Errorf("%d cells ran through the link, want 3 (pgx-native, mysql, tcp): %v", cells, linked.nsop)
	}
	if left, _ := filepath.Glob(filepath.Join(f.tmp, "sqblink-*")); len(left) > 0 {
		t.Errorf("link records left after the session: %v", left)
	}
	if live := liveProxies(f.tmp); len(live) > 0 {
		t.Errorf("link proxies left running: %v", live)
	}
}

// liveProxies lists the link proxy processes (not zombies) a session with
// TMPDIR tmp started.
func liveProxies(tmp string) []string {
	var live []string
	procDirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procDirs {
		environ, _ := os.ReadFile(filepath.Join(p, "environ"))
		if !bytes.Contains(environ, []byte("SQLBENCH_LINK_PROXY=1\x00")) ||
			!bytes.Contains(environ, []byte("TMPDIR="+tmp+"\x00")) {
			continue
		}
		if pid, _ := strconv.Atoi(filepath.Base(p)); procsStateZombie(pid) {
			continue
		}
		live = append(live, p)
	}
	return live
}

// TestLinkProxyGoesOnEveryExit ends a linked session of the transport
// floor with SIGTERM, then another with SIGKILL, once its proxy runs:
// SIGTERM leaves no proxy and no record; after SIGKILL the proxy dies with
// its owner and sqlbench clean removes the record it left.
func TestLinkProxyGoesOnEveryExit(t *testing.T) {
	f := newFaultRun(t, buildSqlbench(t, t.TempDir()))
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		cmd := f.command("run", "--db", "loopback", "--link", "1ms", "--workloads", "TCPRoundTrip", "--count", "20",
			"-o", filepath.Join(t.TempDir(), "r.txt"))
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var recs []string
		for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(
			200 * time.Millisecond) {
			recs, _ = filepath.Glob(filepath.Join(f.tmp, "sqblink-*"))
			if len(recs) > 0 && strings.Contains(log.String(), "link:") {
				break
			}
		}
		if len(recs) == 0 || len(liveProxies(f.tmp)) == 0 {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("%s: the session's proxy never ran:\n%s", sig, log.String())
		}
		cmd.Process.Signal(sig)
		cmd.Wait()
		deadline := time.Now().Add(10 * time.Second)
		for len(liveProxies(f.tmp)) > 0 && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		if live := liveProxies(f.tmp); len(live) > 0 {
			t.Errorf("%s: proxies run after the session ended: %v", sig, live)
		}
		left, _ := filepath.Glob(filepath.Join(f.tmp, "sqblink-*"))
		if sig == syscall.SIGTERM {
			if len(left) > 0 {
				t.Errorf("SIGTERM: link records left: %v\n%s", left, log.String())
			}
			continue
		}
		if len(left) == 0 {
			t.Fatal("SIGKILL: no record left for clean to find")
		}
		clean := f.command("clean")
		clean.Args = clean.Args[:2] // clean takes no --cache
		out, err := clean.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "removed link") {
			t.Errorf("sqlbench clean: %v\n%s", err, out)
		}
		if left, _ := filepath.Glob(filepath.Join(f.tmp, "sqblink-*")); len(left) > 0 {
			t.Errorf("clean left link records: %v", left)
		}
	}
}
