package workloads

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"

	"github.com/sqlbench/sqlbench/bench"
)

// sink is a bench.Conn, bench.Stmt and bench.Tx that does nothing but look
// at the arguments it is given: the fastest target there could be, to
// measure what the harness and the data generator cost a bulk insert.
type sink struct {
	bytes int64 // text received, so the arguments are really used
}

func (s *sink) Exec(string, ...any) error                    { return nil }
func (s *sink) Query(string, bench.RowFunc, ...any) error    { return nil }
func (s *sink) QueryRow(string, bench.RowFunc, ...any) error { return nil }
func (s *sink) Prepare(string) (bench.Stmt, error)           { return (*sinkStmt)(s), nil }
func (s *sink) Close() error                                 { return nil }

// sinkStmt is the sink's prepared statement.
type sinkStmt sink

func (s *sinkStmt) Exec(args ...any) error {
	for _, a := range args {
		switch v := a.(type) {
		case string:
			s.bytes += int64(len(v))
		case []byte:
			s.bytes += int64(len(v))
		}
	}
	return nil
}
func (s *sinkStmt) Query(bench.RowFunc, ...any) error    { return nil }
func (s *sinkStmt) QueryRow(bench.RowFunc, ...any) error { return nil }
func (s *sinkStmt) Close() error                         { return nil }

// BenchmarkBulkInsertSink drives the prepared path of BulkInsert, as the
// harness times it, into the sink: the rate of generating rows and handing
// them to a driver. One benchmark op is one row.
//
//	go test -run X -bench BulkInsertSink ./workloads
func BenchmarkBulkInsertSink(b *testing.B) {
	for _, s := range bulkShapes() {
		b.Run(s.key(), func(b *testing.B) {
			w, ok := bench.LookupWorkload(bulkName + "/" + s.key() + "/path=prepared/args=bytes")
			if !ok {
				b.Fatal("prepared path not registered")
			}
			sk := &sink{}
			e := bench.Env{Conn: sk, Dialect: bench.DialectOf(bench.SQLite), N: b.N}
			r, err := w.Begin(e)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			cpu0 := cpuTime(b)
			b.ResetTimer()
			smp, err := bench.Measure(r, 0, b.N, bench.NewLatencyHistogram())
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			// CPU time is what the loop costs even when other processes
			// share the cores (wall time then includes waiting for one).
			b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/row")
			if want := int64(b.N) * int64(s.cols*s.width); sk.bytes != want {
				b.Fatalf("sink received %d bytes, want %d", sk.bytes, want)
			}
			b.ReportMetric(float64(b.N)/smp.Elapsed.Seconds(), "rows/s")
			b.ReportMetric(float64(smp.Allocs)/float64(b.N), "harness-allocs/row")
		})
	}
}

// cpuTime returns the process's user and system CPU time in nanoseconds.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TestBulkInsertSinkAllocatesNothing: the prepared path hands rows to a
// driver without one allocation per row.
func TestBulkInsertSinkAllocatesNothing(t *testing.T) {
	for _, s := range bulkShapes() {
		for _, a := range bulkArgTypes() {
			w, _ := bench.LookupWorkload(bulkName + "/" + s.key() + "/path=prepared/" + a.key())
			const n = 100_000
			r, err := w.Begin(bench.Env{Conn: &sink{}, Dialect: bench.DialectOf(bench.Postgres), N: n})
			if err != nil {
				t.Fatal(err)
			}
			smp, err := bench.Measure(r, 0, n, bench.NewLatencyHistogram())
			if err != nil {
				t.Fatal(err)
			}
			// A few allocations per run (the commit, the latency sampler) are
			// not per row.
			if smp.Allocs > 100 {
				t.Errorf("%s %s: %d allocations for %d rows", s.key(), a.key(), smp.Allocs, n)
			}
		}
	}
}

