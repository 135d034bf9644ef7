package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/session"
	"github.com/sqlbench/sqlbench/internal/wake"
)

// TestRunIdleLatencyLowIsHeldAndRecorded runs a small loopback session
// with --idle-latency low on a stand-in for the kernel's device: the
// session writes a 32-bit 0 to it, records the regime as a setting, times
// the wake-ups before each pass and prints them in the summary's details.
func TestRunIdleLatencyLowIsHeldAndRecorded(t *testing.T) {
	env, stdout, stderr, cache, _ := realEnv(t)
	dev := filepath.Join(t.TempDir(), "cpu_dma_latency")
	if err := os.WriteFile(dev, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env.DMALatency = dev
	out := filepath.Join(t.TempDir(), "out.txt")
	code := Main(context.Background(),
		[]string{"run", "--quick", "--db", "loopback", "--targets", "tcp", "--workloads", "TCPRoundTrip",
			"--count", "2", "--slices", "2", "--idle-latency", "low", "-o", out, "--cache", cache, "--details"}, env)
	if code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(dev); len(b) != 4 || strings.Trim(string(b), "\x00") != "" {
		t.Errorf("the device got %q, want a 32-bit 0", b)
	}
	if holdsOpen(t, dev) {
		t.Error("the session ended and the request is still held")
	}
	set, err := benchfile.ReadFile(out)
	if err != nil || len(set.Results) == 0 {
		t.Fatalf("read %s: %v", out, err)
	}
	r := set.Results[0]
	if got := r.GetConfig("idle-latency"); got != session.IdleLowSetting {
		t.Errorf("idle-latency line %q, want %q", got, session.IdleLowSetting)
	}
	for _, key := range []string{"wakeup", "wakeup-run-1", "wakeup-run-2"} {
		rd := wake.Parse(r.GetConfig(key))
		for _, k := range wake.Kinds() {
			if f := rd.Figures[k]; f.Median <= 0 || f.P90 < f.Median {
				t.Errorf("%s: %s figures %+v in %q", key, k, f, r.GetConfig(key))
			}
		}
	}
	if !strings.Contains(r.GetConfig("wakeup"), "before each of 4 passes") {
		t.Errorf("wakeup line %q does not name the 4 passes", r.GetConfig("wakeup"))
	}
	if !strings.Contains(stdout.String(), "wake-ups: a round trip waking a thread on another CPU, median/p90, before "+
		"each of 4 passes:\n  thread ") ||
		!strings.Contains(stdout.String(), "CPUs held out of deep idle (--idle-latency low)") {
		t.Errorf("the summary lacks the wake-ups or the regime:\n%s", stdout)
	}

}

// TestRunIdleLatencyRefused: a bad value, and a device that is not there
// when low is asked for, are one line and exit 2, before anything runs.
func TestRunIdleLatencyRefused(t *testing.T) {
	for _, c := range []struct {
		dev, value, want string
	}{
		{"", "deep", `--idle-latency: must be default, low or auto, got "deep"`},
		{filepath.Join(t.TempDir(), "none"), "low",
			"does not exist: this kernel offers no PM QoS CPU latency interface"},
	} {
		var out, errb bytes.Buffer
		env := fakeEnv(&out, &errb)
		env.DMALatency, env.Dir = c.dev, t.TempDir()
		res := filepath.Join(t.TempDir(), "r.txt")
		code := Main(context.Background(), []string{"run", "--db", "loopback", "--targets", "tcp", "--workloads",
			"TCPRoundTrip", "--idle-latency", c.value, "-o", res}, env)
		msg := strings.TrimSpace(errb.String())
		if code != ExitUsage || strings.Contains(msg, "\n") || !strings.Contains(msg, c.want) {
			t.Errorf("--idle-latency %s on %q: exit %d, stderr %q, want one line with %q", c.value, c.dev, code, msg,
				c.want)
		}
		if _, err := os.Stat(res); err == nil {
			t.Errorf("--idle-latency %s: a results file was left", c.value)
		}
	}
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"reproduce", "sqinn-go", "--idle-latency", "deep"},
		fakeEnv(&out, &errb))
	if msg := strings.TrimSpace(errb.String()); code != ExitUsage || msg != `sqlbench: --idle-latency: must be `+
		`default, low or auto, got "deep"` {
		t.Errorf("reproduce --idle-latency deep: exit %d, stderr %q", code, msg)
	}
}

