//go:build sqlbench_mattn

package main

import _ "github.com/sqlbench/sqlbench/targets/mattn" // cgo SQLite, alone in its binary
