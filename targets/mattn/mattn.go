// Package mattn registers the "mattn" target: github.com/mattn/go-sqlite3
// through database/sql. It links SQLite through cgo.
package mattn

import (
	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" database/sql driver

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/sqldb"
)

func init() {
	bench.RegisterOpener("mattn", sqldb.FileOpener("sqlite3"), bench.CapPool)
}
