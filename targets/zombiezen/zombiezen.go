// Package zombiezen registers the "zombiezen" target: the native API of
// zombiezen.com/go/sqlite, which runs on modernc's SQLite (no cgo).
package zombiezen

import (
	"zombiezen.com/go/sqlite"

	"github.com/sqlbench/sqlbench/targets/internal/native"
)

func init() {
	native.RegisterStep("zombiezen", func(dsn string) (*sqlite.Conn, error) {
		return sqlite.OpenConn(dsn, sqlite.OpenReadWrite, sqlite.OpenCreate, sqlite.OpenNoMutex)
	}, sqlite.TypeNull)
}
