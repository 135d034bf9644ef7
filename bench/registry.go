package bench

import (
	"fmt"
	"sync"
)

// registry holds what registers itself at init time: workloads by name in
// registration order, the kinds of target other than SQL databases, and the
// openers of the targets linked into this binary (Conn openers for SQL
// targets, Handle openers for targets of a Kind). It is written only from
// init functions and read afterwards.
type registry struct {
	mu        sync.RWMutex
	workloads []Workload
	kinds     []Kind
	openers   map[string]Opener
	handles   map[string]HandleOpener
}

var reg = &registry{openers: map[string]Opener{}, handles: map[string]HandleOpener{}}

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

// RegisterOpener makes target, a SQL target, openable in this binary. It
// panics on a target registered twice (by either opener).
func RegisterOpener(target string, o Opener) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	reg.checkNew(target)
	reg.openers[target] = o
}

// checkNew panics if target has an opener of either sort. The caller holds
// the lock.
func (r *registry) checkNew(target string) {
	_, sql := r.openers[target]
	_, handle := r.handles[target]
	if sql || handle {
		panic("bench: target registered twice: " + target)
	}
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
