package wire

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/runner"
)

// TestThroughTheRunnerProtocol drives the floor targets as sqlbench does:
// info, two runs of one cell, a run of another, and the closes.
func TestThroughTheRunnerProtocol(t *testing.T) {
	in := strings.Join([]string{
		"info target=tcp&db=loopback",
		"run target=tcp&workload=TCPSend/size=4096&db=loopback&scope=c0&name=TCPSend/db=loopback/driver=tcp/api=raw/" +
			"size=4096&n=200&warmup=20",
		"run target=tcp&workload=TCPSend/size=4096&db=loopback&scope=c0&name=TCPSend/db=loopback/driver=tcp/api=raw/" +
			"size=4096&n=200&warmup=20",
		"run target=http&workload=HTTPPost/size=4096&db=loopback&scope=c1&name=HTTPPost/db=loopback/driver=http/api=" +
			"raw/size=4096&n=50&warmup=5",
		"run target=http&workload=SimpleQuery&db=loopback&scope=c2&name=SimpleQuery/db=loopback/driver=http/api=raw&" +
			"n=1&warmup=0",
		"close target=tcp&scope=c0",
		"close target=http&scope=c1",
	}, "\n")
	var out, log bytes.Buffer
	s := &runner.Loop{In: strings.NewReader(in), Out: &out, Log: &log}
	if err := s.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	var statuses []string
	results := 0
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if ok, fail := protocol.ParseStatus(line); ok {
			statuses = append(statuses, fail)
		}
		if strings.HasPrefix(line, "Benchmark") {
			results++
			if !strings.Contains(line, " MB/s ") || !strings.Contains(line, "/db=loopback/") {
				t.Errorf("result without MB/s or loopback key: %s", line)
			}
		}
	}
	if len(statuses) != 7 || results != 3 || !strings.Contains(out.String(), "tcp-floor: loopback 127.0.0.1") {
		t.Fatalf("%d statuses %q, %d results; want 7, 3 and a tcp-floor line:\n%s", len(statuses), statuses, results,
			out.String())
	}
	for i, st := range statuses {
		if i == 4 {
			if !strings.Contains(st, "workload SimpleQuery does not run on loopback") {
				t.Errorf("SQL workload on the floor: status %q, want a does-not-run-on-loopback failure", st)
			}
			continue
		}
		if st != "" {
			t.Errorf("request %d failed: %s", i, st)
		}
	}
}
