package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/session"
)

// unitFiles writes two results files of 6 runs of one cell: ops/s and
// allocs/op the same in both, B/op 20% higher and p99 30% lower in the new
// one, and an extra unit, widgets/op, 50% higher.
func unitFiles(t *testing.T) (old, new string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, bop, p99, widgets float64) string {
		var b strings.Builder
		for i := range 6 {
			j := 1 + 0.001*float64(i) // the same spread in both files
			fmt.Fprintf(&b, "BenchmarkR/db=sqlite/driver=mattn/api=sql 100 %g ns/op %g ops/s %g B/op 19 allocs/op %g "+
				"p99-ns/op %g widgets/op\n",
				1e9/(1000*j), 1000*j, bop*j, p99*j, widgets*j)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	return write("old.txt", 1000, 50000, 10), write("new.txt", 1200, 35000, 15)
}

func TestComparePerUnitThresholds(t *testing.T) {
	old, new := unitFiles(t)
	for _, c := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"compare", old, new}, ExitOK, []string{"ops/s (higher is better)", "B/op (lower is better)",
			"allocs/op", "p99-ns/op (lower is better)", "widgets/op (lower is better)", "+20.00%", "-30.00%",
			"+50.00%"}},
		{[]string{"compare", "--fail-over", "5%", old, new}, ExitOK, nil}, // ops/s did not change
		{[]string{"compare", "--fail-over", "ops/s=5%,B/op=10%", old, new}, ExitPartial,
			[]string{"regression: R/mattn B/op +20.00%"}},
		{[]string{"compare", "--fail-over", "ops/s=5%,B/op=25%", old, new}, ExitOK, nil},
		{[]string{"compare", "--fail-over", "p99=5%", old, new}, ExitOK, nil}, // an improvement
		{[]string{"compare", "--fail-over", "widgets/op=40%", old, new}, ExitPartial, []string{"widgets/op +50.00%"}},
		{[]string{"compare", "--md", "--fail-over", "B/op=10%", "base=" + old, "head=" + new}, ExitPartial,
			[]string{"## sqlbench: base → head", "**1 significant regression(s) beyond the thresholds** (B/op 10%)",
				"<details open><summary>B/op (lower is better): 1 worse, 0 better</summary>",
				"| `R/mattn` | 1,003 n=6 | 1,203 n=6 | **+20.00%** |", "<details><summary>p99-ns/op (lower is " +
					"better): 0 worse, 1 better</summary>", "| 50.12µs n=6 | 35.09µs n=6 | -30.00% |"}},
		{[]string{"compare", "--format", "markdown", old, new}, ExitOK,
			[]string{"| ops/s | higher | 1 | 0 | 0 | 1 |", "| B/op | lower | 1 | 1 | 0 | 0 | 0 | 0 | +20.00% |"}},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), c.args, fakeEnv(&out, &errb))
		if code != c.code {
			t.Errorf("sqlbench %s: exit %d, want %d\n%s%s", strings.Join(c.args, " "), code, c.code, out.String(),
				errb.String())
		}
		for _, w := range c.want {
			if !strings.Contains(out.String()+errb.String(), w) {
				t.Errorf("sqlbench %s: output lacks %q:\n%s%s", strings.Join(c.args, " "), w, out.String(),
					errb.String())
			}
		}
	}
}

func TestCompareBadThresholds(t *testing.T) {
	old, new := unitFiles(t)
	for _, c := range []struct {
		arg, want string
	}{
		{"ops/s=5%,B/op=x", `--fail-over: want a percentage such as 5% or per unit ops/s=5%,B/op=10%, got "B/op=x"`},
		{"=5%", `--fail-over: want a percentage`},
		{"ops/s=", `--fail-over: want a percentage`},
		{"ops/s=-1%", `--fail-over: want a percentage`},
		{"ops/s=5%,ops/s=6%", `--fail-over: "ops/s" has a threshold twice`},
		{"5%,ops/s=6%", `--fail-over: "ops/s" has a threshold twice`},
		{"MB/s=5%", `--fail-over: no unit "MB/s" in the results (they hold ops/s, ns/op, B/op, allocs/op, p99-ns/op, ` +
			`widgets/op)`},
	} {
		var out, errb bytes.Buffer
		code := Main(context.Background(), []string{"compare", "--fail-over", c.arg, old, new}, fakeEnv(&out, &errb))
		msg := errb.String()
		if code != ExitUsage || !strings.Contains(msg, c.want) || strings.Count(msg, "\n") != 1 || out.Len() != 0 {
			t.Errorf("--fail-over %s: exit %d, stdout %q, stderr %q; want exit 2 and one line containing %q", c.arg,
				code, out.String(), msg, c.want)
		}
	}
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"compare", "--format", "pdf", old, new}, fakeEnv(&out,
		&errb)); code != ExitUsage ||
		!strings.Contains(errb.String(), `--format: want text, markdown or json, got "pdf"`) {
		t.Errorf("--format pdf: exit %d, stderr %q", code, errb.String())
	}
}

