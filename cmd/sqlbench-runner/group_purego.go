//go:build sqlbench_purego

package main

// The pure-Go SQLite group: no cgo, so these can share one binary.
import (
	_ "github.com/sqlbench/sqlbench/targets/modernc"
	_ "github.com/sqlbench/sqlbench/targets/ncruces"
	_ "github.com/sqlbench/sqlbench/targets/zombiezen"
)
