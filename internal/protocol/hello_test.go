package protocol

import (
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

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
