//go:build sqlbench_postgres

package main

// The PostgreSQL drivers: pure Go.
import (
	_ "github.com/sqlbench/sqlbench/targets/pgproto" // the protocol floor
	_ "github.com/sqlbench/sqlbench/targets/pgx"
	_ "github.com/sqlbench/sqlbench/targets/pq"
)