// settingFiles writes two results files of the same cell, 6 runs each, old
// under header oldHead and new under newHead.
func settingFiles(t *testing.T, oldHead, newHead string) (old, new string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, head string, ops float64) string {
		var b strings.Builder
		b.WriteString(head)
		for i := range 6 {
			v := ops + float64(i)
			fmt.Fprintf(&b, "BenchmarkR/db=sqlite/driver=mattn/api=sql 100 %g ns/op %g ops/s\n", 1e9/v, v)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	return write("old.txt", oldHead, 1000), write("new.txt", newHead, 1000)
}

// TestCompareRefusesToGateDifferentSettings: --fail-over refuses, in one
// line naming the difference and exit 2, two files measured under settings
// that change what is measured; --allow-different gates them with a
// warning; without --fail-over the difference is a warning; the facts of a
// session (id, start, command line) are no difference.
func TestCompareRefusesToGateDifferentSettings(t *testing.T) {
	same := "# session-id: aaa111\n# started: 2026-01-01T00:00:00Z\nscale: 0.1\nmattn-module: " +
		"github.com/mattn/go-sqlite3 v1.14.52\n"
	facts := "# session-id: bbb222\n# started: 2026-01-02T00:00:00Z\nscale: 0.1\nmattn-module: " +
		"github.com/mattn/go-sqlite3 v1.14.52\n"
	old, new := settingFiles(t, same, facts)
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"compare", "--fail-over", "5%", old, new},
		fakeEnv(&out, &errb)); code != ExitOK || strings.Contains(errb.String(), "different settings") {
		t.Errorf("two sessions of the same settings: exit %d\n%s", code, errb.String())
	}
	for _, c := range []struct{ head, want string }{
		{"scale: 0.01\nmattn-module: github.com/mattn/go-sqlite3 v1.14.52\n", "scale: 0.1 against 0.01"},
		{"scale: 0.1\nmattn-module: github.com/mattn/go-sqlite3 v1.14.50\n", "mattn-module: github.com/mattn/go-" +
			"sqlite3 v1.14.52 against github.com/mattn/go-sqlite3 v1.14.50"},
		{"scale: 0.1\nmattn-module: github.com/mattn/go-sqlite3 v1.14.52\nsqlite-synchronous: OFF\n",
			"sqlite-synchronous: none against OFF"},
	} {
		old, new := settingFiles(t, same, c.head)
		out.Reset()
		errb.Reset()
		code := Main(context.Background(), []string{"compare", "--fail-over", "5%", old, new}, fakeEnv(&out, &errb))
		msg := strings.TrimSpace(errb.String())
		if code != ExitUsage || strings.Contains(msg, "\n") || !strings.Contains(msg, c.want) ||
			!strings.Contains(msg, "--allow-different") || out.Len() != 0 {
			t.Errorf("%s: exit %d, stderr %q, stdout %q", c.want, code, msg, out.String())
		}
		out.Reset()
		errb.Reset()
		code = Main(context.Background(), []string{"compare", "--fail-over", "5%", "--allow-different", old, new},
			fakeEnv(&out, &errb))
		if code != ExitOK || !strings.HasPrefix(errb.String(), "warning: ") ||
			!strings.Contains(errb.String(), c.want) || !strings.Contains(out.String(), "geomean") {
			t.Errorf("%s with --allow-different: exit %d, stderr %q", c.want, code, errb.String())
		}
		out.Reset()
		errb.Reset()
		if code := Main(context.Background(), []string{"compare", old, new}, fakeEnv(&out, &errb)); code != ExitOK ||
			!strings.Contains(errb.String(), c.want) {
			t.Errorf("%s without --fail-over: exit %d, stderr %q", c.want, code, errb.String())
		}
	}
}

