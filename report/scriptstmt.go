package report

import "strconv"

// StmtKey is the results file's configuration key that names statement n
// (from 1) of a script workload: "script-stmt-N", its value "FILE:LINE SQL".
func StmtKey(n int) string { return "script-stmt-" + strconv.Itoa(n) }
