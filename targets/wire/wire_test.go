package wire

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/targettest"
)

func TestWorkloads(t *testing.T) {
	for _, target := range []string{"tcp", "http"} {
		t.Run(target, func(t *testing.T) { targettest.Workloads(t, target, targettest.Loopback) })
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
			if w.Needs == bench.CapHTTP {
				target = "http"
			}
			e := targettest.NewEnv(t, target, targettest.Loopback)
			r, err := w.Begin(bench.Env{Ctx: e.Ctx, Conn: e.Conn, Dialect: e.Dialect, Warm: 1, N: 2})
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
		e := targettest.NewEnv(t, "tcp", targettest.Loopback)
		const warm, n = 100, 2000
		e.Warm, e.N = warm, n
		r, err := w.Begin(e)
		if err != nil {
			t.Fatal(err)
		}
		if err := bench.Warm(r, warm); err != nil {
			t.Fatal(err)
		}
		s, err := bench.Measure(r, warm, n, bench.NewLatencyHistogram())
		if err != nil {
			t.Fatal(err)
		}
		if a := float64(s.Allocs) / float64(s.N); a >= 0.01 {
			t.Errorf("%s: %.3f allocs/op (%d B/op), want 0", id, a, s.Bytes/uint64(s.N))
		}
	}
}

// TestSinkCatchesShortCount sends through a connection whose running count
// is off by one: the sink's acknowledgement no longer matches, and the send
// fails instead of being timed.
func TestSinkCatchesShortCount(t *testing.T) {
	c, err := OpenTCP(context.Background(), bench.Config{DB: bench.Loopback})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tc := c.(*TCPConn)
	p := make([]byte, 1024)
	if err := tc.Send(p); err != nil {
		t.Fatal(err)
	}
	tc.sent++ // as if a byte had been lost
	if err := tc.Send(p); err == nil || !strings.Contains(err.Error(), "acknowledged") {
		t.Fatalf("send after a lost byte: %v, want an acknowledgement mismatch", err)
	}
}

// TestNotSQL checks that the floor targets refuse SQL plainly.
func TestNotSQL(t *testing.T) {
	for _, open := range []bench.Opener{OpenTCP, OpenHTTP} {
		c, err := open(context.Background(), bench.Config{DB: bench.Loopback})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Exec("SELECT 1"); !errors.Is(err, bench.ErrNotSQL) {
			t.Errorf("Exec: %v, want ErrNotSQL", err)
		}
		if _, err := c.Prepare("SELECT 1"); !errors.Is(err, bench.ErrNotSQL) {
			t.Errorf("Prepare: %v, want ErrNotSQL", err)
		}
		if err := c.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	}
}

func BenchmarkTCPSend(b *testing.B) {
	c, err := OpenTCP(context.Background(), bench.Config{DB: bench.Loopback})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	w := c.(bench.Wire)
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
	c, err := OpenTCP(context.Background(), bench.Config{DB: bench.Loopback})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	w := c.(bench.Wire)
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
	c, err := OpenHTTP(context.Background(), bench.Config{DB: bench.Loopback})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	h := c.(bench.Poster)
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
