package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// reproduceDryRun prints what reproducing the study opts names would run —
// its sources, the session's cells, passes and estimated time (run
// --dry-run's preview), and what of the study will not run here — without
// building, starting or writing anything. It returns the estimate and how
// many cells it lacks.
func reproduceDryRun(opts studyOptions, env Env) (time.Duration, int, error) {
	p, err := newStudyPlan(opts, env.session())
	if err != nil {
		return 0, 0, err
	}
	w := env.Stdout
	s := p.Study
	fmt.Fprint(w, textlayout.Wrap(fmt.Sprintf("%s: %s", s.ID, s.Title), textlayout.Width, "  "))
	fmt.Fprint(w, textlayout.Wrap("published: "+s.Source.URL, textlayout.Width, "  "))
	cfg := &p.Config
	d, budgeted := cfg.Design()
	if budgeted { // the plan and estimate of the first stage, then the design's (as run --dry-run)
		first := *cfg
		first.Count = d.Sizes[0]
		cfg = &first
	}
	fmt.Fprintf(w, "%d comparisons; scale %g, %d runs per cell\n", len(s.Comparisons()), cfg.Scale, cfg.Count)
	var total time.Duration
	unknown := 0
	if p.Runnable() {
		// The builds' copies are prepared (downloaded and edited, not
		// built): the preview plans the session, which names them.
		if err := prepareBuilds(context.Background(), p, env.session().Log); err != nil {
			return 0, 0, err
		}
		if total, unknown, err = preview(cfg, env); err != nil {
			return 0, 0, err
		}
		if budgeted {
			fmt.Fprint(w, textlayout.Wrap(d.String(), textlayout.Width, "  "))
			fmt.Fprint(w, textlayout.Wrap(d.Estimate(total), textlayout.Width, "  "))
		}
	} else {
		fmt.Fprintln(w, "nothing of the study can run here")
	}
	for _, t := range p.Builds {
		fmt.Fprint(w, textlayout.Wrap(buildLine(t), textlayout.Width, "  "))
	}
	for _, g := range p.Gaps {
		fmt.Fprint(w, textlayout.Wrap(fmt.Sprintf("not reproduced: %s: %s", g.What, g.Why), textlayout.Width, "  "))
	}
	return total, unknown, nil
}

// reproduceAllDryRun prints every study's dry run, then the sum of their
// estimates.
func reproduceAllDryRun(opts studyOptions, ids []string, env Env) error {
	var total time.Duration
	var lacking []string
	unknown := 0
	for _, id := range ids {
		o := opts
		o.Study = id
		fmt.Fprintf(env.Stdout, "\n=== %s\n", id)
		d, n, err := reproduceDryRun(o, env)
		if err != nil {
			return err
		}
		total += d
		if n > 0 {
			lacking = append(lacking, id)
			unknown += n
		}
	}
	fmt.Fprint(env.Stdout, "\n"+textlayout.Wrap(allStudiesTotal(total, unknown, lacking), textlayout.Width, "  "))
	return nil
}

// allStudiesTotal is the last line of reproduce all --dry-run: the sum of
// the studies' timed estimates, or what it lacks: unknown cells, in the
// studies lacking, have no results here to estimate from.
func allStudiesTotal(total time.Duration, unknown int, lacking []string) string {
	const how = "run `sqlbench run --quick --workloads all` once to estimate them"
	switch {
	case unknown == 0:
		return fmt.Sprintf("every study: %s timed", formatEstimate(total))
	case total == 0:
		return fmt.Sprintf("every study: no estimate: no results here for any of the %d cells (of %s); %s",
			unknown, strings.Join(lacking, ", "), how)
	}
	return fmt.Sprintf("every study: at least %s timed; not counted: %d cells with no results here to estimate from "+
		"(of %s); %s", formatEstimate(total), unknown, strings.Join(lacking, ", "), how)
}
