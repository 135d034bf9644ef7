//go:build sqlbench_purego

package main

// The pure-Go SQLite group: no cgo, so these can share one binary. The
// transport-floor targets (no database) live here too.
import (
	_ "github.com/sqlbench/sqlbench/floor/wire"
	_ "github.com/sqlbench/sqlbench/targets/modernc"
	_ "github.com/sqlbench/sqlbench/targets/ncruces"
	_ "github.com/sqlbench/sqlbench/targets/zombiezen"
)
