package native

import (
	"slices"
	"testing"
)

// callStmt records the calls made on a statement; the methods the test
// does not reach are the nil embedded interface's.
type callStmt struct {
	Stmt
	calls []string
}

func (s *callStmt) Bind(args []any) error {
	s.calls = append(s.calls, "bind")
	return nil
}
func (s *callStmt) Step() (bool, error)  { s.calls = append(s.calls, "step"); return false, nil }
func (s *callStmt) Reset() error         { s.calls = append(s.calls, "reset"); return nil }
func (s *callStmt) ClearBindings() error { s.calls = append(s.calls, "clear"); return nil }

// TestExecBindsStepsAndResets: a prepared statement's execution is the
// published programs' per-row calls, bind, step and reset, with no
// clearing of the bindings between rows; the bindings are cleared only
// before an execution that binds fewer arguments than the last.
func TestExecBindsStepsAndResets(t *testing.T) {
	s := &callStmt{}
	p := &stmt{s: s}
	for _, args := range [][]any{{1, "a"}, {2, "b"}, {3}, {4}} {
		if err := p.Exec(args...); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"bind", "step", "reset", "bind", "step", "reset", "clear", "bind", "step", "reset", "bind", "step",
		"reset"}
	if !slices.Equal(s.calls, want) {
		t.Errorf("calls %v, want %v", s.calls, want)
	}
}
