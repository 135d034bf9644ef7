// Package bvinc registers the "bvinc" target: the native API of
// github.com/bvinc/go-sqlite-lite (cgo, SQLite's C source bundled), the
// library eatonphil/gosqlite forked; its last release, v0.6.1, is of 2019.
// Simple calls compile with Conn.Prepare, which caches nothing; prepared
// statements are reset and rebound per use.
package bvinc

import (
	"github.com/bvinc/go-sqlite-lite/sqlite3"

	"github.com/sqlbench/sqlbench/targets/internal/native"
)

func init() {
	native.RegisterLite[*sqlite3.Conn, *sqlite3.Stmt, sqlite3.RawBytes]("bvinc",
		func(dsn string) (*sqlite3.Conn, error) {
			return sqlite3.Open(dsn, sqlite3.OPEN_READWRITE|sqlite3.OPEN_CREATE|sqlite3.OPEN_NOMUTEX)
		},
		func(s *sqlite3.Stmt) string { return s.Tail })
}
