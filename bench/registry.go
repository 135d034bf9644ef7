package bench

import (
	"fmt"
	"sync"
)

// registry holds what registers itself at init time: workloads by name in
// registration order, and the openers of the targets linked into this binary.
// It is written only from init functions and read afterwards.
type registry struct {
	mu        sync.RWMutex
	workloads []Workload
	openers   map[string]Opener
}

var reg = &registry{openers: map[string]Opener{}}

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

// RegisterOpener makes target openable in this binary. It panics on a
// duplicate.
func RegisterOpener(target string, o Opener) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	if _, dup := reg.openers[target]; dup {
		panic("bench: target registered twice: " + target)
	}
	reg.openers[target] = o
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
