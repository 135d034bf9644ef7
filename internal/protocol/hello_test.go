package runner

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets"
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
	if ok, fail := ParseStatus(lines[len(lines)-1]); !ok || fail != "" {
		t.Fatalf("hello failed:\n%s", out.String())
	}
	for _, want := range []string{"runner-protocol: 3", "runner-target: hello-copier copy,pool", "runner-target: hello-plain"} {
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("hello reply lacks %q:\n%s", want, out.String())
		}
	}
	h, err := ParseHello(lines[:len(lines)-1])
	if err != nil {
		t.Fatal(err)
	}
	if !h.Has("hello-copier", bench.CapCopy) || h.Has("hello-plain", bench.CapPool) || !h.Links("hello-plain") {
		t.Errorf("parsed declaration %+v", h)
	}
}

func TestHelloRoundTripsAndAnswersWhatRuns(t *testing.T) {
	h := Hello{Protocol: ProtocolVersion,
		Targets:   map[string][]bench.Cap{"a": {bench.CapBatch, bench.CapLoad}, "b": {}},
		Workloads: []string{"BulkInsert/shape=3x8/path=load", "SimpleQuery"}}
	back, err := ParseHello(h.Lines())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(back.Lines(), "\n") != strings.Join(h.Lines(), "\n") {
		t.Fatalf("round trip:\n%s\nwant\n%s", strings.Join(back.Lines(), "\n"), strings.Join(h.Lines(), "\n"))
	}
	for _, c := range []struct {
		target, id string
		want       bool
	}{
		{"a", "SimpleQuery", true},
		{"b", "BulkInsert/shape=3x8/path=load", true},
		{"a", "BulkInsert", false}, // a name is not an ID
		{"c", "SimpleQuery", false},
		{"a", "Nope", false},
	} {
		if got := back.Runs(c.target, c.id); got != c.want {
			t.Errorf("Runs(%s, %s) = %v, want %v", c.target, c.id, got, c.want)
		}
	}
	if !back.Has("a", bench.CapLoad) || back.Has("b", bench.CapLoad) || back.Has("c", bench.CapLoad) {
		t.Error("Has does not follow the declared capabilities")
	}
}

func TestParseHelloRefusesWhatItCannotTrust(t *testing.T) {
	for name, lines := range map[string][]string{
		"protocol 1":       {"runner-protocol: 1", "runner-targets: a,b"},
		"no protocol":      {"runner-target: a"},
		"unknown line":     {"runner-protocol: 3", "runner-colour: blue"},
		"target twice":     {"runner-protocol: 3", "runner-target: a", "runner-target: a pool"},
		"cap twice":        {"runner-protocol: 3", "runner-target: a pool,pool"},
		"empty cap":        {"runner-protocol: 3", "runner-target: a pool,"},
		"workload twice":   {"runner-protocol: 3", "runner-workload: W", "runner-workload: W"},
		"malformed":        {"runner-protocol: 3", "runner-workload"},
		"space in caps":    {"runner-protocol: 3", "runner-target: a pool copy"},
		"bad version":      {"runner-protocol: two"},
		"space in an ID":   {"runner-protocol: 3", "runner-workload: W x"},
		"empty target":     {"runner-protocol: 3", "runner-target: "},
		"empty workload":   {"runner-protocol: 3", "runner-workload: "},
		"lines after none": {"runner-protocol: 3", ""},
	} {
		if h, err := ParseHello(lines); err == nil {
			t.Errorf("%s: accepted as %+v", name, h)
		}
	}
}

func TestCheckComparesTheDeclarationWithTheCatalogue(t *testing.T) {
	h := Hello{Protocol: ProtocolVersion, Targets: map[string][]bench.Cap{"pgx-native": {bench.CapCopy}, "pgx": {bench.CapPool}}}
	pgx, _ := targets.Lookup("pgx")
	if err := h.Check(pgx); err != nil {
		t.Errorf("pgx: %v", err)
	}
	native, _ := targets.Lookup("pgx-native")
	if err := h.Check(native); err != nil {
		t.Errorf("pgx-native: %v", err)
	}
	pq, _ := targets.Lookup("pq")
	if err := h.Check(pq); err == nil || !strings.Contains(err.Error(), "does not link it") {
		t.Errorf("pq, not linked: %v", err)
	}
	h.Targets["pgx"] = []bench.Cap{bench.CapCopy, bench.CapPool}
	if err := h.Check(pgx); err == nil || !strings.Contains(err.Error(), "declares the capabilities copy,pool, the catalogue lists pool") {
		t.Errorf("pgx, an extra capability: %v", err)
	}
}
