//go:build sqlbench_eatonphil

package main

import _ "github.com/sqlbench/sqlbench/targets/eatonphil" // cgo SQLite bundled, alone in its binary
