package workloads

import (
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// The rows of each test as the published program (cvilsmeier/go-sqlite-bench
// at 91b73d7, app/app.go) makes them: ids from 1, created a fixed step apart
// from a base time (2023-10-01 10:00, the program's local time; UTC here),
// the emails and flags of its literals.
//
//   - simple, many: created a minute apart from the base, email
//     user%08d@example.com, every user active;
//   - complex: users, articles and comments created id minutes after the
//     base, email user%08d@example.com, every other user active (the even
//     ids), article text "article text", comment text "comment text";
//   - large: created a second apart from the base, every email N bytes of
//     "a", every user active;
//   - concurrent: created a second apart from the base, email
//     user%d@example.com, every user active;
//   - real: its own (suite_real.go).
const (
	// suiteBase is the published base time in milliseconds.
	suiteBase   = 1_696_154_400_000
	suiteMinute = 60_000
	suiteSecond = 1_000
	// The complex test's texts.
	complexArticleText = "article text"
	complexCommentText = "comment text"
)

// userShape is how one published test makes its users.
type userShape struct {
	first, step int64 // created of user 1, and from one user to the next, in ms
	email       func(id int64) string
	active      func(id int64) bool
	// size is the large test's email length (every email that many a's),
	// 0 in the other tests.
	size int
}

// user returns the columns of user id.
func (s userShape) user(id int64) (created int64, email string, active bool) {
	return s.first + (id-1)*s.step, s.email(id), s.active(id)
}

func paddedEmail(id int64) string { return fmt.Sprintf("user%08d@example.com", id) }
func allActive(int64) bool        { return true }

// simpleUsers is the simple and many tests' users.
func simpleUsers() userShape {
	return userShape{first: suiteBase, step: suiteMinute, email: paddedEmail, active: allActive}
}

// complexUsers is the complex test's users.
func complexUsers() userShape {
	return userShape{first: suiteBase + suiteMinute, step: suiteMinute, email: paddedEmail,
		active: func(id int64) bool { return id%2 == 0 }}
}

// largeUsers is the large test's users, emails of size bytes (the one
// string returned for every id; the insert makes each user's its own).
func largeUsers(size int) userShape {
	a := strings.Repeat("a", size)
	return userShape{first: suiteBase, step: suiteSecond, email: func(int64) string { return a }, active: allActive,
		size: size}
}

// concurrentUsers is the concurrent test's users.
func concurrentUsers() userShape {
	return userShape{first: suiteBase, step: suiteSecond,
		email: func(id int64) string { return fmt.Sprintf("user%d@example.com", id) }, active: allActive}
}

// suiteActive is the value an insert binds for active: a bool on SQLite,
// as the published program binds it, 0 or 1 on the servers (whose drivers
// need not turn a bool into an integer column's value).
func suiteActive(d bench.Dialect, b bool) any {
	if d.DB == bench.SQLite {
		return b
	}
	return boolInt(b)
}

// suiteMustEqual is the published program's MustBeEqual, as its timed
// regions call it: both values boxed into interfaces that escape (into
// the message of a mismatch), compared as interfaces.
func suiteMustEqual(want, have any) error {
	if want != have {
		return fmt.Errorf("must be equal but was different: want %#v, have %#v", want, have)
	}
	return nil
}