// TestRunIdleLatencyReleasedOnFailure: a session that fails after taking
// the request (here an unusable --cpuprofile) lets go of it.
func TestRunIdleLatencyReleasedOnFailure(t *testing.T) {
	var out, errb bytes.Buffer
	env := fakeEnv(&out, &errb)
	env.Dir = t.TempDir()
	env.DMALatency = filepath.Join(t.TempDir(), "cpu_dma_latency")
	if err := os.WriteFile(env.DMALatency, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o600)
	code := Main(context.Background(),
		[]string{"run", "--db", "loopback", "--targets", "tcp", "--workloads", "TCPRoundTrip",
			"--idle-latency", "low", "--cpuprofile", filepath.Join(blocker, "sub"), "-o",
			filepath.Join(t.TempDir(), "r.txt")}, env)
	if code != ExitUsage || !strings.Contains(errb.String(), "--cpuprofile") {
		t.Fatalf("exit %d, stderr %q; want the --cpuprofile refusal", code, errb.String())
	}
	if b, _ := os.ReadFile(env.DMALatency); len(b) != 4 {
		t.Fatalf("the request was never taken (%q): the test tests nothing", b)
	}
	if holdsOpen(t, env.DMALatency) {
		t.Error("the failed session left the request held")
	}
}

// holdsOpen reports whether this process has path open.
func holdsOpen(t *testing.T, path string) bool {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && l == path {
			return true
		}
	}
	return false
}

// TestIdleLatencyAuto: --idle-latency auto holds the request where the
// device can be written (recorded as low) and otherwise runs in the
// kernel's regime, saying why in the log, the summary and the results
// file, and exits 0; reproduce asks for it by default.
func TestIdleLatencyAuto(t *testing.T) {
	for _, c := range []struct {
		name     string
		writable bool
	}{{"held", true}, {"kept", false}} {
		t.Run(c.name, func(t *testing.T) {
			env, stdout, stderr, cache, _ := realEnv(t)
			env.DMALatency = filepath.Join(t.TempDir(), "cpu_dma_latency")
			if c.writable {
				if err := os.WriteFile(env.DMALatency, nil, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			out := filepath.Join(t.TempDir(), "out.txt")
			code := Main(context.Background(),
				[]string{"run", "--quick", "--db", "loopback", "--targets", "tcp", "--workloads", "TCPRoundTrip",
					"--count", "2", "--slices", "1", "--idle-latency", "auto", "-o", out, "--cache", cache,
					"--details"}, env)
			if code != ExitOK {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			set, err := benchfile.ReadFile(out)
			if err != nil || len(set.Results) == 0 {
				t.Fatalf("read %s: %v", out, err)
			}
			r := set.Results[0]
			regime, kept := r.GetConfig(benchfile.KeyIdleLatency), r.GetConfig(benchfile.KeyIdleLatencyAuto)
			if c.writable {
				if b, _ := os.ReadFile(env.DMALatency); len(b) != 4 {
					t.Errorf("the device got %q, want a 32-bit 0", b)
				}
				if regime != session.IdleLowSetting || kept != "" {
					t.Errorf("idle-latency %q, idle-latency-auto %q; want the low line and no note", regime, kept)
				}
				if !strings.Contains(stdout.String(), "CPUs held out of deep idle") {
					t.Errorf("the summary does not say the CPUs were held:\n%s", stdout)
				}
				return
			}
			if regime != "" || !strings.Contains(kept, "default regime kept (auto: ") ||
				!strings.Contains(kept, "does not exist") {
				t.Errorf("idle-latency %q, idle-latency-auto %q; want no regime line and the reason kept", regime, kept)
			}
			flat := func(b *bytes.Buffer) string { return strings.Join(strings.Fields(b.String()), " ") } // wrapped
			if !strings.Contains(flat(stderr), "idle-latency: the kernel's default regime kept (auto: ") ||
				!strings.Contains(flat(stdout), "CPUs idle as the kernel's idle driver picks: the kernel's") {
				t.Errorf("the log or the summary does not say why:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
		})
	}
	var out, errb bytes.Buffer
	c := newRoot(context.Background(), fakeEnv(&out, &errb), []string{"reproduce"})
	rc, _, err := c.Find([]string{"reproduce"})
	if err != nil {
		t.Fatal(err)
	}
	if f := rc.Flags().Lookup("idle-latency"); f == nil || f.DefValue != session.IdleAuto {
		t.Errorf("reproduce --idle-latency's default: %v, want auto", f)
	}
}
