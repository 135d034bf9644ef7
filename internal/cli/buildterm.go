package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/session"
)

// buildTerm is a dry run's part for the runners a session would build
// before its first run: those the cache lacks for the current source.
type buildTerm struct {
	// runners counts them; took is their estimated time, known when the
	// cache records the last build of each (launcher.Estimate).
	runners int
	took    time.Duration
	known   bool
	// variants counts the variant runners, built or found in the cache
	// only once their module graph is made: not estimated.
	variants int
}

// runnerBuilds looks up, without building, the runners a session of plan p
// would build first (session.RunnerBuilds) and what the cache's records of
// their last builds say they take, at the batch's default width.
func runnerBuilds(cfg *session.Config, p *session.Plan, env Env) buildTerm {
	jobs, variants, err := session.RunnerBuilds(context.Background(), cfg, p, env.Dir)
	if err != nil {
		return buildTerm{} // the session says why it cannot build; nothing to estimate
	}
	t := buildTerm{runners: len(jobs), variants: variants}
	if len(jobs) > 0 {
		t.took, t.known = launcher.Estimate(cfg.Cache, jobs, launcher.DefaultJobs)
	}
	return t
}

// clause is the term as the estimate's sentence ends with it: "" when
// nothing is built.
func (t buildTerm) clause() string {
	s := ""
	switch {
	case t.runners > 0 && t.known:
		s = fmt.Sprintf(" + %s building %s the cache lacks for this source (one-time; from their last builds here)",
			formatEstimate(t.took), countRunners(t.runners, ""))
	case t.runners > 0:
		s = fmt.Sprintf("; first %s the cache lacks for this source %s built (one-time; no build of them is recorded in "+
			"the cache to estimate from, not counted)", countRunners(t.runners, ""), isAre(t.runners))
	}
	if t.variants > 0 {
		s += fmt.Sprintf("; %s %s built or found in the cache first (not counted)", countRunners(t.variants, "variant "),
			isAre(t.variants))
	}
	return s
}

// counted is what the term adds to the estimated total.
func (t buildTerm) counted() time.Duration {
	if t.known {
		return t.took
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
