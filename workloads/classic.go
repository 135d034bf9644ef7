package workloads

import (
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// The classic family is the SQL-Benchmark suite (go-sql-driver/sql-benchmark,
// sqlBenchmark.go and SQLBenchmark.java at commit ddf95e5, the programs of
// the 2013-03 results): a 100-row table (numbers 0 to 99) read whole, row by
// row, and a no-op statement, each simple (SQL text compiled per call) and
// prepared, with the programs' SQL: whole-table reads name the two columns,
// row lookups select *. The table is the cell's own (Dialect.Table), so
// cells can share a server database.
const (
	classicFamily = "classic"
	classicTable  = "test"
	classicRows   = 100
	classicStr    = "Test"
)

func init() {
	for _, w := range classicWorkloads() {
		bench.RegisterWorkload(w)
	}
}

func classicWorkloads() []bench.Workload {
	all := func(d bench.Dialect) string { return "SELECT number, str FROM " + d.Table(classicTable) }
	star := func(d bench.Dialect) string { return "SELECT * FROM " + d.Table(classicTable) + " WHERE number=" }
	one := func(d bench.Dialect) string { return star(d) + d.Param(1) }
	ws := []bench.Workload{
		{
			Name: "SimpleQuery", Ops: 10_000, Unit: "queries",
			Describe: func(d bench.Dialect) string { return "`" + all(d) + "` reading all 100 rows, unprepared" },
			Begin: func(e bench.Env) (bench.Run, error) {
				c, d := e.Conn, e.Dialect
				q, st := all(d), &tableScan{}
				row := st.row // one method value per run, not one per op
				return bench.Run{Op: func(int) error { return st.check(c.Query(q, row)) }}, nil
			},
		},
		{
			Name: "PreparedQuery", Ops: 10_000, Unit: "queries",
			Describe: func(d bench.Dialect) string {
				return "`" + all(d) +
					"` reading all 100 rows through one prepared statement, prepared and closed inside the clock"
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				p := newTimedStmt(e.Conn, all(e.Dialect))
				st := &tableScan{}
				row := st.row
				return p.run(func(int) error { return st.check(p.s.Query(row)) }), nil
			},
		},
		{
			Name: "AutoQueryRow", Ops: 100_000, Unit: "queries",
			Describe: func(d bench.Dialect) string {
				return "`" + one(d) +
					"` with the argument passed to the driver's one-row call, each of the 100 rows in turn"
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				c, d := e.Conn, e.Dialect
				q, st := one(d), &rowLookup{}
				row := st.row
				return bench.Run{Op: func(i int) error {
					st.want = int64(i % classicRows)
					return c.QueryRow(q, row, st.want)
				}}, nil
			},
		},
		{
			Name: "SimpleQueryRow", Ops: 100_000, Unit: "queries",
			Describe: func(d bench.Dialect) string {
				return "`" + star(d) + "N` with the literal formatted into the SQL text in the timed loop " +
					"(fmt.Sprintf, as the published program), each of the 100 rows in turn"
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				c, d := e.Conn, e.Dialect
				// The published program formats each query's text inside
				// the timed loop (fmt.Sprintf), so this does too.
				format := star(d) + "%d"
				st := &rowLookup{}
				row := st.row
				return bench.Run{Op: func(i int) error {
					st.want = int64(i % classicRows)
					return c.QueryRow(fmt.Sprintf(format, st.want), row)
				}}, nil
			},
		},
		{
			Name: "PreparedQueryRow", Ops: 100_000, Unit: "queries", Period: classicRows,
			Describe: func(d bench.Dialect) string {
				return "`" + one(d) + "` through a statement prepared again for each pass over the 100 rows, each " +
					"prepared and closed inside the clock"
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				c, d := e.Conn, e.Dialect
				q, st := one(d), &rowLookup{}
				row := st.row
				var s bench.Stmt
				end := func() error {
					if s == nil {
						return nil
					}
					err := s.Close()
					s = nil
					return err
				}
				// The passes count from the first timed operation (and
				// from the first of the warm-up, which ends by closing its
				// statement), so that the timed run prepares first, as
				// the published loop does; a run in slices is split at
				// whole passes (Period), so every slice begins one.
				return bench.Run{Op: func(i int) error {
					k := i - e.Warm
					if k < 0 {
						k = i
					}
					if k%classicRows == 0 || s == nil {
						if err := end(); err != nil {
							return fmt.Errorf("close statement: %w", err)
						}
						var err error
						if s, err = c.Prepare(q); err != nil {
							return fmt.Errorf("prepare: %w", err)
						}
					}
					st.want = int64(k % classicRows)
					return s.QueryRow(row, st.want)
				}, Start: func() error { return nil }, Finish: end, End: end}, nil
			},
		},
		{
			Name: "SimpleExec", Ops: 100_000, Unit: "execs",
			Describe: func(d bench.Dialect) string {
				return "`" + d.NoopExec + "`, a statement that touches no data, unprepared"
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				c, d := e.Conn, e.Dialect
				q := d.NoopExec
				return bench.Run{Op: func(int) error { return c.Exec(q) }}, nil
			},
		},
		{
			Name: "PreparedExec", Ops: 100_000, Unit: "execs",
			Describe: func(d bench.Dialect) string {
				return "`" + d.NoopExec + "` through one prepared statement, prepared and closed inside the clock"
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				p := newTimedStmt(e.Conn, e.Dialect.NoopExec)
				return p.run(func(int) error { return p.s.Exec() }), nil
			},
		},
	}
	// MySQL has a second, even cheaper no-op, which the suite's second
	// generation times as its SimpleExec and PreparedExec, at that
	// generation's published count.
	const do = "DO 1"
	ws = append(ws,
		bench.Workload{
			Name: "SimpleDo", Ops: sqlbench2Ops, Unit: "execs", Only: []bench.DB{bench.MariaDB},
			Describe: func(bench.Dialect) string { return "`" + do + "`, MySQL's second no-op, unprepared" },
			Begin: func(e bench.Env) (bench.Run, error) {
				c := e.Conn
				return bench.Run{Op: func(int) error { return c.Exec(do) }}, nil
			},
		},
		bench.Workload{
			Name: "PreparedDo", Ops: sqlbench2Ops, Unit: "execs", Only: []bench.DB{bench.MariaDB},
			Describe: func(bench.Dialect) string {
				return "`" + do + "` through one prepared statement, prepared and closed inside the clock"
			},
			Begin: func(e bench.Env) (bench.Run, error) {
				p := newTimedStmt(e.Conn, do)
				return p.run(func(int) error { return p.s.Exec() }), nil
			},
		})
	for i := range ws {
		ws[i].Family, ws[i].Setup, ws[i].Teardown = classicFamily, classicSetup, classicTeardown
	}
	return ws
}

// classicSetup creates the 100-row table every classic workload reads.
func classicSetup(e bench.Env) error {
	ctx, c, d := e.Ctx, e.Conn, e.Dialect
	table := d.Table(classicTable)
	stmts := []string{"DROP TABLE IF EXISTS " + table, classicCreate(d, table)}
	var b strings.Builder
	b.WriteString("INSERT INTO " + table + " (number, str) VALUES ")
	for i := range classicRows {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "(%d,'%s')", i, classicStr)
	}
	stmts = append(stmts, b.String())
	for _, q := range stmts {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := c.Exec(q); err != nil {
			return fmt.Errorf("set up %s: %w", table, err)
		}
	}
	return nil
}

