// Package sqlbench carries the sources sqlbench builds its runners from, so
// that an installed binary (go install .../cmd/sqlbench@VERSION, or a copy
// anywhere) can build them without a source tree: the Go module files, the
// packages the Go runner links (cmd/sqlbench-runner and its imports inside
// this module), and the JDBC runner's Maven module. internal/launcher
// extracts them into its cache and builds there; the Go module proxy or
// cache provides the dependencies.
//
// A test (runnersrc_test.go) fails when the runner imports a package of
// this module that is not embedded.
package sqlbench

import (
	"embed"
	"io/fs"
)

//go:embed go.mod go.sum
//go:embed cmd/sqlbench-runner bench internal/runner internal/protocol workloads floor targets
//go:embed internal/envinfo internal/procs internal/unit
//go:embed jdbc/pom.xml jdbc/src/main
var runnerSource embed.FS

// RunnerSource returns the embedded runner sources, rooted like the source
// tree. It holds test files too; the launcher skips them.
func RunnerSource() fs.FS { return runnerSource }
