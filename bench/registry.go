package bench

import (
	"fmt"
	"slices"
	"sync"
)

// registry holds what registers itself at init time: workloads by name in
// registration order, and the openers of the targets linked into this binary
// with the capabilities each declares. It is written only from init
// functions and read afterwards.
type registry struct {
	mu        sync.RWMutex
	workloads []Workload
	openers   map[string]Opener
	caps      map[string][]Cap
}

var reg = &registry{openers: map[string]Opener{}, caps: map[string][]Cap{}}

// RegisterWorkload adds w to the catalogue. It panics on a duplicate or
// incomplete entry: both are programming errors found at start-up.
func RegisterWorkload(w Workload) {
	if w.Name == "" || w.Family == "" || w.Describe == nil || w.Ops < 1 || w.Setup == nil || w.Begin == nil || w.Teardown == nil || w.Unit == "" {
		panic(fmt.Sprintf("bench: incomplete workload %q", w.Name))
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	for _, have := range reg.workloads {
		if have.ID() == w.ID() {
			panic("bench: workload registered twice: " + w.ID())
		}
		if have.Name == w.Name && (have.Smoke != w.Smoke || have.Family != w.Family || have.Unit != w.Unit || have.Spread != w.Spread) {
			panic("bench: siblings of " + w.Name + " differ in Family, Unit, Smoke or Spread")
		}
	}
	reg.workloads = append(reg.workloads, w)
}

// Workloads returns every registered workload in registration order.
func Workloads() []Workload {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	return append([]Workload(nil), reg.workloads...)
}

// LookupWorkload returns the workload whose ID is id.
func LookupWorkload(id string) (Workload, bool) {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	for _, w := range reg.workloads {
		if w.ID() == id {
			return w, true
		}
	}
	return Workload{}, false
}

// RegisterOpener makes target openable in this binary, with caps the
// capabilities its Conns have beyond Conn (see the Cap constants): what the
// runner declares for it in its hello, and what the orchestrator checks
// against the target catalogue. It panics on a duplicate target or
// capability, or an empty one: programming errors found at start-up.
func RegisterOpener(target string, o Opener, caps ...Cap) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if _, dup := reg.openers[target]; dup {
		panic("bench: target registered twice: " + target)
	}
	for i, c := range caps {
		if c == "" || slices.Contains(caps[:i], c) {
			panic(fmt.Sprintf("bench: target %s declares capability %q twice or empty", target, c))
		}
	}
	reg.openers[target] = o
	reg.caps[target] = slices.Clone(caps)
	slices.Sort(reg.caps[target])
}

// TargetCaps returns the capabilities target declared when it registered
// its opener, sorted, and whether it is linked into this binary.
func TargetCaps(target string) ([]Cap, bool) {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	caps, ok := reg.caps[target]
	return slices.Clone(caps), ok
}

// LookupOpener returns the opener of target if it is linked into this binary.
func LookupOpener(target string) (Opener, bool) {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	o, ok := reg.openers[target]
	return o, ok
}

// Openers returns the names of the targets linked into this binary.
func Openers() []string {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	names := make([]string, 0, len(reg.openers))
	for n := range reg.openers {
		names = append(names, n)
	}
	return names
}
