package targettest

import (
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// SuiteDetectsWrongData checks the suite and sqinn families' verification on target:
// with one row changed after set-up, every reading workload fails, and an
// insert workload whose table is changed after its commit fails in End.
func SuiteDetectsWrongData(t *testing.T, target string, where Where) {
	for _, c := range []struct{ workload, corrupt string }{
		{"SuiteSimpleQuery", "UPDATE %users SET email = 'corrupt' WHERE id = 42"},
		{"SuiteMany/n=100", "UPDATE %users SET active = 0 WHERE id = 42"},
		{"SuiteLargeQuery/size=2000", "UPDATE %users SET created = 1 WHERE id = 1"},
		{"SuiteConcurrent/conns=2", "DELETE FROM %users WHERE id = 42"},
		{"SuiteComplexQuery", "UPDATE %comments SET text = 'corrupt' WHERE id = 42"},
		{"SuiteRealQuery", "UPDATE %comments SET text = 'corrupt' WHERE id = 42"},
		{"SqinnSimpleQuery", "UPDATE %users SET name = 'corrupt' WHERE id = 42"},
		{"SqinnMany/n=100", "UPDATE %cars SET model = 'corrupt' WHERE id = 42"},
		{"SqinnLarge/size=2000", "UPDATE %plants SET name = 'corrupt' WHERE id = 42"},
		{"SqinnConcurrent/goroutines=2", "DELETE FROM %books WHERE id = 42"},
		{"SqinnComplexQuery", "UPDATE %locations SET name = 'corrupt' WHERE id = 'location_0_42_1'"},
	} {
		t.Run(c.workload, func(t *testing.T) {
			w, ok := bench.LookupWorkload(c.workload)
			if !ok {
				t.Fatalf("workload %s not registered", c.workload)
			}
			skipUnless(t, target, where, w)
			e := NewEnv(t, target, where)
			setUp(t, w, e)
			if err := e.Conn.Exec(suiteSQL(e.Dialect, c.corrupt)); err != nil {
				t.Fatal(err)
			}
			e.N = 1
			r, err := w.Begin(e)
			if err != nil {
				t.Fatal(err)
			}
			// A read checks in the clock what the published program checks
			// and every row exactly in End, clock stopped: either may fail.
			_, err = bench.Measure(r, 0, 1, bench.NewLatencyHistogram())
			if r.End != nil {
				if endErr := r.End(); err == nil {
					err = endErr
				}
			}
			named := err != nil && (strings.Contains(err.Error(), "42") || strings.Contains(err.Error(), "user 1:") ||
				strings.HasPrefix(c.corrupt, "DELETE") && strings.Contains(err.Error(), "999 rows"))
			if !named {
				t.Fatalf("%s on %s with a corrupted row: err = %v, want an error naming the row", c.workload, target,
					err)
			}
		})
	}
	t.Run("SuiteSimpleInsert", func(t *testing.T) {
		w, _ := bench.LookupWorkload("SuiteSimpleInsert")
		skipUnless(t, target, where, w)
		e := NewEnv(t, target, where)
		setUp(t, w, e)
		e.N = 100
		r, err := w.Begin(e)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bench.Measure(r, 0, 100, bench.NewLatencyHistogram()); err != nil {
			t.Fatal(err)
		}
		if err := e.Conn.Exec(suiteSQL(e.Dialect, "UPDATE %users SET email = 'corrupt' WHERE id = 42")); err != nil {
			t.Fatal(err)
		}
		if err := r.End(); err == nil || !strings.Contains(err.Error(), "wrong user 42") {
			t.Fatalf(
				"SuiteSimpleInsert on %s with a row changed after the commit: End = %v, want a wrong-user error",
				target,
				err,
			)
		}
	})
}

// SuiteEnforcesForeignKeys checks that the suite's schema enforces its
// foreign keys on target's database: a comment of a missing article is
// refused.
func SuiteEnforcesForeignKeys(t *testing.T, target string, where Where) {
	w, ok := bench.LookupWorkload("SuiteMany/n=10")
	if !ok {
		t.Fatal("workload SuiteMany/n=10 not registered")
	}
	skipUnless(t, target, where, w)
	e := NewEnv(t, target, where)
	setUp(t, w, e)
	ok1 := "INSERT INTO %articles (id, created, userId, text) VALUES (1, 1, 1, 'a')"
	if err := e.Conn.Exec(suiteSQL(e.Dialect, ok1)); err != nil {
		t.Fatalf("an article of an existing user was refused: %v", err)
	}
	bad := "INSERT INTO %comments (id, created, articleId, text) VALUES (1, 1, 999999, 'c')"
	if err := e.Conn.Exec(suiteSQL(e.Dialect, bad)); err == nil {
		t.Fatalf("%s on %s accepted a comment of a missing article: foreign keys are not enforced", bad, target)
	}
}

// suiteSQL replaces %users, %articles and %comments (and the sqinn
// family's tables) with the dialect's table names.
func suiteSQL(d bench.Dialect, q string) string {
	for _, base := range []string{"users", "articles", "comments", "cars", "plants", "books", "locations"} {
		q = strings.ReplaceAll(q, "%"+base, d.Table(base))
	}
	return q
}

// skipUnless skips t unless target runs w, as a session plans it.
func skipUnless(t *testing.T, target string, where Where, w bench.Workload) {
	t.Helper()
	spec := lookup(t, target, where)
	if !spec.Runs(w) {
		t.Skipf("%s does not run %s", target, w.ID())
	}
}
