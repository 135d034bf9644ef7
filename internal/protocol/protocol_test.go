package protocol

import (
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

func TestRequestRoundTrip(t *testing.T) {
	in := Request{Verb: VerbRun, Target: "mysql", Workload: "SimpleQuery", DB: "mariadb", Scope: "c1",
		Location: Location{Endpoint: bench.Endpoint{Net: "unix", Addr: "/tmp/a b/mysqld.sock", User: "bench",
			Password: "p&w=x y", Database: "bench"}, ServerPID: 4242},
		Name: "SimpleQuery/db=mariadb/driver=go-sql-driver/api=sql/net=unix", N: 100, Warmup: 10, Scale: 0.01,
		SQLite: bench.SQLiteSettings{Journal: "WAL", Sync: "NORMAL"}, CPUProfile: "/tmp/p q/pgx-SimpleQuery-tcp.pprof"}
	out, err := ParseRequest(in.Encode())
	if err != nil || out != in {
		t.Fatalf("round trip: %+v, %v; want %+v", out, err, in)
	}
	if strings.Contains(in.Encode(), "\n") {
		t.Error("an encoded request spans lines")
	}
	tls := in
	tls.Net, tls.Addr, tls.TLS, tls.CA = "tcp", "127.0.0.1:5432", bench.TLSVerify, "/tmp/a b/server-cert.pem"
	if out, err := ParseRequest(tls.Encode()); err != nil || out != tls {
		t.Fatalf("round trip with TLS: %+v, %v; want %+v", out, err, tls)
	}
}

func TestParseRequestRejectsBadInput(t *testing.T) {
	for _, line := range []string{
		"fly target=x",
		"run target=x&workload=W&scope=c&name=N&n=0&warmup=0",
		"run target=x&workload=W&scope=c&name=N&n=5&warmup=-1",
		"run workload=W&scope=c&name=N&n=5&warmup=0",
		"run target=x&workload=W&name=N&n=5&warmup=0",
		"info db=sqlite",
		"run target=x&n=%zz",
		"run target=x&workload=W&scope=c&name=N&n=5&warmup=0&scale=0",
		"run target=x&workload=W&scope=c&name=N&n=5&warmup=0&scale=x",
		"info target=x&db=sqlite&sqlite-journal=fast",
		"info target=x&db=sqlite&sqlite-sync=always",
		"info target=x&db=mariadb&server-pid=0",
		"info target=x&db=mariadb&server-pid=me",
		"info target=x&db=mariadb&tls=maybe",
	} {
		if _, err := ParseRequest(line); err == nil {
			t.Errorf("ParseRequest(%q) accepted it", line)
		}
	}
}

func TestParseStatus(t *testing.T) {
	for _, c := range []struct {
		line   string
		status bool
		fail   string
	}{
		{"--- ok", true, ""},
		{"--- FAIL: open: no such file", true, "open: no such file"},
		{"BenchmarkX 1 2 ns/op", false, ""},
	} {
		if s, f := ParseStatus(c.line); s != c.status || f != c.fail {
			t.Errorf("ParseStatus(%q) = %v, %q", c.line, s, f)
		}
	}
}

func TestSlicesRoundTrip(t *testing.T) {
	r := Request{Verb: VerbRun, Target: "t", Workload: "W", DB: "sqlite", Scope: "c1", Name: "W/x=1", N: 5, Warmup: 1,
		Run: 2, Slice: 3, Slices: 4}
	back, err := ParseRequest(r.Encode())
	if err != nil || back.Run != 2 || back.Slice != 3 || back.Slices != 4 {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	bad := r
	bad.Slice = 5
	if _, err := ParseRequest(bad.Encode()); err == nil {
		t.Fatal("slice 5 of 4 accepted")
	}
}

// TestThreadParameterRoundTrips: thread=free survives encoding, the
// default (locked) is not sent, and anything else is refused.
func TestThreadParameterRoundTrips(t *testing.T) {
	req := Request{Verb: VerbRun, Target: "t", Workload: "W", Scope: "c", Name: "W", N: 1, FreeThread: true}
	if !strings.Contains(req.Encode(), "thread=free") {
		t.Fatalf("free thread not encoded: %s", req.Encode())
	}
	back, err := ParseRequest(req.Encode())
	if err != nil || !back.FreeThread {
		t.Fatalf("free thread did not round-trip: %+v, %v", back, err)
	}
	req.FreeThread = false
	if strings.Contains(req.Encode(), "thread=") {
		t.Errorf("the default thread sent: %s", req.Encode())
	}
	if _, err := ParseRequest("run target=t&workload=W&scope=c&name=W&n=1&warmup=0&thread=loose"); err == nil {
		t.Error("thread=loose accepted")
	}
}

// TestPrecedingParameterRoundTrips: preceding=none survives encoding, the
// default (replay) is not sent, and anything else is refused.
func TestPrecedingParameterRoundTrips(t *testing.T) {
	req := Request{Verb: VerbRun, Target: "t", Workload: "W", Scope: "c", Name: "W", N: 1, NoPreceding: true}
	back, err := ParseRequest(req.Encode())
	if err != nil || !back.NoPreceding || !strings.Contains(req.Encode(), "preceding=none") {
		t.Fatalf("preceding=none did not round-trip: %s: %+v, %v", req.Encode(), back, err)
	}
	req.NoPreceding = false
	if strings.Contains(req.Encode(), "preceding=") {
		t.Errorf("the default sent: %s", req.Encode())
	}
	if _, err := ParseRequest("run target=t&workload=W&scope=c&name=W&n=1&warmup=0&preceding=some"); err == nil {
		t.Error("preceding=some accepted")
	}
}

// An open-loop run request keeps its rate, latency limit and progress
// interval; the two need a rate, and none may be 0 or below.
func TestOpenLoopParametersRoundTrip(t *testing.T) {
	in := Request{Verb: VerbRun, Target: "pgx", Workload: "W", DB: "postgres", Scope: "c1", Name: "N", N: 10,
		Rate: 250.5, LatencyLimit: 20 * time.Millisecond, Progress: time.Second}
	out, err := ParseRequest(in.Encode())
	if err != nil || out != in {
		t.Fatalf("round trip: %+v, %v; want %+v", out, err, in)
	}
	for _, q := range []string{"rate=0", "rate=-1", "rate=x", "rate=%2BInf", "latency-limit=1000", "progress=5",
		"rate=5&latency-limit=0", "rate=5&progress=-3"} {
		if _, err := ParseRequest("run target=x&workload=W&scope=c&name=N&n=5&warmup=0&" + q); err == nil {
			t.Errorf("%s accepted", q)
		}
	}
}
