package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/sqlbench/sqlbench/internal/session"
)

// buildTerm is a dry run's part for the runners a session would build
// before its first run: those the cache lacks for the current source.
type buildTerm session.Builds

// runnerBuilds looks up, without building, the runners a session of plan p
// would build first and what the cache's records of their last builds say
// they take (session.RunnerBuilds).
func runnerBuilds(cfg *session.Config, p *session.Plan, env Env) buildTerm {
	b, err := session.RunnerBuilds(context.Background(), cfg, p, env.Dir)
	if err != nil {
		return buildTerm{} // the session says why it cannot build; nothing to estimate
	}
	return buildTerm(b)
}

// clause is the term as the estimate's sentence ends with it: "" when
// nothing is built.
func (t buildTerm) clause() string {
	s := ""
	switch {
	case t.Runners > 0 && t.Known:
		s = fmt.Sprintf(" + %s building %s the cache lacks for this source (one-time; from their last builds here)",
			formatEstimate(t.Took), countRunners(t.Runners, ""))
	case t.Runners > 0:
		s = fmt.Sprintf(
			"; %s the cache lacks for this source %s built first (one-time; no build of them is recorded in "+
				"the cache to estimate from, not counted)", countRunners(t.Runners, ""), isAre(t.Runners))
	}
	if t.Variants > 0 {
		s += fmt.Sprintf("; %s %s built or found in the cache first (not counted)",
			countRunners(t.Variants, "variant "),
			isAre(t.Variants))
	}
	return s
}

// counted is what the term adds to the estimated total.
func (t buildTerm) counted() time.Duration {
	if t.Known {
		return t.Took
	}
	return 0
}

// countRunners counts n runners of a kind: "1 runner", "2 variant runners".
func countRunners(n int, kind string) string {
	if n == 1 {
		return "1 " + kind + "runner"
	}
	return fmt.Sprintf("%d %srunners", n, kind)
}

// isAre is the verb of n things.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
