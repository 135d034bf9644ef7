package wire

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
	"github.com/sqlbench/sqlbench/targets"
	_ "github.com/sqlbench/sqlbench/workloads" // the catalogue, the floor family included
)

// newEnv opens target's handle as a runner does, for the length of the
// test.
func newEnv(t testing.TB, target string) bench.Env {
	t.Helper()
	open, ok := bench.LookupHandleOpener(target)
	if !ok {
		t.Fatalf("target %q is not registered", target)
	}
	h, err := open(context.Background(), bench.Config{DB: floor.Loopback})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return bench.Env{Ctx: context.Background(), Handle: h, Dialect: bench.DialectOf(floor.Loopback)}
}

// TestWorkloads runs every workload of each floor target (all but the
// sizes planned only at --scale 1, see TestBigMessages) and expects each
// to pass its own verification; every workload of the catalogue runs on
// one of them or is a SQL workload that runs on neither.
func TestWorkloads(t *testing.T) {
	ran := map[string]bool{}
	for _, target := range []string{"tcp", "http"} {
		spec, ok := targets.Lookup(target)
		if !ok || spec.DB != floor.Loopback {
			t.Fatalf("target %q is not a floor target of the catalogue: %+v", target, spec)
		}
		for _, w := range bench.Workloads() {
			if !spec.Runs(w) {
				continue
			}
			ran[w.ID()] = true
			if w.MinScale > 0 {
				continue
			}
			t.Run(target+"/"+w.ID(), func(t *testing.T) {
				if err := bench.Exercise(newEnv(t, target), w, min(250, w.Ops)); err != nil {
					t.Fatalf("%s on %s: %v", w.ID(), target, err)
				}
			})
		}
	}
	for _, w := range bench.Workloads() {
		if (w.Family == floor.Family) != ran[w.ID()] {
			t.Errorf("%s (family %s): runs on a floor target %v", w.ID(), w.Family, ran[w.ID()])
		}
	}
}

// TestBigMessages runs the variants planned only at --scale 1 with a few
// operations each: 10 MB and 100 MB; the 1 GB ones (the same code, tens of
// seconds on a loaded 2-core machine) only with SQLBENCH_TEST_1GB=1.
func TestBigMessages(t *testing.T) {
	for _, w := range bench.Workloads() {
		if w.Family != "floor" || w.MinScale == 0 {
			continue
		}
		t.Run(w.ID(), func(t *testing.T) {
			if strings.HasSuffix(w.Keys, "="+strconv.Itoa(1<<30)) && os.Getenv("SQLBENCH_TEST_1GB") == "" {
				t.Skip("1 GB messages: set SQLBENCH_TEST_1GB=1")
			}
			target := "tcp"
			if w.Needs == floor.CapHTTP {
				target = "http"
			}
			e := newEnv(t, target)
			e.Warm, e.N = 1, 2
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			if err := bench.Warm(r, 1); err != nil {
				t.Fatal(err)
			}
			s, err := bench.Measure(r, 1, 2, bench.NewLatencyHistogram())
			if err != nil {
				t.Fatal(err)
			}
			if err := r.End(); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %.0f MB/s", w.ID(), s.BytesPerOp*1e3/s.NsPerOp())
		})
	}
}

// TestTCPSendAllocatesNothing measures TCPSend at 64 KiB through the
// harness, as a run does, and expects no allocation per operation (the sink
// runs in this process, so its allocations count too).
func TestTCPSendAllocatesNothing(t *testing.T) {
	for _, id := range []string{"TCPSend/size=65536", "TCPRoundTrip/size=16"} {
		w, ok := bench.LookupWorkload(id)
		if !ok {
			t.Fatalf("%s not registered", id)
		}
		e := newEnv(t, "tcp")
		const warm, n = 100, 2000
		e.Warm, e.N = warm, n
		r, err := w.Begin(e)
		if err != nil {
			t.Fatal(err)
		}
		if err := bench.Warm(r, warm); err != nil {
			t.Fatal(err)
		}
		// Up to three runs: on a loaded machine the in-process sink's
		// goroutine once made the runtime allocate (0.07 allocs/op) in a
		// run; an allocation of the operation's own shows in every run.
		var s bench.Sample
		for range 3 {
			if s, err = bench.Measure(r, warm, n, bench.NewLatencyHistogram()); err != nil {
				t.Fatal(err)
			}
			if float64(s.Allocs)/float64(s.N) < 0.01 {
				break
			}
		}
		if a := float64(s.Allocs) / float64(s.N); a >= 0.01 {
			t.Errorf("%s: %.3f allocs/op (%d B/op) in each of three runs, want 0", id, a, s.Bytes/uint64(s.N))
		}
	}
}

