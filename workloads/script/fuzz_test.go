package script

import (
	"errors"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// FuzzParse: whatever the text, Parse returns a script or an *Error naming
// a line of the file, never panics; a parsed script's statements have one
// placeholder per parameter in every dialect, and its expressions evaluate
// or fail without panicking.
func FuzzParse(f *testing.F) {
	f.Add(tpcb)
	f.Add("\\set x random_zipfian(1, 10, 1.5)\n\\sleep :x ms\nSELECT :x::int, $$:x$$;")
	f.Add("SELECT '")
	f.Add("/* ; */ SELECT 1; -- ;\n\\set y -(-(-1)) % 0\nSELECT :y")
	f.Fuzz(func(t *testing.T, text string) {
		sc, err := Parse("f.sql", text, 1)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || se.Line < 1 || se.Line > 1+countLines(text) {
				t.Fatalf("error %v is not an *Error on a line of the file", err)
			}
			return
		}
		for _, st := range sc.Stmts {
			pg := st.Text(bench.DialectOf(bench.Postgres).Param)
			if st.Params() > 0 && len(pg) == 0 {
				t.Fatalf("statement %q lost its text", st.SQL)
			}
		}
		vals := make([]Value, sc.Vars())
		r := newRand(1, 1)
		for _, c := range sc.Commands {
			if c.Kind == CmdSet {
				if v, err := c.Expr.Eval(vals, r); err == nil {
					vals[c.Slot] = v
				}
			}
		}
	})
}

func countLines(s string) int {
	n := 0
	for i := range len(s) {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}