// classicCreate is the statement that creates the classic table: on
// MariaDB/MySQL the published programs' own, elsewhere its columns and
// constraints in the dialect's types.
func classicCreate(d bench.Dialect, table string) string {
	if d.DB == bench.MariaDB {
		return "CREATE TABLE " + table + " (`number` int(3) NOT NULL, `str` varchar(4) NOT NULL, PRIMARY KEY " +
			"(`number`)) ENGINE=InnoDB DEFAULT CHARSET=utf8"
	}
	return "CREATE TABLE " + table + " (number INT NOT NULL, str VARCHAR(4) NOT NULL, PRIMARY KEY (number))"
}

// classicTeardown drops the table classicSetup made.
func classicTeardown(e bench.Env) error {
	return e.Conn.Exec("DROP TABLE IF EXISTS " + e.Dialect.Table(classicTable))
}

// tableScan checks one read of the whole table: every number from 0 to 99
// exactly once, each with the string "Test". The published programs also
// expect them in order, as InnoDB returns a table by its primary key; the
// other engines promise no order without ORDER BY (PostgreSQL returns an
// updated row last), so the check is of the set.
type tableScan struct {
	num  int64
	str  string
	seen [2]uint64
	n    int
	dest []any // &num, &str, built once: a fresh variadic slice would escape through the interface call
}

func (t *tableScan) row(r bench.Row) error {
	if t.dest == nil {
		t.dest = []any{&t.num, &t.str}
	}
	if err := r.Scan(t.dest...); err != nil {
		return err
	}
	t.n++
	if t.num < 0 || t.num >= classicRows || t.str != classicStr {
		return fmt.Errorf("wrong row (%d, %q)", t.num, t.str)
	}
	bit := uint64(1) << (uint(t.num) % 64)
	if t.seen[t.num/64]&bit != 0 {
		return fmt.Errorf("row %d returned twice", t.num)
	}
	t.seen[t.num/64] |= bit
	return nil
}

// check finishes one scan: it passes err through, or reports missing rows,
// and resets the state for the next one.
func (t *tableScan) check(err error) error {
	n := t.n
	t.n, t.seen = 0, [2]uint64{}
	if err != nil {
		return err
	}
	if n != classicRows {
		return fmt.Errorf("read %d rows, want %d", n, classicRows)
	}
	return nil
}

// rowLookup checks one single-row lookup against the number it asked for.
type rowLookup struct {
	want, num int64
	str       string
	dest      []any // as in tableScan
}

func (l *rowLookup) row(r bench.Row) error {
	if l.dest == nil {
		l.dest = []any{&l.num, &l.str}
	}
	if err := r.Scan(l.dest...); err != nil {
		return err
	}
	if l.num != l.want || l.str != classicStr {
		return fmt.Errorf("wrong row (%d, %q) for number %d", l.num, l.str, l.want)
	}
	return nil
}
