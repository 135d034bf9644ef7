package bench

import (
	"context"
	"fmt"
	"slices"
)

// Kind is a kind of target that is not a SQL database: what its targets
// speak is defined by the package that registers it (RegisterKind), and its
// targets open Handles (RegisterHandleOpener) instead of Conns. Its
// workloads name its DB in Workload.Only; no SQL workload runs on it. The
// schedule, the results and the reports treat its targets as any other
// target: DB is the db= key of their result names.
type Kind struct {
	// DB names the kind: the db= key of result names and a value of --db.
	// It must not be one of the SQL databases (AllDBs).
	DB DB
	// Family is the workload family a run whose only databases are kinds
	// runs when no workloads are named.
	Family string
	// BoundsServers marks a kind that measures a limit under the numbers
	// of the server databases (DB.Server): a run of a server database that
	// selects workloads of the kind also plans the kind's targets, so that
	// the limit is measured in the same run (see Joins).
	BoundsServers bool
	// Config holds the results-file configuration lines (key, value) of a
	// run that includes the kind.
	Config [][2]string
	// Info returns the configuration lines (key, value) a runner reports
	// for one target of the kind once it has opened it; nil reports none.
	Info func(target string) [][2]string
}

// Joins reports whether k joins a run of dbs that did not name it: k
// bounds the servers, a server database is among dbs, and one of ws runs
// on k.
func (k Kind) Joins(dbs []DB, ws []Workload) bool {
	if !k.BoundsServers || slices.Contains(dbs, k.DB) || !slices.ContainsFunc(dbs, DB.Server) {
		return false
	}
	return slices.ContainsFunc(ws, func(w Workload) bool { return w.RunsOn(k.DB) })
}

// Handle is an open session of a target of a Kind. What it can do beyond
// Close is the kind's to define; the kind's workloads type-assert
// Env.Handle to it. It is used by one goroutine at a time.
type Handle interface {
	// Close releases the session and whatever it started.
	Close() error
}

// HandleOpener opens a Handle for a target of a Kind.
type HandleOpener func(ctx context.Context, cfg Config) (Handle, error)

// RegisterKind adds k to the kinds this binary knows. It panics on an
// incomplete entry, a SQL database's name or a duplicate: all are
// programming errors found at start-up.
func RegisterKind(k Kind) {
	if k.DB == "" || k.Family == "" || slices.Contains(AllDBs(), k.DB) {
		panic(fmt.Sprintf("bench: bad kind %q", k.DB))
	}
	reg.mu.Lock()
	defer reg.mu.Unlock()
	for _, have := range reg.kinds {
		if have.DB == k.DB {
			panic("bench: kind registered twice: " + string(k.DB))
		}
	}
	reg.kinds = append(reg.kinds, k)
}

// Kinds returns the registered kinds in registration order.
func Kinds() []Kind {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	return slices.Clone(reg.kinds)
}

// LookupKind returns the registered kind named db.
func LookupKind(db DB) (Kind, bool) {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	for _, k := range reg.kinds {
		if k.DB == db {
			return k, true
		}
	}
	return Kind{}, false
}

// RegisterHandleOpener makes target, a target of a Kind, openable in this
// binary, with caps the capabilities its Handles have (as RegisterOpener).
// It panics on a target registered twice (by either opener).
func RegisterHandleOpener(target string, o HandleOpener, caps ...Cap) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	reg.checkNew(target, caps)
	reg.handles[target] = o
}

// LookupHandleOpener returns the opener of target, a target of a Kind, if
// it is linked into this binary.
func LookupHandleOpener(target string) (HandleOpener, bool) {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	o, ok := reg.handles[target]
	return o, ok
}
