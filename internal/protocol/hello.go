package protocol

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// Keys of the lines of a hello reply.
const (
	helloProtocol = "runner-protocol"
	helloTarget   = "runner-target"
	helloWorkload = "runner-workload"
)

// Hello is a runner's declaration of what it implements: its answer to the
// hello request.
type Hello struct {
	// Protocol is the protocol version the runner speaks.
	Protocol int
	// Targets maps every target linked into the runner to the capabilities
	// it declares, sorted (empty for none).
	Targets map[string][]bench.Cap
	// Workloads lists the IDs (bench.Workload.ID) of the workloads the
	// runner implements, sorted.
	Workloads []string
}

// Links reports whether target is linked into the runner.
func (h Hello) Links(target string) bool {
	_, ok := h.Targets[target]
	return ok
}

// Has reports whether target is linked into the runner and declares
// capability c.
func (h Hello) Has(target string, c bench.Cap) bool {
	return slices.Contains(h.Targets[target], c)
}

// Implements reports whether the runner implements the workload whose ID is
// id.
func (h Hello) Implements(id string) bool {
	_, found := slices.BinarySearch(h.Workloads, id)
	return found
}

// Runs reports whether target runs the workload whose ID is id in this
// runner: the target is linked and the runner implements the workload.
// Whether the workload runs on the target's database and needs a
// capability the target lacks is the planner's to check (Has).
func (h Hello) Runs(target, id string) bool {
	return h.Links(target) && h.Implements(id)
}

// Lines returns the hello reply that declares h, without the status line, in
// the order the protocol gives: protocol, targets, workloads.
func (h Hello) Lines() []string {
	lines := []string{fmt.Sprintf("%s: %d", helloProtocol, h.Protocol)}
	for _, name := range h.targetNames() {
		line := helloTarget + ": " + name
		if caps := h.Targets[name]; len(caps) > 0 {
			line += " " + capList(caps)
		}
		lines = append(lines, line)
	}
	for _, id := range h.Workloads {
		lines = append(lines, helloWorkload+": "+id)
	}
	return lines
}

// ParseHello parses the lines of a hello reply (without the status line).
// It fails on a protocol version other than ProtocolVersion, on a line it
// does not know, and on a target or workload declared twice.
func ParseHello(lines []string) (Hello, error) {
	h := Hello{Targets: map[string][]bench.Cap{}}
	for _, line := range lines {
		key, val, ok := strings.Cut(line, ": ")
		if !ok {
			return Hello{}, fmt.Errorf("hello: malformed line %q", line)
		}
		switch key {
		case helloProtocol:
			v, err := strconv.Atoi(val)
			if err != nil {
				return Hello{}, fmt.Errorf("hello: bad protocol version %q", val)
			}
			h.Protocol = v
		case helloTarget:
			name, capsField, _ := strings.Cut(val, " ")
			if name == "" || strings.Contains(capsField, " ") {
				return Hello{}, fmt.Errorf("hello: malformed target line %q", line)
			}
			if h.Links(name) {
				return Hello{}, fmt.Errorf("hello: target %s declared twice", name)
			}
			caps := []bench.Cap{}
			if capsField != "" {
				for _, c := range strings.Split(capsField, ",") {
					if c == "" || slices.Contains(caps, bench.Cap(c)) {
						return Hello{}, fmt.Errorf("hello: target %s: capability %q empty or declared twice", name, c)
					}
					caps = append(caps, bench.Cap(c))
				}
			}
			slices.Sort(caps)
			h.Targets[name] = caps
		case helloWorkload:
			if val == "" || strings.Contains(val, " ") {
				return Hello{}, fmt.Errorf("hello: malformed workload line %q", line)
			}
			h.Workloads = append(h.Workloads, val)
		default:
			return Hello{}, fmt.Errorf("hello: unknown line %q", line)
		}
	}
	if h.Protocol != ProtocolVersion {
		return Hello{}, fmt.Errorf("the runner speaks protocol %d, sqlbench speaks %d (is the runner out of date?)",
			h.Protocol, ProtocolVersion)
	}
	slices.Sort(h.Workloads)
	for i := 1; i < len(h.Workloads); i++ {
		if h.Workloads[i] == h.Workloads[i-1] {
			return Hello{}, fmt.Errorf("hello: workload %s declared twice", h.Workloads[i])
		}
	}
	return h, nil
}

// TargetNames returns the names of the targets the runner links, sorted.
func (h Hello) TargetNames() []string { return h.targetNames() }

// CapList formats capabilities as the protocol does: comma-separated, or
// "none".
func CapList(caps []bench.Cap) string { return capList(caps) }

func (h Hello) targetNames() []string {
	names := make([]string, 0, len(h.Targets))
	for n := range h.Targets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// capList formats capabilities as the protocol does: comma-separated.
func capList(caps []bench.Cap) string {
	s := make([]string, len(caps))
	for i, c := range caps {
		s[i] = string(c)
	}
	return orNone(s)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ",")
}
