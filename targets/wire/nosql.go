// Package wire implements the transport-floor targets on the pseudo-database
// bench.Loopback: raw TCP ("tcp", bench.Wire) and HTTP/1.1 through net/http
// ("http", bench.Poster). Each opener starts a sink server goroutine inside
// the runner process on 127.0.0.1:0 — loopback only — and connects a
// client to it; Conn.Close stops both. No bytes leave the machine and no
// database is involved: what these targets measure is the cost of moving
// bytes through the kernel's loopback and Go's net (and net/http) stack,
// the floor under every networked driver number.
package wire

import "github.com/sqlbench/sqlbench/bench"

// noSQL gives a floor Conn the SQL methods of bench.Conn, each failing
// with bench.ErrNotSQL.
type noSQL struct{}

func (noSQL) Exec(string, ...any) error                    { return bench.ErrNotSQL }
func (noSQL) Query(string, bench.RowFunc, ...any) error    { return bench.ErrNotSQL }
func (noSQL) QueryRow(string, bench.RowFunc, ...any) error { return bench.ErrNotSQL }
func (noSQL) Prepare(string) (bench.Stmt, error)           { return nil, bench.ErrNotSQL }
