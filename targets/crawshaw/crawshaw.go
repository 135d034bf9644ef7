// Package crawshaw registers the "crawshaw" target: the native API of
// crawshaw.io/sqlite (cgo).
package crawshaw

import (
	"crawshaw.io/sqlite"

	"github.com/sqlbench/sqlbench/targets/internal/native"
)

func init() {
	native.RegisterStep("crawshaw", func(dsn string) (*sqlite.Conn, error) {
		return sqlite.OpenConn(dsn, sqlite.SQLITE_OPEN_READWRITE|sqlite.SQLITE_OPEN_CREATE|sqlite.SQLITE_OPEN_NOMUTEX)
	}, sqlite.SQLITE_NULL)
}
