// What the declare step (Session.declare) asks the runners: their hello,
// declaring what they link and implement, checked against the catalogue,
// and their targets' configuration lines.

package session

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/targets"
)

// ErrRunsNone marks, in the skips Declarations returns, a target that its
// runner links as the catalogue describes but that runs none of the
// selected workloads: nothing is wrong, there is just nothing for it to do.
var ErrRunsNone = errors.New("none of the selected workloads runs on it, by its runner's declaration (hello)")

// hello says hello to the runner of group, starting it if needed, and
// returns its declaration of what it implements.
func (s *Session) hello(ctx context.Context, group string) (protocol.Hello, error) {
	reply, err := s.do(ctx, group, protocol.Request{Verb: protocol.VerbHello})
	if err == nil && reply.Fail != "" {
		err = errors.New(reply.Fail)
	}
	if err != nil {
		return protocol.Hello{}, fmt.Errorf("hello to runner %s: %w", group, err)
	}
	h, err := protocol.ParseHello(reply.Lines)
	if err != nil {
		return protocol.Hello{}, fmt.Errorf("runner %s: %w", group, err)
	}
	return h, nil
}

// declarations says hello to the runner of every group of ts and returns
// the declarations by group, for Placement.Runner. A target is returned in
// skipped, with the reason, when its runner cannot answer, does not link it,
// or declares capabilities other than the catalogue's (CheckHello); and,
// with a reason that wraps ErrRunsNone, when it runs none of ws.
func (s *Session) declarations(ctx context.Context, ws []bench.Workload, ts []targets.Spec) (
	byGroup map[string]protocol.Hello, skipped map[string]error) {
	byGroup, skipped = map[string]protocol.Hello{}, map[string]error{}
	failed := map[string]error{}
	for _, t := range ts {
		h, ok := byGroup[t.Group]
		err := failed[t.Group]
		if !ok && err == nil {
			if h, err = s.hello(ctx, t.Group); err != nil {
				failed[t.Group] = err
			} else {
				byGroup[t.Group] = h
			}
		}
		if err == nil {
			err = CheckHello(h, t)
		}
		if err == nil && !slices.ContainsFunc(ws, Placement{Target: t, Runner: h}.Runs) {
			err = ErrRunsNone
		}
		if err != nil {
			skipped[t.Name] = err
		}
	}
	return byGroup, skipped
}

// CheckHello compares a runner's declaration h of catalogue target t with
// the catalogue: it returns nil when the runner links t and declares
// exactly the capabilities the catalogue lists for it, else an error
// saying how they differ.
func CheckHello(h protocol.Hello, t targets.Spec) error {
	caps, ok := h.Targets[t.Opener()]
	if !ok {
		names := h.TargetNames()
		linked := strings.Join(names, ",")
		if len(names) == 0 {
			linked = "none"
		}
		return fmt.Errorf("its runner (group %s) does not link it (it links %s)", t.Group, linked)
	}
	want := slices.Clone(t.Caps)
	slices.Sort(want)
	if !slices.Equal(caps, want) {
		return fmt.Errorf("its runner (group %s) declares the capabilities %s, the catalogue lists %s", t.Group,
			protocol.CapList(caps), protocol.CapList(want))
	}
	return nil
}

// targetInfo asks the runner of each target for its configuration lines
// (module and library versions; a Go runner is told the module of the
// target's driver from the catalogue). Targets whose runner cannot answer
// are returned in skipped with the reason.
func (s *Session) targetInfo(ctx context.Context, ts []targets.Spec) (lines []string, skipped map[string]error) {
	skipped = map[string]error{}
	for _, t := range ts {
		req := protocol.Request{Verb: protocol.VerbInfo, Target: t.Opener(), DB: string(t.DB),
			Location: s.dbs.location(t, s.dbs.netsFor(t)[0], t.Name+"-info"), SQLite: s.cfg.SQLite}
		if !t.JVM {
			req.Module = t.Module
		}
		reply, err := s.do(ctx, t.Group, req)
		if err == nil && reply.Fail != "" {
			err = errors.New(reply.Fail)
		}
		if err != nil {
			skipped[t.Name] = err
			continue
		}
		for _, l := range reply.Lines {
			// A variant's runner names its lines by the catalogue
			// target it is a version of; the session names them by the
			// variant, so that they stand beside the target's own.
			if rest, ok := strings.CutPrefix(l, t.Opener()+"-"); ok && t.Base != "" {
				l = t.Name + "-" + rest
			}
			lines = append(lines, l)
		}
		if t.Spin > 0 {
			lines = append(lines,
				fmt.Sprintf("%s-spin: %d ns busy spin after each operation, inside the clock", t.Name, t.Spin))
		}
	}
	return lines, skipped
}
