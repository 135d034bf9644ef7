package workloads

import (
	"database/sql"
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// The sqlbench2 family is the second generation of the SQL-Benchmark suite
// (the MySQL driver suite), at the operation counts of its published run of
// 2013-11-02 (go-sql-driver/sql-benchmark main.go since commit d4a9ca8,
// https://github.com/go-sql-driver/sql-benchmark/blob/d4a9ca8/main.go:
// 250,000 per run, 50,000 for the large reads, 500,000 for the concurrent
// tests, the counts of that run): `SELECT 1`
// read back through the
// one-row call, unprepared and prepared, a parameter echoed back, five
// values of mixed types echoed back, a 10,000-character string read into a string, a []byte
// and sql.RawBytes (plain and prepared), and a prepared no-op and echo
// shared by 1 to 16 goroutines (concurrent.go). The queries read no table;
// every value that comes back is checked.
const (
	sqlbench2Family = "sqlbench2"
	// largeLen is the length of the string SelectLarge* reads: 10,000 'A's.
	largeLen = 10_000
	// sqlbench2Ops and sqlbench2LargeOps are the operation counts of the
	// published run (its SimpleExec and PreparedExec, sqlbench's SimpleDo
	// and PreparedDo, included).
	sqlbench2Ops      = 250_000
	sqlbench2LargeOps = 50_000
)

// The values EchoMixed5 sends and expects back; the fourth is NULL.
const (
	echoID    int64 = 42
	echoName        = "Gopher"
	echoRatio       = 1.618
	echoHire        = true
)

func init() {
	for _, w := range sqlbench2Workloads() {
		bench.RegisterWorkload(w)
	}
	for _, w := range concurrentWorkloads() {
		bench.RegisterWorkload(w)
	}
}

// paramEcho is the query of PreparedQueryRowParam: one parameter selected
// back. PostgreSQL must be told its type.
func paramEcho(d bench.Dialect) string {
	if d.DB == bench.Postgres {
		return "SELECT $1::int8"
	}
	return "SELECT ?"
}

// mixedEcho is the query of EchoMixed5.
func mixedEcho(d bench.Dialect) string {
	if d.DB == bench.Postgres {
		return "SELECT $1::int8, $2::text, $3::float8, $4::text, $5::bool"
	}
	return "SELECT ?, ?, ?, ?, ?"
}

// largeText is the query returning largeLen 'A's. SQLite has no REPEAT:
// hex(zeroblob(5000)) is 10,000 '0's, and replacing each "00" with "AA"
// makes them 'A's.
func largeText(d bench.Dialect) string {
	if d.DB == bench.SQLite {
		return "SELECT replace(hex(zeroblob(5000)), '00', 'AA')"
	}
	return "SELECT REPEAT('A', 10000)"
}

func sqlbench2Workloads() []bench.Workload {
	// The second generation's SimpleQueryRow and PreparedQueryRow read
	// `SELECT 1`; the classic family owns those names (the 2013 workloads
	// of the same names read the 100-row table), so these carry the query in
	// theirs.
	const one = "SELECT 1"
	ws := []bench.Workload{
		{
			Name: "SimpleQueryRowSelect1", Ops: sqlbench2Ops, Unit: "queries",
			Describe: func(bench.Dialect) string {
				return "`" + one + "` unprepared through the driver's one-row call, scanned into an integer and " +
					"checked (the second generation's SimpleQueryRow)"
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				c, st := e.Conn, &intEcho{want: 1}
				row := st.row
				return bench.Run{Op: func(int) error { return c.QueryRow(one, row) }}, nil
			},
		},
		{
			Name: "PreparedQueryRowSelect1", Ops: sqlbench2Ops, Unit: "queries",
			Describe: func(bench.Dialect) string {
				return "`" + one + "` through one statement prepared and closed inside the clock and the driver's " +
					"one-row call, scanned into an integer and checked (the second generation's PreparedQueryRow)"
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				p := newTimedStmt(e.Conn, one)
				st := &intEcho{want: 1}
				row := st.row
				return p.run(func(int) error { return p.s.QueryRow(row) }), nil
			},
		},
		{
			Name: "PreparedQueryRowParam", Ops: sqlbench2Ops, Unit: "queries",
			Describe: func(d bench.Dialect) string {
				return "`" + paramEcho(d) + "` through one statement prepared and closed inside the clock and the " +
					"driver's one-row call, the operation number as argument, echo checked"
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				p := newTimedStmt(e.Conn, paramEcho(e.Dialect))
				st := &intEcho{}
				row := st.row
				return p.run(func(i int) error {
					st.want = int64(i)
					return p.s.QueryRow(row, st.want)
				}), nil
			},
		},
		{
			Name: "EchoMixed5", Ops: sqlbench2Ops, Unit: "queries",
			Describe: func(d bench.Dialect) string {
				return "`" + mixedEcho(d) + "` through one statement prepared and closed inside the clock and the " +
					"driver's one-row call with (42, \"Gopher\", 1.618, NULL, true), all five checked (NULL scanned " +
					"into *any)"
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				p := newTimedStmt(e.Conn, mixedEcho(e.Dialect))
				st := &mixedScan{}
				row := st.row
				return p.run(func(int) error {
					return p.s.QueryRow(row, echoID, echoName, echoRatio, nil, echoHire)
				}), nil
			},
		},
	}
	for _, k := range []largeKind{largeString, largeBytes, largeRaw} {
		ws = append(ws, largeWorkload(k, false), largeWorkload(k, true))
	}
	for i := range ws {
		ws[i].Family = sqlbench2Family
		ws[i].Setup = func(bench.Env) error { return nil }
		ws[i].Teardown = func(bench.Env) error { return nil }
	}
	return ws
}

// largeKind is the destination SelectLarge* scans into.
type largeKind int

const (
	largeString largeKind = iota
	largeBytes
	largeRaw
)

func (k largeKind) name() string {
	return [...]string{"String", "Bytes", "Raw"}[k]
}

func (k largeKind) dest() string {
	return [...]string{
		"a string",
		"a []byte",
		"sql.RawBytes (native APIs: their zero-copy view where they have one — pgx Rows.RawValues, ncruces " +
			"ColumnRawBlob, mymysql's row buffer — else a copy into a reused []byte: crawshaw and zombiezen)",
	}[k]
}

// largeWorkload reads the 10,000-character string as the original suite
// does: into a string or []byte through the one-row call, into sql.RawBytes
// with rows.Next and Scan (database/sql refuses sql.RawBytes on a single-row
// call), unprepared or through one prepared statement. Named as in the
// original suite: SelectLargeString, SelectPreparedLargeString, and so on.
func largeWorkload(k largeKind, prepared bool) bench.Workload {
	w := bench.Workload{Name: "SelectLarge" + k.name(), Ops: sqlbench2LargeOps, Unit: "queries"}
	how := "unprepared"
	if prepared {
		w.Name = "SelectPreparedLarge" + k.name()
		how = "through one statement prepared and closed inside the clock"
	}
	w.Describe = func(d bench.Dialect) string {
		call := "through the driver's one-row call"
		if k == largeRaw {
			call = "read with Query, Next and Scan"
		}
		return "`" + largeText(d) + "`, 10,000 'A's, " + how + ", " + call + ", scanned into " + k.dest() +
			"; one row per read checked in the clock, the 10,000 characters outside it (every read of the warm-up, " +
			"the first and last timed read with the clock paused), as the published program reads them unchecked"
	}
	w.Begin = func(e bench.Env) (bench.Run, error) {
		st := newLargeScan(k)
		row := st.row
		// The published program reads the string and checks nothing of it
		// but that a row came: the content of the warm-up's reads is
		// checked (untimed), and of the first and last timed read of the
		// run with its clock paused.
		first, last := e.Warm, e.Warm+e.N-1
		timer := &bench.Timer{}
		st.timer = timer
		r := bench.Run{BytesPerOp: largeLen, Timer: timer}
		// The published program reads a string or []byte through the
		// one-row call (QueryRow().Scan) and sql.RawBytes through Query,
		// Next, Scan and Close, since database/sql refuses RawBytes on a
		// single-row call.
		one := k != largeRaw
		var read func() error
		if prepared {
			p := newTimedStmt(e.Conn, largeText(e.Dialect))
			if one {
				read = func() error { return p.s.QueryRow(row) }
			} else {
				read = func() error { return p.s.Query(row) }
			}
			r.Start, r.Finish, r.End = p.start, p.finish, p.finish
		} else {
			c, q := e.Conn, largeText(e.Dialect)
			if one {
				read = func() error { return c.QueryRow(q, row) }
			} else {
				read = func() error { return c.Query(q, row) }
			}
		}
		r.Op = func(i int) error {
			st.verify = i <= first || i == last
			return st.check(read())
		}
		return r, nil
	}
	return w
}

// intEcho checks a one-column row against the integer sent. It scans into
// an int, as the published program (var num int).
type intEcho struct {
	want int64
	got  int
	dest []any // built once: a fresh variadic slice would escape
}

func (t *intEcho) row(r bench.Row) error {
	if t.dest == nil {
		t.dest = []any{&t.got}
	}
	t.got = int(^t.want) // a driver that scans nothing fails
	if err := r.Scan(t.dest...); err != nil {
		return err
	}
	if int64(t.got) != t.want {
		return fmt.Errorf("wrong echo %d for %d", t.got, t.want)
	}
	return nil
}

// mixedScan checks EchoMixed5's row: every value as sent, the NULL as a nil
// *any (the one destination every target's Scan takes for NULL).
type mixedScan struct {
	id    int64
	name  string
	ratio float64
	other any
	hire  bool
	dest  []any
}

// unscanned marks a destination the driver did not write.
const unscanned = "unscanned"

func (m *mixedScan) row(r bench.Row) error {
	if m.dest == nil {
		m.dest = []any{&m.id, &m.name, &m.ratio, &m.other, &m.hire}
	}
	m.id, m.name, m.ratio, m.other, m.hire = 0, "", 0, unscanned, false
	if err := r.Scan(m.dest...); err != nil {
		return err
	}
	if m.id != echoID || m.name != echoName || m.ratio != echoRatio || m.other != nil || m.hire != echoHire {
		return fmt.Errorf("wrong echo (%d, %q, %v, %v, %v), want (42, \"Gopher\", 1.618, <nil>, true)", m.id, m.name,
			m.ratio, m.other, m.hire)
	}
	return nil
}

// rawValuer is pgx's Rows: the raw bytes of the current row, the zero-copy
// equivalent of sql.RawBytes in its native API.
type rawValuer interface{ RawValues() [][]byte }

// largeScan reads the large string and checks one read of it: that one
// row came, and when verify is set, with the run's timer paused, its
// content.
type largeScan struct {
	kind   largeKind
	want   string
	s      string
	b      []byte
	raw    sql.RawBytes
	n      int
	dest   []any
	verify bool
	timer  *bench.Timer
}

func newLargeScan(k largeKind) *largeScan {
	l := &largeScan{kind: k, want: strings.Repeat("A", largeLen)}
	switch k {
	case largeString:
		l.dest = []any{&l.s}
	case largeBytes:
		l.dest = []any{&l.b}
	default:
		l.dest = []any{&l.raw}
	}
	return l
}

func (l *largeScan) row(r bench.Row) error {
	l.n++
	if l.verify {
		// A driver that writes nothing must fail the check.
		l.s, l.b, l.raw = "", l.b[:0], nil
	}
	var got []byte
	switch l.kind {
	case largeString:
		if err := r.Scan(l.dest...); err != nil {
			return err
		}
		if l.verify {
			return l.paused(nil)
		}
		return nil
	case largeBytes:
		if err := r.Scan(l.dest...); err != nil {
			return err
		}
		got = l.b
	default:
		if rv, ok := r.(rawValuer); ok {
			vals := rv.RawValues()
			if len(vals) != 1 {
				return fmt.Errorf("%d columns, want 1", len(vals))
			}
			got = vals[0]
		} else {
			if err := r.Scan(l.dest...); err != nil {
				return err
			}
			got = l.raw
		}
	}
	if l.verify {
		return l.paused(got)
	}
	return nil
}

// paused compares what was read (got, or the string l.s for a string
// destination) with the large string, the run's clock paused.
func (l *largeScan) paused(got []byte) error {
	l.timer.Stop()
	var err error
	switch {
	case l.kind == largeString && l.s != l.want:
		err = fmt.Errorf("wrong string: %s", describeLarge(l.s))
	case l.kind != largeString && string(got) != l.want:
		err = fmt.Errorf("wrong bytes: %s", describeLarge(string(got)))
	}
	l.timer.Start()
	return err
}

// check finishes one read: exactly one row.
func (l *largeScan) check(err error) error {
	n := l.n
	l.n = 0
	if err != nil {
		return err
	}
	if n != 1 {
		return fmt.Errorf("read %d rows, want 1", n)
	}
	return nil
}

// describeLarge says how a read of the large string differs from 10,000
// 'A's, briefly.
func describeLarge(s string) string {
	if len(s) != largeLen {
		return fmt.Sprintf("%d bytes, want %d", len(s), largeLen)
	}
	i := strings.IndexFunc(s, func(r rune) bool { return r != 'A' })
	return fmt.Sprintf("byte %d is %q, want 'A'", i, s[i])
}
