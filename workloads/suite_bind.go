package workloads

import "github.com/sqlbench/sqlbench/bench"

// suiteTypedBindNote ends the description of an insert that binds through
// suiteInserter.
const suiteTypedBindNote = "; crawshaw, zombiezen: each value bound with the library's typed call (BindInt64, " +
	"BindText, BindBool), as their published adapters"

// suiteInserter inserts the go-sqlite-bench suite's rows through one
// prepared statement, binding as the target's published adapter does:
// where the statement binds with typed calls (bench.BoundExecer: the
// crawshaw and zombiezen adapters call BindInt64, BindText and BindBool,
// then Step and Reset, per row) through them; elsewhere with one Exec of
// the Go values the published program passes (database/sql's Stmt.Exec,
// eaton's Exec, bvinc's Bind): ids as int, created as int64, active as a
// bool on SQLite.
type suiteInserter struct {
	s     bench.Stmt
	typed bench.BoundExecer // nil where s has no typed binds
	d     bench.Dialect
}

// newSuiteInserter returns the inserter of statement s, prepared in
// dialect d.
func newSuiteInserter(s bench.Stmt, d bench.Dialect) suiteInserter {
	typed, _ := s.(bench.BoundExecer)
	return suiteInserter{s: s, typed: typed, d: d}
}

// user inserts a user: id, created, email, active.
func (in suiteInserter) user(id, created int64, email string, active bool) error {
	if b := in.typed; b != nil {
		// BindBool binds 1 or 0, as an int64, in both libraries.
		if err := bindAll(b.BindInt64(1, id), b.BindInt64(2, created), b.BindText(3, email),
			b.BindInt64(4, boolInt(active))); err != nil {
			return err
		}
		return b.ExecBound()
	}
	return in.s.Exec(int(id), created, email, suiteActive(in.d, active))
}

// child inserts an article (parent its user) or a comment (parent its
// article): id, created, parent, text.
func (in suiteInserter) child(id, created, parent int64, text string) error {
	if b := in.typed; b != nil {
		if err := bindAll(b.BindInt64(1, id), b.BindInt64(2, created), b.BindInt64(3, parent),
			b.BindText(4, text)); err != nil {
			return err
		}
		return b.ExecBound()
	}
	return in.s.Exec(int(id), created, int(parent), text)
}