// TestSendOnlyWrites checks TCPSend's exchange against the published
// client's: the payload's bytes and nothing else reach the sink (no length
// prefix), and nothing comes back on the connection (no acknowledgement).
func TestSendOnlyWrites(t *testing.T) {
	h, err := OpenTCP(context.Background(), bench.Config{DB: floor.Loopback})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	tc := h.(*TCPConn)
	for range 3 {
		if err := tc.Send([]byte("something")); err != nil {
			t.Fatal(err)
		}
	}
	if err := tc.Settle(); err != nil {
		t.Fatal(err)
	}
	if got := tc.sink.received.Load(); got != 27 {
		t.Errorf("the sink read %d bytes for three 9-byte messages, want 27", got)
	}
	if err := tc.send.SetReadDeadline(time.Now().Add(100 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	var b [8]byte
	if n, err := tc.send.Read(b[:]); n > 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the sink answered a send: %d bytes, %v", n, err)
	}
}

// TestSettleCatchesLostBytes checks the after-run check: a byte sent but
// never received (as if lost) fails it, and so does one received but never
// sent.
func TestSettleCatchesLostBytes(t *testing.T) {
	h, err := OpenTCP(context.Background(), bench.Config{DB: floor.Loopback})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	tc := h.(*TCPConn)
	tc.settleWait = 100 * time.Millisecond
	if err := tc.Send(make([]byte, 1024)); err != nil {
		t.Fatal(err)
	}
	tc.sent++ // as if a byte had been lost
	if err := tc.Settle(); err == nil || !strings.Contains(err.Error(), "were sent") {
		t.Fatalf("settle after a lost byte: %v, want a count mismatch", err)
	}
	tc.sent -= 2 // as if a byte had come from nowhere
	if err := tc.Settle(); err == nil || !strings.Contains(err.Error(), "were sent") {
		t.Fatalf("settle after an extra byte: %v, want a count mismatch", err)
	}
}

// TestHTTPAsPublished checks the HTTP sink's answer and the client's
// request against the published handler and client: 200 with no body, the
// body read whole, Content-Type application/octet-stream, and Settle
// catching a request the server did not see.
func TestHTTPAsPublished(t *testing.T) {
	h, err := OpenHTTP(context.Background(), bench.Config{DB: floor.Loopback})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	hc := h.(*HTTPConn)
	if err := hc.Post([]byte("something")); err != nil {
		t.Fatal(err)
	}
	if err := hc.Settle(); err != nil {
		t.Fatal(err)
	}
	if got := hc.sink.received.Load(); got != 9 {
		t.Errorf("the server read %d body bytes in all, want 9", got)
	}
	resp, err := http.Post(hc.url, "application/octet-stream", strings.NewReader("something"))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || len(body) != 0 {
		t.Errorf("answer %s with %d body bytes (%v), want 200 and none", resp.Status, len(body), err)
	}
	if got := hc.headers.Get("Content-Type"); got != "application/octet-stream" {
		t.Errorf("Content-Type %q", got)
	}
	// The extra request above is one the client did not send through Post.
	if err := hc.Settle(); err == nil {
		t.Error("settle with a request the client did not count: no error")
	}
}

// TestNotSQL checks that the floor targets have no SQL to refuse: their
// handles are no bench.Conn, and they are registered as targets of a kind,
// not as SQL targets.
func TestNotSQL(t *testing.T) {
	for target, open := range map[string]bench.HandleOpener{"tcp": OpenTCP, "http": OpenHTTP} {
		h, err := open(context.Background(), bench.Config{DB: floor.Loopback})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := h.(bench.Conn); ok {
			t.Errorf("%s: the handle is a bench.Conn", target)
		}
		if _, ok := bench.LookupOpener(target); ok {
			t.Errorf("%s: registered as a SQL target", target)
		}
		if err := h.Close(); err != nil {
			t.Errorf("%s: close: %v", target, err)
		}
	}
}

func BenchmarkTCPSend(b *testing.B) {
	c, err := OpenTCP(context.Background(), bench.Config{DB: floor.Loopback})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	w := c.(floor.Wire)
	for _, size := range []int{1 << 10, 64 << 10, 1 << 20} {
		b.Run("size="+strconv.Itoa(size), func(b *testing.B) {
			p := make([]byte, size)
			if err := w.Send(p); err != nil { // the first send is not steady state
				b.Fatal(err)
			}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if err := w.Send(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkTCPRoundTrip(b *testing.B) {
	c, err := OpenTCP(context.Background(), bench.Config{DB: floor.Loopback})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	w := c.(floor.Wire)
	for _, size := range []int{1, 16} {
		b.Run("size="+strconv.Itoa(size), func(b *testing.B) {
			p := make([]byte, size)
			if err := w.RoundTrip(p); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := w.RoundTrip(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkHTTPPost(b *testing.B) {
	c, err := OpenHTTP(context.Background(), bench.Config{DB: floor.Loopback})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	h := c.(floor.Poster)
	for _, size := range []int{1 << 10, 64 << 10, 1 << 20} {
		b.Run("size="+strconv.Itoa(size), func(b *testing.B) {
			p := make([]byte, size)
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if err := h.Post(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
