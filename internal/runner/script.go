package runner

import (
	"context"
	"fmt"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/workloads/script"
)

// lookupWorkload returns the workload a run request names: a registered
// one, or the script workload built from the request's spec.
func lookupWorkload(req protocol.Request) (bench.Workload, error) {
	if req.Workload == script.WorkloadName {
		set, err := compileScript(req)
		if err != nil {
			return bench.Workload{}, err
		}
		return set.Workload(), nil
	}
	w, found := bench.LookupWorkload(req.Workload)
	if !found {
		return w, fmt.Errorf("unknown workload %q", req.Workload)
	}
	return w, nil
}

// compileScript parses the script spec a request carries.
func compileScript(req protocol.Request) (*script.Set, error) {
	if req.Script == "" {
		return nil, fmt.Errorf("workload %s needs its spec (script=)", script.WorkloadName)
	}
	spec, err := script.Decode(req.Script)
	if err != nil {
		return nil, err
	}
	return script.Compile(spec)
}

// check answers a check request: the script's verification pass on a
// connection of its own, in a namespace of the request's scope, one
// script-check line per statement.
func (s *Loop) check(ctx context.Context, req protocol.Request) error {
	set, err := compileScript(req)
	if err != nil {
		return err
	}
	e, err := s.open(ctx, req)
	if err != nil {
		return err
	}
	defer closeEnv(e)
	if e.Conn == nil {
		return fmt.Errorf("target %q speaks no SQL", req.Target)
	}
	d, err := script.Check(set, e)
	if err != nil {
		return err
	}
	for _, l := range d.Lines() {
		fmt.Fprintln(s.out, l)
	}
	return nil
}
