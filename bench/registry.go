package bench

import (
	"fmt"
	"slices"
	"sync"
)

// registry holds what registers itself at init time: workloads by name in
// registration order, the kinds of target other than SQL databases, and the
// openers of the targets linked into this binary (Conn openers for SQL
// targets, Handle openers for targets of a Kind) with the capabilities each
// declares. It is written only from init functions and read afterwards.
type registry struct {
	mu        sync.RWMutex
	workloads []Workload
	kinds     []Kind
	openers   map[string]Opener
	handles   map[string]HandleOpener
	caps      map[string][]Cap
}

var reg = &registry{openers: map[string]Opener{}, handles: map[string]HandleOpener{}, caps: map[string][]Cap{}}

// RegisterWorkload adds w to the catalogue. It panics on a duplicate or
// incomplete entry: both are programming errors found at start-up.
func RegisterWorkload(w Workload) {
	if w.Name == "" || w.Family == "" || w.Describe == nil || w.Ops < 1 || w.Setup == nil || w.Begin == nil ||
		w.Teardown == nil || w.Unit == "" {
		panic(fmt.Sprintf("bench: incomplete workload %q", w.Name))
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	for _, have := range reg.workloads {
		if have.ID() == w.ID() {
			panic("bench: workload registered twice: " + w.ID())
		}
		if have.Name == w.Name &&
			(have.Smoke != w.Smoke || have.Family != w.Family || have.Unit != w.Unit || have.Spread != w.Spread) {
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

// RegisterOpener makes target, a SQL target, openable in this binary, with
// caps the capabilities its Conns have beyond Conn (see the Cap constants):
// what the runner declares for it in its hello, and what the orchestrator
// checks against the target catalogue. It panics on a target registered
// twice (by either opener), or a capability repeated or empty: programming
// errors found at start-up.
func RegisterOpener(target string, o Opener, caps ...Cap) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	reg.checkNew(target, caps)
	reg.openers[target] = o
}

// TargetCaps returns the capabilities target declared when it registered
// its opener, sorted, and whether it is linked into this binary.
func TargetCaps(target string) ([]Cap, bool) {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	caps, ok := reg.caps[target]
	return slices.Clone(caps), ok
}

// checkNew panics if target has an opener of either sort, or caps repeats
// a capability or has an empty one; else it records caps, sorted. The
// caller holds the lock.
func (r *registry) checkNew(target string, caps []Cap) {
	_, sql := r.openers[target]
	_, handle := r.handles[target]
	if sql || handle {
		panic("bench: target registered twice: " + target)
	}
	for i, c := range caps {
		if c == "" || slices.Contains(caps[:i], c) {
			panic(fmt.Sprintf("bench: target %s declares capability %q twice or empty", target, c))
		}
	}
	r.caps[target] = slices.Clone(caps)
	slices.Sort(r.caps[target])
}

// LookupOpener returns the opener of target, a SQL target, if it is linked
// into this binary.
func LookupOpener(target string) (Opener, bool) {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	o, ok := reg.openers[target]
	return o, ok
}

// Openers returns the names of the targets linked into this binary, of
// every kind.
func Openers() []string {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	names := make([]string, 0, len(reg.openers)+len(reg.handles))
	for n := range reg.openers {
		names = append(names, n)
	}
	for n := range reg.handles {
		names = append(names, n)
	}
	return names
}
