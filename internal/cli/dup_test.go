package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sessionResults writes a results file of session id holding runs
// first..last of two cells, run i of driver b at 1000+10i ops/s and of a at
// 1200+10i+shift.
func sessionResults(t *testing.T, dir, name, id string, first, last int, shift float64) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "Unit ops/s better=higher\n# session-id: %s\ncount: 6\n", id)
	for i := first; i <= last; i++ {
		fmt.Fprintf(&b, "BenchmarkSimpleQuery/db=sqlite/driver=mattn/api=sql 100 %g ops/s\n", 1200+10*float64(i)+shift)
		fmt.Fprintf(&b, "BenchmarkSimpleQuery/db=sqlite/driver=modernc/api=sql 100 %g ops/s\n", 1000+10*float64(i))
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReportCountsEveryRunOnce: a report of the same file twice, of a file
// and its copy, or of a file and a copy taken while its session ran, is the
// report of the one session, with one line saying what was counted once;
// two sessions are merged without a note.
func TestReportCountsEveryRunOnce(t *testing.T) {
	dir := t.TempDir()
	r := sessionResults(t, dir, "r.txt", "k3x9qa", 1, 6, 0)
	cp := sessionResults(t, dir, "copy.txt", "k3x9qa", 1, 6, 0)
	early := sessionResults(t, dir, "early.txt", "k3x9qa", 1, 3, 0)
	other := sessionResults(t, dir, "other.txt", "p2m7zz", 1, 6, 0)
	report := func(paths ...string) (string, string) {
		var out, errb bytes.Buffer
		args := append([]string{"report"}, paths...)
		if code := Main(context.Background(), args, fakeEnv(&out, &errb)); code != ExitOK {
			t.Fatalf("sqlbench %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
		}
		return out.String(), errb.String()
	}
	alone, _ := report(r)
	const once = "; counted once\n"
	for _, c := range []struct {
		paths []string
		note  string
	}{
		{[]string{r, r}, "report: " + r + " repeats all 12 runs of session k3x9qa already read from " + r + once},
		{[]string{r, cp}, "report: " + cp + " repeats all 12 runs of session k3x9qa already read from " + r + once},
		{[]string{early, r}, "report: " + r +
			" repeats 6 of its 12 runs of session k3x9qa already read from " + early + once},
	} {
		out, errs := report(c.paths...)
		if errs != c.note {
			t.Errorf("report %v: stderr\n%s\nwant\n%s", c.paths, errs, c.note)
		}
		if out != alone {
			t.Errorf("report %v differs from the report of %s alone:\n%s\nwant\n%s", c.paths, r, out, alone)
		}
	}
	out, errs := report(r, other)
	if errs != "" || out == alone || !strings.Contains(out, "12") {
		t.Errorf("report of two sessions: stderr %q, report\n%s", errs, out)
	}
}

// TestCompareSaysASessionIsComparedWithItself: compare of a file with
// itself, with its copy, or with a copy taken while its session ran says so
// in one line at the top and exits as any compare; two sessions get no
// such line.
func TestCompareSaysASessionIsComparedWithItself(t *testing.T) {
	dir := t.TempDir()
	r := sessionResults(t, dir, "r.txt", "k3x9qa", 1, 6, 0)
	cp := sessionResults(t, dir, "copy.txt", "k3x9qa", 1, 6, 0)
	early := sessionResults(t, dir, "early.txt", "k3x9qa", 1, 3, 0)
	other := sessionResults(t, dir, "other.txt", "p2m7zz", 1, 6, 0)
	const itself = ": this compares a session with itself, not two sessions"
	for _, c := range []struct {
		args []string
		top  string
	}{
		{[]string{r, r}, "note: " + r + " (old and new) hold one session's runs (session k3x9qa, the same 12 runs)" +
			itself},
		{[]string{"--fail-over", "5%", r, cp},
			"note: " + r + " and " + cp + " hold one session's runs (session k3x9qa, the same 12 runs)" + itself},
		{[]string{early, r}, "note: " + early + " and " + r +
			" hold one session's runs (session k3x9qa, 6 runs in both, of 6 in old and 12 in new)" + itself},
		{[]string{r, other}, ""},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"compare"}, c.args...)
		if code := Main(context.Background(), args, fakeEnv(&out, &errb)); code != ExitOK {
			t.Fatalf("sqlbench %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
		}
		first, _, _ := strings.Cut(out.String(), "\n")
		if c.top != "" && first != c.top {
			t.Errorf("sqlbench %s: first line %q, want %q", strings.Join(args, " "), first, c.top)
		}
		if c.top == "" && strings.Contains(out.String()+errb.String(), "one session's runs") {
			t.Errorf("sqlbench %s says one session:\n%s%s", strings.Join(args, " "), out.String(), errb.String())
		}
	}
}
