// Package modernc registers the "modernc" target: modernc.org/sqlite through
// database/sql, SQLite's C source translated to Go (no cgo).
package modernc

import (
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/sqldb"
)

func init() {
	bench.RegisterOpener("modernc", sqldb.FileOpener("sqlite"), bench.CapPool)
}
