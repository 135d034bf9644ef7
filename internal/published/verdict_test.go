package published

import (
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/internal/report"
	"github.com/sqlbench/sqlbench/internal/studies"
)

// TestPublishedResolution: the study resolution sets the band about the
// published ratio: a measured ratio 20% off agrees at the default ±30%,
// is undecided where the band's edge falls inside its interval, and
// disagrees where the whole interval lies beyond it.
func TestPublishedResolution(t *testing.T) {
	s, _ := studies.Lookup("sqlbench-2013-win")
	for _, c := range []struct {
		res  float64
		want string
	}{{0, VerdictAgrees}, {0.18, VerdictInconclusive}, {0.1, VerdictDisagrees}} {
		row := Row{Comparison: s.Comparisons()[0], Resolution: c.res}
		row.Published, row.Measured, row.Lo, row.Hi = 1, 1.2, 1.15, 1.25
		row.NumCell = &report.Cell{Summary: report.Summary{OpsRuns: make([]float64, 8)}}
		row.DenCell = row.NumCell
		row.judge(s)
		if row.Verdict != c.want {
			t.Errorf("resolution %g: %s, want %s", c.res, row.Verdict, c.want)
		}
	}
	if got := (&Row{Verdict: VerdictInconclusive, Settle: 40}).VerdictText(); got != "undecided, ~40 runs" {
		t.Errorf("VerdictText = %q", got)
	}
	if !strings.Contains(VerdictNoteAt(0.1), "the resolution ±10%") ||
		!strings.Contains(VerdictNoteAt(0), "the resolution ±30%") {
		t.Errorf("the note does not name the resolution: %q", VerdictNoteAt(0.1))
	}
}
