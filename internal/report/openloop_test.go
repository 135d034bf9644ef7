package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestOpenLoopSeriesCharted: the time series an open-loop session records
// (series-K configuration lines) become two line charts per cell in the
// HTML report, one line per run, a point per interval, a run's slices laid
// end to end; a session without one has no open-loop section.
func TestOpenLoopSeriesCharted(t *testing.T) {
	const name = "Script/db=postgres/driver=pgx/api=sql/net=tcp"
	cfg := []Config{
		{Key: "rate", Value: "300/s"},
		{Key: "series-2", Value: name + ": t=1s ops/s=290.5 p50=3ms p99=20ms max=30ms lag=1ms late=0 skipped=0 | " +
			"t=2s ops/s=310 p50=3ms p99=1.2s max=1.5s lag=1ms late=3 skipped=9"},
		{Key: "series-1", Value: name + ": t=1s ops/s=300 p50=3ms p99=25ms max=30ms lag=1ms late=0 skipped=0 | " +
			"t=500ms ops/s=300 p50=3ms p99=974µs max=30ms lag=1ms late=0 skipped=0"},
		{Key: "series-3", Value: "not a series"},
	}
	cells := func(cfg []Config) []*Cell { return []*Cell{{Summary: Summary{Config: cfg}}} }
	runs := openLoopRuns(append(cells(cfg), cells(cfg)...))
	if len(runs) != 2 || runs[0].name != name {
		t.Fatalf("runs %+v, want series-1 and series-2 of %s", runs, name)
	}
	if got := runs[0].t; len(got) != 2 || got[1] != 1.5 {
		t.Errorf("series-1 times %v, want [1 1.5]: its second slice after its first", got)
	}
	if got := runs[1].p99Millis; got[1] != 1200 {
		t.Errorf("series-2 p99 %v ms, want 1200 in its second interval", got)
	}
	charts := openLoopCharts(cells(cfg))
	if len(charts) != 2 || charts[0].Points() != 4 || len(charts[0].Lines) != 2 {
		t.Fatalf("%d charts, want 2 of 2 runs, 4 points each", len(charts))
	}
	var b bytes.Buffer
	if err := HTML(&b, &Report{Cells: cells(cfg)}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `id="open-loop-1-p99" data-points="4"`) {
		t.Error("the HTML report has no open-loop p99 chart")
	}
	b.Reset()
	if err := HTML(&b, &Report{Cells: cells(cfg[:1])}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "open-loop") {
		t.Error("an open-loop section without a series")
	}
}
