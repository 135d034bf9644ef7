package workloads

import (
	"fmt"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// The simple test: insert 1,000,000 users in one transaction, then read
// them all back in id order.
const suiteSimpleUsers = 1_000_000

func suiteSimple() []bench.Workload {
	return []bench.Workload{
		{
			Name: "SuiteSimpleInsert", Whole: true, Ops: suiteSimpleUsers, Unit: "rows",
			Describe: func(d bench.Dialect) string {
				return "`" + suiteInsert(d, "users", suiteUserCols()) + "` through one statement prepared in one transaction, " +
					"one user (24-byte email) per operation, commit timed; the suite's tables (" + describeTypes(d) + ") recreated before each run"
			},
			Setup:    suiteNoSetup,
			Teardown: suiteDrop,
			Begin:    suiteInsertUsers(suiteEmailCol, suiteEmailWidth, false),
		},
		{
			Name: "SuiteSimpleQuery", Ops: 5, Unit: "queries", ScaledData: true,
			Describe: func(d bench.Dialect) string {
				return "`" + suiteUsersQuery(d) + "` reading all 1,000,000 users (times --scale) in one query into a slice of structs, every row checked after the query, clock paused"
			},
			Setup: suiteSetup(func(e bench.Env) error {
				return suiteFillUsers(e, e.Scaled(suiteSimpleUsers), suiteEmailCol, suiteEmailWidth)
			}),
			Teardown: suiteDrop,
			Begin:    suiteReadUsers(suiteSimpleUsers, suiteEmailCol, suiteEmailWidth, false),
		},
	}
}

// suiteReadUsers returns the Begin of a workload whose operation reads the
// whole users table (rows × --scale users, or exactly rows when fixed) in
// id order into a slice of structs; every row is checked after the query,
// the clock paused.
func suiteReadUsers(rows, col, width int, fixed bool) func(e bench.Env) (bench.Run, error) {
	return func(e bench.Env) (bench.Run, error) {
		c, q := e.Conn, suiteUsersQuery(e.Dialect)
		want := int64(rows)
		if !fixed {
			want = int64(e.Scaled(rows))
		}
		s, t := newUserCollect(), &bench.Timer{}
		r := bench.Run{Timer: t, Op: func(int) error {
			err := s.read(c, q)
			got := s.take()
			if err != nil {
				return err
			}
			t.Stop()
			defer t.Start()
			return verifyUserRecs(got, want, col, width)
		}}
		if width > suiteEmailWidth {
			r.BytesPerOp = float64(want) * float64(width)
		}
		return r, nil
	}
}

// errRows wraps a count mismatch of table base.
func errRows(base string, got, want int64) error {
	return fmt.Errorf("%s holds %d rows, want %d", base, got, want)
}

// suiteInsertUsers begins a run that recreates the suite's tables and
// inserts one user per operation (its email drawn from generator column col,
// width bytes) through one statement prepared in one transaction, commits
// in the timed region, and then reads every user back. The run's timed
// region is the published test's: it begins the transaction and prepares
// the insert (Run.Start), executes it per user, closes it and commits
// (Finish). The users are generated before the clock starts, as the
// published suite's simple test does; with emailInClock every user's email
// is made (allocated and filled) at the start of the timed region and kept
// until the insert ends, as the published large test makes all its users
// after starting its clock, before it begins the transaction. The created
// time is turned into its column's integer in the timed loop, as the
// published suite binds it.
func suiteInsertUsers(col, width int, emailInClock bool) func(bench.Env) (bench.Run, error) {
	return func(e bench.Env) (bench.Run, error) {
		if err := suiteCreate(e); err != nil {
			return bench.Run{}, err
		}
		users := suiteUserRecs(e.Warm+e.N, col, width)
		c, q, t := e.Conn, suiteInsert(e.Dialect, "users", suiteUserCols()), &suiteTxInsert{}
		makeEmails := func() {
			if emailInClock {
				for i := range users {
					users[i].email = strings.Clone(users[i].email)
				}
			}
		}
		end := func() error {
			if !t.done {
				t.abort()
				return nil // the run failed already
			}
			return suiteVerifyUsers(e, int64(e.Warm+e.N), col, width)
		}
		if rx, ok := c.(bench.RowsExecer); ok {
			// The published sqinn adapter: BEGIN, one Exec of every
			// user, COMMIT (suite_whole.go).
			var values []any
			return bench.Run{
				Start: func() error { makeEmails(); return t.begin(c) },
				Batch: func(first, n int) error {
					values = suiteUserValues(values[:0], users[first:first+n])
					return suiteExecRows(rx, q, values)
				},
				Finish: t.commit,
				End:    end,
			}, nil
		}
		return bench.Run{
			Start: func() error { makeEmails(); return t.begin(c, q) },
			Op: func(i int) error {
				u := &users[i]
				return t.stmts[0].Exec(u.id, u.created.UnixMilli(), u.email, boolInt(u.active))
			},
			Finish: t.commit,
			End:    end,
		}, nil
	}
}

// suiteUserRecs returns users 1..n as generated, emails from generator
// column col, width bytes.
func suiteUserRecs(n, col, width int) []userRec {
	users := make([]userRec, n)
	for i := range users {
		id := int64(i + 1)
		created, email, active := suiteUser(id, col, width)
		users[i] = userRec{id: id, created: time.UnixMilli(created), email: email, active: active != 0}
	}
	return users
}

// boolInt is the integer column value of b.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
