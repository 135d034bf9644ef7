package workloads

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// The large test: 10,000 users (times --scale) whose email column holds N
// bytes of text, written and read back, as the published program has at
// every size: N = 2,000, 4,000, 8,000, and N = 50,000, 100,000, 200,000
// (2 GB of emails in the table, and in the runner's slice of structs, at
// the largest and --scale 1).
func suiteLarge() []bench.Workload {
	var ws []bench.Workload
	var before []string // the program's large tests of one run before this size's, each an insert and a read
	for _, size := range []int{2_000, 4_000, 8_000, 50_000, 100_000, 200_000} {
		const rows = 10_000
		key := "size=" + strconv.Itoa(size)
		// The program at the published commit runs its 50, 100 and 200 KB
		// tests in that order in one process (bench.Workload.Follows).
		follows := slices.Clone(before)
		if size >= 50_000 {
			before = append(before, "SuiteLargeQuery/"+key)
		}
		ws = append(ws,
			bench.Workload{
				Name: "SuiteLargeInsert", Whole: true, Keys: key, Ops: rows, Unit: "rows", Follows: follows,
				Describe: func(d bench.Dialect) string {
					return "`" + suiteInsert(d, "users", suiteUserCols()) + "` with a " + strconv.Itoa(size) +
						"-byte email of a's, every user's made (strings.Repeat) at the start of the timed region and " +
						"kept until the insert ends, as the published test makes all its users after starting its " +
						"clock and before it begins its transaction; through one statement prepared in one " +
						"transaction, " + strconv.Itoa(rows) +
						" rows, commit timed; each run on a new database file (SQLite), as the published test " +
						"removes its files first, with no collection before the clock" + largeFollowsNote(follows) +
						suiteWholeInsertNote
				},
				Setup:    suiteNoSetup,
				Teardown: suiteDrop,
				Begin: func(e bench.Env) (bench.Run, error) {
					r, err := suiteInsertUsers(largeUsers(size))(e)
					r.BytesPerOp = float64(size)
					r.Uncollected = true // the program's clock starts with no collection
					return r, err
				},
			},
			bench.Workload{
				Name: "SuiteLargeQuery", Keys: key, Ops: 1, Unit: "queries", ScaledData: true, Follows: follows,
				SetupRuns: "SuiteLargeInsert/" + key,
				Describe: func(d bench.Dialect) string {
					return "`" + suiteUsersQuery(d) + "` reading " + strconv.Itoa(rows) +
						" users (times --scale) with " +
						strconv.Itoa(size) + "-byte emails in one query into a slice of structs, every row checked " +
						"after the query, clock paused; one query a run, right after the run's own untimed insert " +
						"of the users as the large insert makes them, on a new database file (SQLite), with no " +
						"collection between (the heap and collector pacing the insert left), as the published " +
						"test reads once after its insert in one process" + largeFollowsNote(follows)
				},
				Setup:    largeInsertFill(size, rows),
				Teardown: suiteDrop,
				Begin: func(e bench.Env) (bench.Run, error) {
					r, err := suiteReadUsers(rows, largeUsers(size), false)(e)
					r.Uncollected = true
					return r, err
				},
			})
	}
	return ws
}

// largeInsertFill returns the large read's Setup: the large insert's run
// (SuiteLargeInsert: every user made with its own email, all kept until
// the commit, one prepared statement in one transaction), untimed, of
// rows users (times --scale), as the published benchLarge inserts before
// it reads. What the insert made is left to the collector, as the
// program leaves it; the run's End, which reads the table back to check
// it (the program does not), runs only to roll back a failed insert: the
// read checks every row.
func largeInsertFill(size, rows int) func(bench.Env) error {
	return func(e bench.Env) error {
		e.Warm, e.N = 0, e.Scaled(rows)
		r, err := suiteInsertUsers(largeUsers(size))(e)
		if err != nil {
			return err
		}
		r.Uncollected = true // in the heap the tests before left, as the program's insert
		if _, err := bench.Measure(r, 0, e.N, bench.NewLatencyHistogram()); err != nil {
			if r.End != nil {
				r.End()
			}
			return fmt.Errorf("insert: %w", err)
		}
		return nil
	}
}

// largeFollowsNote is the part of a large test's description that says
// which of the program's tests run before it in its runner (Follows).
func largeFollowsNote(follows []string) string {
	if len(follows) == 0 {
		return ""
	}
	kb := make([]string, len(follows))
	for i, id := range follows {
		_, size, _ := strings.Cut(id, "size=")
		n, _ := strconv.Atoi(size)
		kb[i] = strconv.Itoa(n/1000) + " KB"
	}
	return "; each run after the published program's " + strings.Join(kb, " and ") + " tests (insert and read, " +
		"each on a new file at the cell's path), untimed in the same runner with the heap unsettled, as the " +
		"program runs them before this one in its process (--preceding-tests none: from a settled heap)"
}
