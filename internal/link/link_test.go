package link

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/sqlbench/sqlbench/internal/procs"
)

// TestMain makes the test binary the proxy process when Start runs it.
func TestMain(m *testing.M) {
	RunProxyIfAsked()
	os.Exit(m.Run())
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Spec{
		"1ms":              {RTT: time.Millisecond},
		"500us/50us/1gbit": {RTT: 500 * time.Microsecond, Jitter: 50 * time.Microsecond, Rate: 1e9},
		"0.1ms":            {RTT: 100 * time.Microsecond},
		"2ms//100mbit":     {RTT: 2 * time.Millisecond, Rate: 1e8},
		"1ms/0/0":          {RTT: time.Millisecond},
		"dc":               presets["dc"],
		"0,2ms@5s":         {Steps: []Step{{At: 5 * time.Second, RTT: 2 * time.Millisecond}}},
		"1ms/100us,3ms@1s,200us@2.5s": {RTT: time.Millisecond, Jitter: 100 * time.Microsecond,
			Steps: []Step{{At: time.Second, RTT: 3 * time.Millisecond},
				{At: 2500 * time.Millisecond, RTT: 200 * time.Microsecond}}},
		"dc,30ms@10s": {Name: "dc", RTT: time.Millisecond, Jitter: 100 * time.Microsecond, Rate: 1e9,
			Steps: []Step{{At: 10 * time.Second, RTT: 30 * time.Millisecond}}},
	} {
		got, err := Parse(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "fast", "1", "0ms", "-1ms", "1ms/2ms", "1ms/1us/fast", "1ms/0/1tbit",
		"1ms/0/1bit", "1ms/1ms/1gbit/x", "1500ns", "11s", "1ms/-1us",
		"0", "0,0@1s", "1ms,", "1ms,2ms", "1ms,2ms@", "1ms,2ms@0s", "1ms,2ms@-1s", "1ms,2ms@2s,3ms@1s",
		"1ms,2ms@1s,3ms@1s", "1ms,2xs@1s", "1ms,11s@1s", "1ms/100us,50us@1s", "0/10us,2ms@1s", "1ms,2ms@1"} {
		if sp, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", in, sp)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): error on more than one line: %v", in, err)
		}
	}
	s := (Spec{RTT: 500 * time.Microsecond, Jitter: 50 * time.Microsecond, Rate: 1e9}).String()
	if s != "500us/50us/1gbit" {
		t.Errorf("String = %q", s)
	}
	sp, err := Parse("0,2ms@5s,100us@7.5s")
	if err != nil {
		t.Fatal(err)
	}
	if s := sp.String(); s != "0/0/unlimited,2ms@5s,100us@7.5s" {
		t.Errorf("String = %q", s)
	}
	back, err := Parse(strings.ReplaceAll(sp.String(), "unlimited", "0"))
	if err != nil || !reflect.DeepEqual(back, sp) {
		t.Errorf("Parse(String()) = %+v, %v; want %+v", back, err, sp)
	}
	if d := sp.Describe(); !strings.Contains(d, "then round trip +2ms from 5s into each run slice") {
		t.Errorf("Describe = %q", d)
	}
}

// TestScheduleChangesTheDelayMidConnection runs the real proxy with a
// link that starts with no delay and takes a 3 ms round trip 400 ms into
// the schedule, and times round trips on one connection that stays open
// across the change: under 1 ms before it, at least 3 ms after it, and
// under 1 ms again once the schedule is stopped (the link back to its
// first delay).
func TestScheduleChangesTheDelayMidConnection(t *testing.T) {
	e := start(t, Spec{Steps: []Step{{At: 400 * time.Millisecond, RTT: 3 * time.Millisecond}}})
	up, stopEcho, err := e.echoProcess()
	if err != nil {
		t.Fatal(err)
	}
	defer stopEcho()
	addr, err := e.Wrap(up)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rt := func() time.Duration {
		t.Helper()
		msg := make([]byte, probeBytes)
		begin := time.Now()
		if _, err := c.Write(msg); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, msg); err != nil {
			t.Fatal(err)
		}
		return time.Since(begin)
	}
	median := func(n int) time.Duration {
		ds := make([]time.Duration, n)
		for i := range ds {
			ds[i] = rt()
		}
		slices.Sort(ds)
		return ds[n/2]
	}
	stop := e.Schedule()
	before := median(20)
	time.Sleep(600 * time.Millisecond) // the step comes 400 ms after the schedule starts
	after := median(20)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	back := median(20)
	t.Logf("round trip: before the step %s, after it %s, after the schedule stopped %s", before, after, back)
	if before >= time.Millisecond || back >= time.Millisecond {
		t.Errorf("round trip without delay: before %s, back %s; want under 1ms", before, back)
	}
	if after < 3*time.Millisecond {
		t.Errorf("round trip after the step to 3ms: %s", after)
	}
}

// TestToxiproxyPinned holds ToxiproxyVersion to go.mod's requirement.
func TestToxiproxyPinned(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Require {
		if r.Mod.Path == "github.com/Shopify/toxiproxy/v2" {
			if r.Mod.Version != ToxiproxyVersion {
				t.Errorf("go.mod requires toxiproxy %s, ToxiproxyVersion says %s", r.Mod.Version, ToxiproxyVersion)
			}
			return
		}
	}
	t.Error("go.mod does not require github.com/Shopify/toxiproxy/v2")
}

