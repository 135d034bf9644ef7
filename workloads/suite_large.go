package workloads

import (
	"strconv"

	"github.com/sqlbench/sqlbench/bench"
)

// The large test: 10,000 users (times --scale) whose email column holds N
// bytes of text, written and read back, as the published program has at
// every size: N = 2,000, 4,000, 8,000, and N = 50,000, 100,000, 200,000
// (2 GB of emails in the table, and in the runner's slice of structs, at
// the largest and --scale 1).
func suiteLarge() []bench.Workload {
	var ws []bench.Workload
	for _, size := range []int{2_000, 4_000, 8_000, 50_000, 100_000, 200_000} {
		const rows = 10_000
		key := "size=" + strconv.Itoa(size)
		ws = append(ws,
			bench.Workload{
				Name: "SuiteLargeInsert", Whole: true, Keys: key, Ops: rows, Unit: "rows",
				Describe: func(d bench.Dialect) string {
					return "`" + suiteInsert(d, "users", suiteUserCols()) + "` with a " + strconv.Itoa(size) +
						"-byte email of a's, every user's made (strings.Repeat) at the start of the timed region and " +
						"kept until the insert ends, as the published test makes all its users after starting its " +
						"clock and before it begins its transaction; through one statement prepared in one " +
						"transaction, " + strconv.Itoa(rows) +
						" rows, commit timed; tables recreated before each run" + suiteWholeInsertNote
				},
				Setup:    suiteNoSetup,
				Teardown: suiteDrop,
				Begin: func(e bench.Env) (bench.Run, error) {
					r, err := suiteInsertUsers(largeUsers(size))(e)
					r.BytesPerOp = float64(size)
					return r, err
				},
			},
			bench.Workload{
				Name: "SuiteLargeQuery", Keys: key, Ops: 5, Unit: "queries", ScaledData: true,
				Describe: func(d bench.Dialect) string {
					return "`" + suiteUsersQuery(d) + "` reading " + strconv.Itoa(rows) +
						" users (times --scale) with " +
						strconv.Itoa(size) + "-byte emails in one query into a slice of structs, every row checked " +
						"after the query, clock paused"
				},
				Setup: suiteSetup(func(e bench.Env) error {
					return suiteFillUsers(e, e.Scaled(rows), largeUsers(size))
				}),
				Teardown: suiteDrop,
				Begin:    suiteReadUsers(rows, largeUsers(size), false),
			})
	}
	return ws
}