// TestCompareNotesWakeups: compare prints both sessions' wake-ups, names a
// kind whose medians differ by more than wakeFactor as a likely cause,
// and does not fail the gate over it; within the factor, no note; an
// idle-latency regime of one side only is a difference of settings.
func TestCompareNotesWakeups(t *testing.T) {
	head := "# wakeup: thread 40.0/60.0 µs, process 50.0/80.0 µs, tcp 70.0/90.0 µs (round trip median/p90, 300 " +
		"before each of 30 passes)\n"
	far := "# wakeup: thread 40.0/60.0 µs, process 55.0/80.0 µs, tcp 210/300 µs (round trip median/p90, 300 before " +
		"each of 30 passes)\n"
	near := "# wakeup: thread 45.0/60.0 µs, process 60.0/80.0 µs, tcp 90.0/120 µs (round trip median/p90, 300 before " +
		"each of 30 passes)\n"
	var out, errb bytes.Buffer
	old, new := settingFiles(t, head, far)
	code := Main(context.Background(), []string{"compare", "--fail-over", "5%", "a=" + old, "b=" + new},
		fakeEnv(&out, &errb))
	for _, want := range []string{"  a  thread 40.0/60.0 µs, process 50.0/80.0 µs, tcp 70.0/90.0 µs\n",
		"  b  thread 40.0/60.0 µs, process 55.0/80.0 µs, tcp 210/300 µs\n",
		"note: wake-ups differ by more than 2×, a likely cause of changes in round-trip cells\n",
		"\n  tcp 3.0× slower (70.0 → 210 µs median)\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if code != ExitOK {
		t.Errorf("the wake-up note failed the gate: exit %d\n%s", code, errb.String())
	}
	out.Reset()
	old, new = settingFiles(t, head, near)
	if code := Main(context.Background(), []string{"compare", old, new}, fakeEnv(&out, &errb)); code != ExitOK ||
		strings.Contains(out.String(), "note: wake-ups") || !strings.Contains(out.String(), "wake-ups (") {
		t.Errorf("within 2×: exit %d, output:\n%s", code, out.String())
	}
	out.Reset()
	errb.Reset()
	old, new = settingFiles(t, head, near+"idle-latency: "+session.IdleLowSetting+"\n")
	if code := Main(context.Background(), []string{"compare", "--fail-over", "5%", old, new},
		fakeEnv(&out, &errb)); code != ExitUsage || !strings.Contains(errb.String(), "idle-latency: none against low") {
		t.Errorf("one side under --idle-latency low: exit %d, stderr %q", code, errb.String())
	}
}

// TestCompareUnitsAndJSON: --units narrows compare to the units named, in
// their order; --json (--format json) writes one JSON object whose cells
// name the target as --targets does; a unit neither file holds, or a
// gated unit --units leaves out, is bad input.
func TestCompareUnitsAndJSON(t *testing.T) {
	old, new := unitFiles(t)
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"compare", "--units", "B/op,p99", old, new},
		fakeEnv(&out, &errb)); code != ExitOK {
		t.Fatalf("compare --units: exit %d: %s", code, errb.String())
	}
	text := out.String()
	if !strings.HasPrefix(text, "B/op (lower is better)") || !strings.Contains(text, "p99-ns/op (lower is better)") ||
		strings.Contains(text, "ops/s (") || strings.Contains(text, "allocs/op") ||
		strings.Contains(text, "widgets/op") {
		t.Errorf("compare --units B/op,p99 printed:\n%s", text)
	}
	for _, args := range [][]string{{"--json"}, {"--format", "json"}} {
		out.Reset()
		errb.Reset()
		args = append(args, "--units", "ns/op,B/op", "--fail-over", "B/op=10%", old, new)
		if code := Main(context.Background(), append([]string{"compare"}, args...),
			fakeEnv(&out, &errb)); code != ExitPartial {
			t.Fatalf("compare %v: exit %d, want 1 (a B/op regression): %s", args, code, errb.String())
		}
		var got struct {
			Units []struct {
				Unit  string
				Cells []struct {
					Cell, Label string
					Delta       float64
				}
			}
			Regressions []struct{ Cell, Unit string }
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatalf("compare %v: not JSON (%v):\n%s", args, err, out.String())
		}
		if len(got.Units) != 2 || got.Units[0].Unit != "ns/op" || got.Units[1].Unit != "B/op" ||
			got.Units[1].Cells[0].Label != "R/mattn" ||
			got.Units[1].Cells[0].Cell != "R/db=sqlite/driver=mattn/api=sql" ||
			math.Abs(got.Units[1].Cells[0].Delta-0.2) > 1e-9 || len(got.Regressions) != 1 ||
			got.Regressions[0].Unit != "B/op" {
			t.Errorf("compare %v: %+v", args, got)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--units", "bogus/op"},
			`compare: --units: no unit "bogus/op" in the results (they hold ops/s, ns/op,`},
		{[]string{"--units", "ns/op", "--fail-over", "B/op=5%"},
			"compare: --fail-over gates B/op, which --units leaves out"},
		{[]string{"--format", "xml"}, `compare: --format: want text, markdown or json, got "xml"`},
	} {
		out.Reset()
		errb.Reset()
		code := Main(context.Background(), append(append([]string{"compare"}, c.args...), old, new),
			fakeEnv(&out, &errb))
		if code != ExitUsage || !strings.Contains(errb.String(), c.want) || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("compare %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// TestCompareDriftScalesASmokeProbe: a smoke session's drift loop (a tenth
// of the work) is set beside a default session's as the time of the
// default work, so the two compare.
func TestCompareDriftScalesASmokeProbe(t *testing.T) {
	fact := func(v string) []*benchfmt.Result {
		r := &benchfmt.Result{}
		r.SetConfig("drift", v)
		return []*benchfmt.Result{r}
	}
	var b strings.Builder
	compareDrift(&b, "old", fact("200.00 ms (150000000 steps, median of 30 passes)"), "new",
		fact("21.00 ms (15000000 steps, median of 35 passes)"))
	for _, want := range []string{"for 150000000 steps", "old  200.00 ms", "new  210.00 ms",
		"new took +5.0% time for the same work"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("compareDrift lacks %q:\n%s", want, b.String())
		}
	}
}
