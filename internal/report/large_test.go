package report

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/sqlbench/sqlbench/internal/benchfile"
)

// writeLargeResults writes a results file of n result lines shaped like a
// big sqlbench run: the classic suite and more workloads on three
// databases, both transports, concurrency, size and row-count sweeps, and
// the loopback floor, with runs interleaved.
func writeLargeResults(w io.Writer, n int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "goos: linux\ncpu: Test CPU\ncores: 2\nkernel: 6.1.0-test\ngo: go1.26.8\npin: same")
	fmt.Fprintln(bw, "Unit ns/op better=lower\nUnit ops/s better=higher")
	type target struct{ db, driver, api string }
	targets := []target{
		{"sqlite", "mattn", "sql"}, {"sqlite", "modernc", "sql"}, {"sqlite", "zombiezen", "native"},
		{"sqlite", "crawshaw", "native"},
		{"sqlite", "ncruces", "sql"}, {"sqlite", "ncruces", "native"},
		{"mariadb", "go-sql-driver", "sql"}, {"mariadb", "go-sql-driver-interp", "sql"}, {"mariadb", "mymysql", "sql"},
		{"mariadb", "mymysql", "native"},
		{"postgres", "pq", "sql"}, {"postgres", "pgx", "sql"}, {"postgres", "pgx", "native"},
	}
	var names []string
	add := func(workload string, t target, extra string) {
		name := fmt.Sprintf("%s/db=%s/driver=%s/api=%s", workload, t.db, t.driver, t.api)
		if t.db == "sqlite" {
			names = append(names, name+extra)
			return
		}
		for _, net := range []string{"tcp", "unix"} {
			names = append(names, name+"/net="+net+extra)
		}
	}
	workloads := []string{"SimpleQuery", "PreparedQuery", "AutoQueryRow", "SimpleQueryRow", "PreparedQueryRow",
		"SimpleExec", "PreparedExec"}
	for i := range 14 {
		workloads = append(workloads, fmt.Sprintf("Workload%02d", i))
	}
	for _, w := range workloads {
		for _, t := range targets {
			add(w, t, "")
		}
	}
	for _, t := range targets {
		for _, c := range []int{1, 2, 4, 8, 16} {
			if t.db != "sqlite" {
				add("ConcurrentQuery", t, fmt.Sprintf("/conns=%d", c))
			}
		}
		for _, s := range []int{16, 256, 4096, 65536} {
			add("RowSize", t, fmt.Sprintf("/size=%d", s))
		}
		for _, r := range []int{1, 100, 10000} {
			add("SelectN", t, fmt.Sprintf("/n=%d", r))
		}
	}
	for _, s := range []int{16, 1024, 65536} {
		names = append(names, fmt.Sprintf("TCPRoundTrip/db=loopback/driver=tcp/api=raw/size=%d", s))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	base := make([]float64, len(names))
	for i := range base {
		base[i] = 1000 + rng.Float64()*50000
	}
	for i := 0; i < n; i++ {
		j := i % len(names)
		ops := base[j] * (0.9 + 0.2*rng.Float64())
		ns := 1e9 / ops
		fmt.Fprintf(bw, "Benchmark%s 1000 %.0f ns/op %.0f ops/s %d B/op %d allocs/op %.0f p50-ns/op %.0f p99-ns/op "+
			"%.0f p99.9-ns/op\n",
			names[j], ns, ops, 500+rng.IntN(40), 19, ns*0.9, ns*3, ns*6)
	}
	return bw.Flush()
}

func largeFile(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "large.txt")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := writeLargeResults(f, 10_000); err != nil {
		tb.Fatal(err)
	}
	return path
}

// reportAll is the whole report path of `sqlbench report --format
// markdown,html,csv,json`: read the file, summarize, write every format.
func reportAll(path string, w io.Writer) error {
	set, err := benchfile.ReadFile(path)
	if err != nil {
		return err
	}
	r := New(set.Results, nil, classicLookup)
	for _, f := range []func(io.Writer, *Report) error{Markdown, HTML, CSV, JSON} {
		if err := f(w, r); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkReport10k measures the whole report path on a 10,000-result
// file; the goal is under 1 s per op.
func BenchmarkReport10k(b *testing.B) {
	path := largeFile(b)
	b.ResetTimer()
	for b.Loop() {
		if err := reportAll(path, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHTMLSizeOf10kResults checks that the HTML report of a 10,000-result
// file stays under 2 MB.
func TestHTMLSizeOf10kResults(t *testing.T) {
	set, err := benchfile.ReadFile(largeFile(t))
	if err != nil {
		t.Fatal(err)
	}
	r := New(set.Results, nil, classicLookup)
	cw := &countWriter{}
	if err := HTML(cw, r); err != nil {
		t.Fatal(err)
	}
	t.Logf("HTML of %d results in %d cells: %d bytes, %d charts", r.Results, len(r.Cells), cw.n, countCharts(r))
	if cw.n >= 2_000_000 {
		t.Errorf("HTML is %d bytes, over 2 MB", cw.n)
	}
}

func countCharts(r *Report) int {
	n := 0
	for _, s := range r.Sections() {
		n += len(s.Charts)
	}
	return n
}

type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }
