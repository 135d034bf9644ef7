//go:build sqlbench_sqinn

package main

// sqinn-go: pure Go, SQLite runs in the sqinn process it starts.
import _ "github.com/sqlbench/sqlbench/targets/sqinn"
