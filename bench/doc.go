// Package bench is the core of sqlbench: the driver-neutral connection
// interfaces that targets implement, the workloads written against them, the
// registries both live in, and the timing loop that measures one run.
//
// A target is one driver reached through one API (database/sql or the
// library's native API). It implements Conn, Stmt and Row; a workload is
// written once against those interfaces and so runs unchanged on every
// target. The harness (Measure) owns the timing loop, so every target is
// timed by the same code.
package bench
