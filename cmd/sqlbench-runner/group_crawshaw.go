//go:build sqlbench_crawshaw

package main

import _ "github.com/sqlbench/sqlbench/targets/crawshaw" // cgo SQLite, alone in its binary