// TestBlockRowsProduceTheGeneratedRows: the COPY source hands the driver
// the generated rows of its range, in the argument type asked for, across
// blocks, without allocating.
func TestBlockRowsProduceTheGeneratedRows(t *testing.T) {
	for _, a := range bulkArgTypes() {
		in := newBulkBlockWithin(bulkShape{3, 8}, a, 3*bulkBlockRows, 1, 0) // in blocks
		g := &blockRows{in: in}
		for _, pass := range []struct{ first, n int }{{0, 5}, {bulkBlockRows - 3, 7}, {42, 0}} {
			g.reset(pass.first, pass.n)
			got := 0
			for ; got <= pass.n && g.Next(); got++ {
				row := pass.first + got
				vals := g.Values()
				if len(vals) != 3 {
					t.Fatalf("row %d: %d values", row, len(vals))
				}
				for c, v := range vals {
					s, ok := v.(string)
					if b, isBytes := v.([]byte); isBytes {
						s, ok = string(b), a == argsBytes
					} else if a == argsBytes {
						ok = false
					}
					if !ok || s != bench.Value(row, c, 3, 8) {
						t.Fatalf("%s: row %d col %d: %#v, want %q", a.key(), row, c, v, bench.Value(row, c, 3, 8))
					}
				}
			}
			if got != pass.n {
				t.Errorf("%s: rows [%d, %d): produced %d rows", a.key(), pass.first, pass.first+pass.n, got)
			}
		}
		allocs := testing.AllocsPerRun(10, func() {
			g.reset(0, 2*bulkBlockRows)
			for g.Next() {
				_ = g.Values()
			}
		})
		if allocs != 0 {
			t.Errorf("%s: generating %d rows allocates %.0f times", a.key(), 2*bulkBlockRows, allocs)
		}
	}
}

