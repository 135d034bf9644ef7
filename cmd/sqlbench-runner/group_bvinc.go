//go:build sqlbench_bvinc

package main

import _ "github.com/sqlbench/sqlbench/targets/bvinc" // cgo SQLite bundled, alone in its binary
