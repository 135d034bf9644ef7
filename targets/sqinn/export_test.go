package sqinn

import "github.com/sqlbench/sqlbench/bench"

// Calls returns how many requests of each kind the sqinn connection c has
// sent, by sqinn-go method name, for the tests of the call pattern.
func Calls(c bench.Conn) map[string]int64 {
	cc := c.(*conn)
	m := map[string]int64{}
	for k := range numCalls {
		if n := cc.sq.calls[k]; n > 0 {
			m[k.String()] = n
		}
	}
	return m
}
