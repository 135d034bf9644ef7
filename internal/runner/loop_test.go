package runner

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/protocol"
)

func TestServerAnswersEveryRequestWithAStatusLine(t *testing.T) {
	in := strings.Join([]string{
		"hello",
		"info target=nosuch&db=sqlite&dsn=x",
		"run target=nosuch&workload=SimpleQuery&db=sqlite&dsn=x&scope=c0&name=N&n=1&warmup=0",
		"garbage",
		"close target=nosuch&scope=c0",
	}, "\n")
	var out, log bytes.Buffer
	s := &Loop{In: strings.NewReader(in), Out: &out, Log: &log}
	if err := s.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if ok, fail := protocol.ParseStatus(line); ok {
			statuses = append(statuses, fail)
		}
	}
	if len(statuses) != 5 || statuses[0] != "" || statuses[4] != "" {
		t.Fatalf("statuses %q, want 5 with hello and close ok:\n%s", statuses, out.String())
	}
	if !strings.Contains(statuses[1], `target "nosuch" is not linked into this runner`) {
		t.Errorf("status 1 = %q", statuses[1])
	}
	// This test binary links no workloads: the run is refused for that.
	if !strings.Contains(statuses[2], `unknown workload "SimpleQuery"`) {
		t.Errorf("status 2 = %q", statuses[2])
	}
	if !strings.Contains(statuses[3], `unknown verb "garbage"`) {
		t.Errorf("status 3 = %q", statuses[3])
	}
	if !strings.Contains(out.String(), "runner-protocol: 3\n") {
		t.Errorf("hello did not announce the protocol:\n%s", out.String())
	}
}
