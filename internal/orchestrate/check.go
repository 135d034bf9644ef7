package orchestrate

import (
	"context"
	"errors"

	"github.com/sqlbench/sqlbench/runner"
	"github.com/sqlbench/sqlbench/targets"
	"github.com/sqlbench/sqlbench/workloads/script"
)

// CheckScript runs the script workload's verification pass (the check
// request) on target t at loc, in a namespace of scope's own, and returns
// what it saw of every statement.
func (s *Session) CheckScript(ctx context.Context, t targets.Spec, loc runner.Location, scope string, scale float64) (*script.Digest, error) {
	req := runner.Request{Verb: runner.VerbCheck, Target: t.Name, DB: string(t.DB), Scope: scope,
		Location: loc, SQLite: s.SQLite, Script: s.Script, Scale: scale}
	reply, err := s.do(ctx, t.Group, req)
	if err != nil {
		return nil, err
	}
	if reply.Fail != "" {
		return nil, errors.New(reply.Fail)
	}
	return script.ParseDigest(reply.Lines)
}
