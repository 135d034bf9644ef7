package session

import (
	"context"
	"errors"

	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/targets"
	"github.com/sqlbench/sqlbench/workloads/script"
)

// checkScript runs the script workload's verification pass (the check
// request) on target t at loc, in a namespace of scope's own, and returns
// what it saw of every statement.
func (s *Session) checkScript(ctx context.Context, t targets.Spec, loc protocol.Location, scope string, scale float64) (
	*script.Digest, error) {
	req := protocol.Request{Verb: protocol.VerbCheck, Target: t.Opener(), DB: string(t.DB), Scope: scope,
		Location: loc, SQLite: s.cfg.SQLite, Script: scriptSpec(s.cfg), Scale: scale}
	reply, err := s.do(ctx, t.Group, req)
	if err != nil {
		return nil, err
	}
	if reply.Fail != "" {
		return nil, errors.New(reply.Fail)
	}
	return script.ParseDigest(reply.Lines)
}
