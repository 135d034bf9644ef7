package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/textlayout"
)

// nineTargets is a table of every SQLite target of the catalogue on two
// workloads, three runs each: wider than 100 columns as one table.
func nineTargets(t *testing.T) *Report {
	t.Helper()
	var lines []string
	for run := range 3 {
		for _, d := range []string{"mattn/api=sql", "modernc/api=sql", "zombiezen/api=native", "crawshaw/api=native",
			"ncruces/api=sql", "ncruces/api=native", "eatonphil/api=native", "bvinc/api=native", "xerial/api=jdbc"} {
			for _, w := range []string{"SimpleExec", "PreparedExec"} {
				lines = append(lines, fmt.Sprintf("Benchmark%s/db=sqlite/driver=%s 1000 %d ns/op %.1f ops/s", w, d,
					1000+run*7, 1e9/float64(1000+run*7)))
			}
		}
	}
	rd := benchfmt.NewReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), "nine")
	var rs []*benchfmt.Result
	for rd.Scan() {
		if r, ok := rd.Result().(*benchfmt.Result); ok {
			rs = append(rs, r.Clone())
		}
	}
	return New(rs, nil, classicLookup)
}

// TestTextSplitsWideTables: a table of nine targets is printed in parts
// of as many targets as fit in 100 columns, every target in one of them;
// with Wide it is one table, wider.
func TestTextSplitsWideTables(t *testing.T) {
	r := nineTargets(t)
	var b bytes.Buffer
	if err := Text(&b, r); err != nil {
		t.Fatal(err)
	}
	widest := 0
	for _, line := range strings.Split(b.String(), "\n") {
		widest = max(widest, utf8.RuneCountInString(line))
	}
	if widest > textlayout.Width || !strings.Contains(b.String(), "classic · sqlite (part 1 of ") {
		t.Errorf("widest line %d columns, parts %v:\n%s", widest, strings.Contains(b.String(), "(part 1 of "),
			b.String())
	}
	for _, target := range []string{"mattn", "modernc", "zombiezen", "crawshaw", "ncruces", "ncruces-native",
		"eatonphil", "bvinc", "jdbc-sqlite"} {
		if !strings.Contains(b.String(), "  "+target) {
			t.Errorf("target %s in no part:\n%s", target, b.String())
		}
	}
	r.Width = 0
	b.Reset()
	if err := Text(&b, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "(part ") {
		t.Errorf("--wide still splits:\n%s", b.String())
	}
}