func TestNetemFromConfig(t *testing.T) {
	dir := t.TempDir()
	boot := filepath.Join(dir, "boot")
	os.MkdirAll(boot, 0o755)
	var u = release(t)
	os.WriteFile(filepath.Join(boot, "config-"+u), []byte("CONFIG_NET_SCH_HTB=y\n# CONFIG_NET_SCH_NETEM is not set\n"),
		0o644)
	if ok, why := netem(filepath.Join(dir, "proc"), boot, filepath.Join(dir, "sys"), filepath.Join(dir, "lib")); ok ||
		!strings.Contains(why, "not set") {
		t.Errorf("netem without it = %v, %q", ok, why)
	}
	os.WriteFile(filepath.Join(boot, "config-"+u), []byte("CONFIG_NET_SCH_NETEM=m\n"), 0o644)
	if ok, why := netem(filepath.Join(dir, "proc"), boot, filepath.Join(dir, "sys"), filepath.Join(dir, "lib")); !ok ||
		!strings.Contains(why, "=m") {
		t.Errorf("netem as a module = %v, %q", ok, why)
	}
	ok, why := Netem()
	t.Logf("this machine: %v, %s", ok, why)
}

func release(t *testing.T) string {
	out, err := exec.Command("uname", "-r").Output()
	if err != nil {
		t.Skip("uname:", err)
	}
	return strings.TrimSpace(string(out))
}

func start(t *testing.T, sp Spec) *Emulator {
	t.Helper()
	e, err := Start(context.Background(), Options{Spec: sp})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Stop() })
	return e
}

// TestLinkAddsItsRoundTrip runs the real proxy process and holds the round
// trip through it, less the proxy's own, near the link's: at least the
// delay asked for and not more than 0.4 ms above it (a loaded 2-CPU VM
// wakes a sleeping thread 10-100 µs late, twice per round trip).
func TestLinkAddsItsRoundTrip(t *testing.T) {
	for _, rtt := range []time.Duration{time.Millisecond, 200 * time.Microsecond} {
		e := start(t, Spec{RTT: rtt})
		p, err := e.Measure(context.Background(), 200)
		if err != nil {
			t.Fatal(err)
		}
		added := p.Link.P50 - p.Proxy.P50
		t.Logf("link %s: %s", rtt, e.ConfigLines(p)[1][1])
		if added < rtt-20*time.Microsecond || added > rtt+400*time.Microsecond {
			t.Errorf("link %s adds %s over the bare proxy (link %s, proxy %s)", rtt, added, p.Link.P50, p.Proxy.P50)
		}
		if p.Direct.P50 >= p.Link.P50 {
			t.Errorf("direct %s is not faster than through the link %s", p.Direct.P50, p.Link.P50)
		}
		if cpu, err := e.CPU(); err != nil || cpu <= 0 {
			t.Errorf("proxy CPU = %s, %v", cpu, err)
		}
		pid := e.PID
		if err := e.Stop(); err != nil {
			t.Error(err)
		}
		if alive(pid) {
			t.Errorf("proxy %d runs after Stop", pid)
		}
		if _, err := os.Stat(e.rec); !os.IsNotExist(err) {
			t.Errorf("record %s left after Stop: %v", e.rec, err)
		}
	}
}

// TestRateLimits echoes 128 KiB through a 8 mbit link (1 MB/s each way):
// at least 0.1 s, where loopback takes milliseconds.
func TestRateLimits(t *testing.T) {
	e := start(t, Spec{RTT: 100 * time.Microsecond, Rate: 8_000_000})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go echo(ln)
	addr, err := e.Wrap(ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	const size = 128 << 10
	begin := time.Now()
	go c.Write(make([]byte, size))
	if _, err := io.ReadFull(c, make([]byte, size)); err != nil {
		t.Fatal(err)
	}
	took := time.Since(begin)
	t.Logf("128 KiB echoed through 8mbit in %s", took)
	if took < 100*time.Millisecond || took > 10*time.Second {
		t.Errorf("128 KiB echoed through a 8 mbit link in %s, want 0.1-10 s", took)
	}
}

func alive(pid int) bool {
	st, err := procs.Stat(pid)
	return err == nil && st.State != "Z"
}

// TestSweepRemovesAnOrphanedProxy takes a live proxy for one whose owner
// is gone (its record rewritten to name a process that exited) and holds
// that Sweep kills it and removes its record, and leaves a live owner's
// proxy alone.
func TestSweepRemovesAnOrphanedProxy(t *testing.T) {
	live := start(t, Spec{RTT: time.Millisecond})
	orphan := start(t, Spec{RTT: time.Millisecond})
	gone := exec.Command("true")
	if err := gone.Start(); err != nil {
		t.Fatal(err)
	}
	st, err := procs.Stat(gone.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	gone.Wait()
	path := filepath.Join(orphan.rec, recordFile)
	var r record
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	r.Owner, r.OwnerStart = gone.Process.Pid, st.Starttime
	data, _ = json.Marshal(r)
	os.WriteFile(path, data, 0o644)
	var log strings.Builder
	n, err := Sweep(&log)
	if err != nil {
		t.Fatal(err)
	}
	if n < 1 || !strings.Contains(log.String(), "proxy process") {
		t.Errorf("Sweep removed %d: %q", n, log.String())
	}
	if alive(orphan.PID) {
		t.Errorf("the orphaned proxy %d still runs", orphan.PID)
	}
	if _, err := os.Stat(orphan.rec); !os.IsNotExist(err) {
		t.Errorf("its record is left: %v", err)
	}
	if !alive(live.PID) {
		t.Errorf("Sweep killed a live owner's proxy")
	}
	if _, err := os.Stat(live.rec); err != nil {
		t.Errorf("Sweep removed a live owner's record: %v", err)
	}
}
