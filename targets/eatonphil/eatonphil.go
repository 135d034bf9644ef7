// Package eatonphil registers the "eatonphil" target: the native API of
// github.com/eatonphil/gosqlite (cgo, SQLite's C source bundled), the
// maintained fork of bvinc/go-sqlite-lite. Simple calls compile with
// Conn.Prepare, which caches nothing; prepared statements are reset and
// rebound per use.
package eatonphil

import (
	"github.com/eatonphil/gosqlite"

	"github.com/sqlbench/sqlbench/targets/internal/native"
)

func init() {
	native.RegisterLite[*gosqlite.Conn, *gosqlite.Stmt, gosqlite.RawBytes]("eatonphil",
		func(dsn string) (*gosqlite.Conn, error) {
			return gosqlite.Open(dsn, gosqlite.OPEN_READWRITE|gosqlite.OPEN_CREATE|gosqlite.OPEN_NOMUTEX)
		},
		func(s *gosqlite.Stmt) string { return s.Tail })
}
