package runner

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
)

func init() {
	open := func(context.Context, bench.Config) (bench.Conn, error) { return nil, errors.New("not for opening") }
	bench.RegisterOpener("hello-copier", open, bench.CapPool, bench.CapCopy)
	bench.RegisterOpener("hello-plain", open)
}

func TestServerDeclaresItsTargetsWithTheirCapabilities(t *testing.T) {
	var out, log bytes.Buffer
	s := &Loop{In: strings.NewReader("hello\n"), Out: &out, Log: &log}
	if err := s.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if ok, fail := protocol.ParseStatus(lines[len(lines)-1]); !ok || fail != "" {
		t.Fatalf("hello failed:\n%s", out.String())
	}
	for _, want := range []string{"runner-protocol: 3", "runner-target: hello-copier copy,pool",
		"runner-target: hello-plain"} {
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("hello reply lacks %q:\n%s", want, out.String())
		}
	}
	h, err := protocol.ParseHello(lines[:len(lines)-1])
	if err != nil {
		t.Fatal(err)
	}
	if !h.Has("hello-copier", bench.CapCopy) || h.Has("hello-plain", bench.CapPool) || !h.Links("hello-plain") {
		t.Errorf("parsed declaration %+v", h)
	}
}
