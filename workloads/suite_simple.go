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
				return "`" + suiteInsert(d, "users", suiteUserCols()) +
					"` through one statement prepared in one transaction, " +
					"one user (as published: created a minute apart, email user%08d@example.com, active; bound as " +
					"int, int64, string, bool) per operation, commit timed; the suite's tables (" + describeTypes(d) +
					") recreated before each run, on a new database file (SQLite)" + suiteTypedBindNote +
					suiteWholeInsertNote
			},
			Setup:    suiteNoSetup,
			Teardown: suiteDrop,
			Begin:    suiteInsertUsers(simpleUsers()),
		},
		{
			Name: "SuiteSimpleQuery", Ops: 5, Unit: "queries", ScaledData: true,
			Describe: func(d bench.Dialect) string {
				return "`" + suiteUsersQuery(d) + "` reading all 1,000,000 users (times --scale) in one query into a " +
					"slice of structs, the count checked in the clock, every row after the query, clock paused" +
					suiteWholeReadNote
			},
			Setup: suiteSetup(func(e bench.Env) error {
				return suiteFillUsers(e, e.Scaled(suiteSimpleUsers), simpleUsers())
			}),
			Teardown: suiteDrop,
			Begin:    suiteReadUsers(suiteSimpleUsers, simpleUsers(), false),
		},
	}
}

// suiteReadUsers returns the Begin of a workload whose operation reads the
// whole users table (rows × --scale users of shape, or exactly rows when
// fixed) in id order into a slice of structs and checks the count inside
// the clock, as published (MustBeEqual); every row is checked after the
// query, the clock paused.
func suiteReadUsers(rows int, shape userShape, fixed bool) func(e bench.Env) (bench.Run, error) {
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
			if err := suiteMustEqual(len(got), int(want)); err != nil {
				return fmt.Errorf("read users: %w", err)
			}
			t.Stop()
			defer t.Start()
			return verifyUserRecs(got, want, shape)
		}}
		if shape.size > 0 {
			r.BytesPerOp = float64(want) * float64(shape.size)
		}
		return r, nil
	}
}

// errRows wraps a count mismatch of table base.
func errRows(base string, got, want int64) error {
	return fmt.Errorf("%s holds %d rows, want %d", base, got, want)
}

// suiteInsertUsers begins a run that recreates the suite's tables and
// inserts one user of shape per operation through one statement prepared
// in one transaction, commits in the timed region, and then reads every
// user back. The run's timed region is the published test's: it begins the
// transaction and prepares the insert (Run.Start), executes it per user
// with the values the published program binds (id an int, created its
// integer, made in the timed loop, the email, active a bool on SQLite;
// typed binds where its adapter binds so: suiteInserter),
// closes it and commits (Finish). The users are made before the clock
// starts, as the published simple test does; the large test's (shape.size
// > 0) emails are each made (strings.Repeat) at the start of the timed
// region and kept until the insert ends, as the published large test makes
// its users after starting its clock, before it begins the transaction.
func suiteInsertUsers(shape userShape) func(bench.Env) (bench.Run, error) {
	return func(e bench.Env) (bench.Run, error) {
		if err := suiteCreate(e); err != nil {
			return bench.Run{}, err
		}
		users := suiteUserRecs(e.Warm+e.N, shape)
		d, c, q, t := e.Dialect, e.Conn, suiteInsert(e.Dialect, "users", suiteUserCols()),
			&suiteTxInsert{calls: suiteCalls(e.Conn)}
		makeEmails := func() {
			if shape.size > 0 {
				for i := range users {
					users[i].email = strings.Repeat("a", shape.size)
				}
			}
		}
		end := func() error {
			if !t.done {
				t.abort()
				return nil // the run failed already
			}
			return suiteVerifyUsers(e, int64(e.Warm+e.N), shape)
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
		var in suiteInserter
		return bench.Run{
			Start: func() error {
				makeEmails()
				if err := t.begin(c, q); err != nil {
					return err
				}
				in = newSuiteInserter(t.stmts[0], d)
				return nil
			},
			Op: func(i int) error {
				u := &users[i]
				return in.user(u.id, u.created.UnixMilli(), u.email, u.active)
			},
			Finish: t.commit,
			End:    end,
		}, nil
	}
}

// suiteUserRecs returns users 1..n of shape.
func suiteUserRecs(n int, shape userShape) []userRec {
	users := make([]userRec, n)
	for i := range users {
		id := int64(i + 1)
		created, email, active := shape.user(id)
		users[i] = userRec{id: id, created: time.UnixMilli(created), email: email, active: active}
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