// wantTSV is the reader's output formatted the plain way.
func wantTSV(first, n, cols, width int) string {
	var b strings.Builder
	for r := first; r < first+n; r++ {
		for c := range cols {
			if c > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(bench.Value(r, c, cols, width))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestTSVReaderWritesTheGeneratedRows(t *testing.T) {
	for _, s := range bulkShapes() {
		r := newTSVReader(s.cols, s.width)
		for _, pass := range []struct{ first, n int }{{0, 1}, {0, 300}, {5000, 77}, {9, 0}} {
			want := wantTSV(pass.first, pass.n, s.cols, s.width)
			// Read sizes that split rows anywhere, and big ones that take
			// many rows straight into the caller's buffer.
			for _, size := range []int{1, 7, s.cols*(s.width+1) - 1, 4096} {
				r.reset(pass.first, pass.n)
				var got bytes.Buffer
				buf := make([]byte, size)
				for i := 0; i <= len(want)+1; i++ {
					k, err := r.Read(buf)
					got.Write(buf[:k])
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				if got.String() != want {
					t.Fatalf("%s rows [%d, %d) read %d bytes at a time: wrong text", s.key(), pass.first, pass.first+
						pass.n, size)
				}
			}
			r.reset(pass.first, pass.n)
			if err := iotest.TestReader(r, []byte(want)); err != nil {
				t.Fatalf("%s rows [%d, %d): %v", s.key(), pass.first, pass.first+pass.n, err)
			}
		}
	}
}

// TestTSVNeedsNoEscaping: LOAD DATA's default format gives tab, newline and
// backslash a meaning; generated text must never contain them, since the
// reader writes values as they are.
func TestTSVNeedsNoEscaping(t *testing.T) {
	if strings.ContainsAny(bench.Alphabet, "\t\n\r\\") {
		t.Fatalf("the generator's alphabet %q contains a character LOAD DATA would interpret", bench.Alphabet)
	}
	r := newTSVReader(16, 32)
	r.reset(0, 2000)
	text, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	if len(lines) != 2000 {
		t.Fatalf("%d lines, want 2000", len(lines))
	}
	for i, l := range lines {
		if f := strings.Split(l, "\t"); len(f) != 16 || strings.ContainsAny(l, "\\\r") {
			t.Fatalf("line %d is not 16 plain fields: %q", i, l)
		}
	}
}

func TestTSVReaderAllocatesNothing(t *testing.T) {
	r := newTSVReader(3, 8)
	buf := make([]byte, 1000)
	allocs := testing.AllocsPerRun(10, func() {
		r.reset(0, 1000)
		for {
			if _, err := r.Read(buf); err == io.EOF {
				return
			}
		}
	})
	if allocs != 0 {
		t.Errorf("reading 1000 rows allocates %.0f times", allocs)
	}
}

func TestInsertSQL(t *testing.T) {
	got := insertSQL(bench.DialectOf(bench.Postgres), "t", 2, 2)
	if want := "INSERT INTO t (c0, c1) VALUES ($1, $2), ($3, $4)"; got != want {
		t.Errorf("insertSQL = %q, want %q", got, want)
	}
	for _, db := range bench.AllDBs() {
		if n := batchRows(db, 16) * 16; n > maxParams(db) {
			t.Errorf("%s: %d parameters per statement", db, n)
		}
	}
}

// TestBulkInputStaysBounded: a run generates its rows a block at a time,
// so what it allocates does not grow with the rows it inserts (the whole
// input of 1,000,000 rows of 16 × 32 would be over 500 MB of values alone).
func TestBulkInputStaysBounded(t *testing.T) {
	for _, a := range bulkArgTypes() {
		w, _ := bench.LookupWorkload(bulkName + "/shape=16x32/path=prepared/" + a.key())
		const n = 1_000_000
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := w.Begin(bench.Env{Conn: &sink{}, Dialect: bench.DialectOf(bench.SQLite), N: n})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bench.Measure(r, 0, n, bench.NewLatencyHistogram()); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
			t.Errorf("%s: a run of %d rows allocated %d MB, want it bounded by the block (under 16 MB)", a.key(), n,
				got>>20)
		}
	}
}

// hashSink is a sink that hashes each row of the arguments its statements
// are executed with, at the time of the Exec, as a driver reads them.
type hashSink struct {
	sink
	cols int
	sum  bench.Checksum
}

func (s *hashSink) Prepare(string) (bench.Stmt, error) { return (*hashStmt)(s), nil }

// hashStmt is the hashSink's prepared statement.
type hashStmt hashSink

func (s *hashStmt) Exec(args ...any) error {
	for r := 0; r+s.cols <= len(args); r += s.cols {
		h := bench.NewRowHasher()
		for _, a := range args[r : r+s.cols] {
			switch v := a.(type) {
			case string:
				h.Add(v)
			case []byte:
				h.AddBytes(v)
			}
		}
		s.sum.Add(h.Sum())
	}
	return nil
}
func (s *hashStmt) Query(bench.RowFunc, ...any) error    { return nil }
func (s *hashStmt) QueryRow(bench.RowFunc, ...any) error { return nil }
func (s *hashStmt) Close() error                         { return nil }

// TestEveryBulkPathHandsTheDriverTheGeneratedRows: across several blocks
// of generated rows, each binding path executes exactly the generated rows
// (the multi-row path once kept a batch's arguments while the next block
// was generated over them, and sent wrong rows past the first block).
func TestEveryBulkPathHandsTheDriverTheGeneratedRows(t *testing.T) {
	const n = 3*bulkBlockRows + 123
	for _, path := range []string{"prepared", "multirow"} {
		for _, a := range bulkArgTypes() {
			s := bulkShape{3, 8}
			w, ok := bench.LookupWorkload(bulkName + "/" + s.key() + "/path=" + path + "/" + a.key())
			if !ok {
				t.Fatalf("%s %s not registered", path, a.key())
			}
			sk := &hashSink{cols: s.cols}
			r, err := w.Begin(bench.Env{Conn: sk, Dialect: bench.DialectOf(bench.SQLite), N: n})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := bench.Measure(r, 0, n, bench.NewLatencyHistogram()); err != nil {
				t.Fatal(err)
			}
			if want := bench.GeneratedChecksum(0, n, s.cols, s.width); sk.sum != want {
				t.Errorf("%s %s: the driver was given rows with checksum %+v, want the generated %+v", path, a.key(),
					sk.sum, want)
			}
		}
	}
}

// TestRowsFittingTheBudgetAreAllMadeBeforeTheClock: a run whose rows fit
// bulkUpFrontBytes has them all generated before its clock starts, as the
// published program, so it never pauses (a pause inside pgx's CopyFrom
// would let pgx's other goroutine work off the clock); a larger one is
// made in blocks.
func TestRowsFittingTheBudgetAreAllMadeBeforeTheClock(t *testing.T) {
	s := bulkShape{3, 8}
	fit, budget := 10_000, 10_000*s.rowBytes() // as bulkUpFrontBytes, smaller
	if whole := newBulkBlock(s, argsBytes, fit, 1); whole.size != fit {
		t.Errorf("%d rows of %s, far within %d MB: blocks of %d rows", fit, s.key(), bulkUpFrontBytes>>20, whole.size)
	}
	in := newBulkBlockWithin(s, argsBytes, fit, 1, budget)
	if !in.rows.Holds(0) || !in.rows.Holds(fit-1) {
		t.Fatalf("%d rows of %s within the budget: not all generated up front", fit, s.key())
	}
	in.timer.Start() // running, as in a measured run
	for _, i := range []int{0, fit / 2, fit - 1} {
		_ = in.row(i)
	}
	if in.timer.Paused() != 0 {
		t.Errorf("a run within the budget paused its clock for %v", in.timer.Paused())
	}
	over := newBulkBlockWithin(s, argsBytes, fit+1, 1, budget)
	if over.rows.Holds(fit) || over.size >= fit {
		t.Errorf("%d rows, one over the budget: a block of %d rows, want blocks of about %d", fit+1, over.size,
			bulkBlockRows)
	}
}
