// Package floor is the transport floor: the physical limit under every
// networked driver number, measured in the same run as the drivers. It is
// a kind of target of its own (bench.Kind), not a database: its targets
// ("tcp" and "http", package floor/wire) move bytes over loopback TCP and
// HTTP/1.1 to a sink in the runner process and speak no SQL, and its
// workloads (the "floor" family) run on nothing else.
//
// This package declares the kind, its DB (the db= key "loopback"), the
// capabilities and interfaces of its targets' handles, and its workloads,
// which the workload catalogue (package workloads) registers. Registering
// the kind here makes "loopback" a database sqlbench accepts wherever this
// package is linked: the target catalogue imports it.
package floor

import (
	"fmt"
	"runtime"

	"github.com/sqlbench/sqlbench/bench"
)

// Loopback is the floor's DB: the db= key of its result names and the
// value of --db that runs it.
const Loopback bench.DB = "loopback"

// Family is the floor's workload family, what --db loopback runs when no
// workloads are named.
const Family = "floor"

// Capabilities of the floor's targets' handles.
const (
	// CapWire: the handle implements Wire (the target over raw TCP).
	CapWire bench.Cap = "wire"
	// CapHTTP: the handle implements Poster (the target over HTTP/1.1).
	CapHTTP bench.Cap = "http"
)

// Wire is the handle of the floor's target over raw TCP (CapWire): a
// connection to a sink server in the runner process on 127.0.0.1.
type Wire interface {
	bench.Handle
	// Send writes p through a bufio.Writer and flushes it, as the
	// published TCP benchmark's client does (rah-0/hyperion 2a8026c,
	// benchmarks/tcp); the sink reads it and answers nothing.
	Send(p []byte) error
	// Settle waits until the sink has read every byte Send wrote: an
	// untimed check after a run.
	Settle() error
	// RoundTrip writes p on the echo connection and reads len(p) bytes
	// back; they must equal p.
	RoundTrip(p []byte) error
}

// Poster is the handle of the floor's target over HTTP/1.1 (CapHTTP): a
// net/http client with the default transport's settings, on kept-alive
// connections to a net/http server in the runner process on 127.0.0.1.
type Poster interface {
	bench.Handle
	// Post sends p as the body of one POST, as the published HTTP
	// benchmark does (rah-0/hyperion 2a8026c, benchmarks/http): the server
	// reads the body with io.ReadAll and answers 200, the only thing
	// checked per request.
	Post(p []byte) error
	// Settle checks that the server received every request Post sent and
	// every byte of their bodies: an untimed check after a run.
	Settle() error
}

// Kind returns the floor as a kind of target: it runs the floor family by
// default, joins every run of a server database whose workloads include
// the floor's, and has nothing to start (each target starts its own sink).
func Kind() bench.Kind {
	return bench.Kind{
		DB:            Loopback,
		Family:        Family,
		BoundsServers: true,
		Config: [][2]string{{"floor",
			"transport floor (db=loopback, no database): raw TCP and net/http HTTP/1.1 to sinks inside the runner " +
				"process on 127.0.0.1"}},
		Info: func(target string) [][2]string {
			// No server version: the Go runtime's net stack.
			return [][2]string{{target + "-floor",
				fmt.Sprintf("loopback 127.0.0.1, sink in the runner process, %s net", runtime.Version())}}
		},
	}
}

func init() { bench.RegisterKind(Kind()) }
