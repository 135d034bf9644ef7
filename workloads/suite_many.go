package workloads

import (
	"strconv"

	"github.com/sqlbench/sqlbench/bench"
)

// The many test: a small users table read whole again and again (the N+1
// select pattern): N = 10, 100, 1,000 users, 1,000 queries.
func suiteMany() []bench.Workload {
	var ws []bench.Workload
	for _, n := range []int{10, 100, 1000} {
		ws = append(ws, bench.Workload{
			Name: "SuiteMany", Keys: "n=" + strconv.Itoa(n), Ops: 1000, Unit: "queries",
			Describe: func(d bench.Dialect) string {
				return "`" + suiteUsersQuery(d) + "` reading all " + strconv.Itoa(n) +
					" users, unprepared (crawshaw, zombiezen: through the library's statement cache, as published), " +
					"into a slice of structs, the count checked in the clock, every row after the query, clock paused" +
					suiteWholeReadNote
			},
			Setup: suiteSetup(func(e bench.Env) error {
				return suiteFillUsers(e, n, simpleUsers())
			}),
			Teardown: suiteDrop,
			Begin:    suiteReadUsers(n, simpleUsers(), true),
		})
	}
	return ws
}
