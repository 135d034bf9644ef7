package workloads

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// The sqinn family is the Sqinn-Go benchmark suite (cvilsmeier/sqinn-go-bench,
// published with mattn, crawshaw and sqinn figures), a different suite from
// the 2026 go-sqlite-bench one (the suite family), with its own tables:
//
//   - simple: users(id, name, age, rating), 1,000,000 rows inserted in one
//     transaction, then read whole;
//   - complex: profiles, devices (100 a profile) and locations (10 a
//     device) with foreign keys and an index on every name, active flag and
//     foreign key; 200 profiles, 20,000 devices, 200,000 locations, each
//     table inserted in a transaction of its own, then read in one
//     three-way LEFT JOIN;
//   - many: cars(id, company, model) of N = 10, 100, 1,000 rows read whole
//     1,000 times;
//   - large: plants(id, name) of 500 rows whose name is N = 2,000, 4,000,
//     8,000 bytes, read whole 100 times;
//   - concurrent: books(id, name) of 1,000,000 rows read whole by N = 2,
//     4, 8 goroutines at once, each opening its own connection.
//
// As in the published program, the inserts format each row's values in
// the timed loop, and the reads scan every row and check it in the timed
// loop (the published program checks that each value is plausible; here
// each is compared with the value written, precomputed before the run).
// The published program times the whole insert and one pass of each read;
// here one operation is one row inserted or one query (one round for
// concurrent).
//
// Each published program calls its driver in its own way, and so does each
// target here. The mattn and crawshaw programs execute one prepared INSERT
// per row in the transaction and step through a query's rows, scanning
// (mattn) into sql.NullInt32, sql.NullString and sql.NullFloat64; the
// reads here scan into the same types. The sqinn program formats all the
// rows of a table into one slice and inserts them with one sqinn Exec
// request, and reads each query with one sqinn Query request that returns
// every row; where the target has those calls (bench.RowsExecer and
// bench.WholeQuerier: sqinn) the workloads make them. The crawshaw program
// takes its connection from a sqlitex.Pool with Get(nil) before its clock
// starts and puts it back when its test is done, and its concurrent test
// opens a pool of N connections before its clock, from which each
// goroutine takes one and puts it back in the timed region; where the
// target's connection is held so (bench.Holder: crawshaw) the workloads
// do the same (sqinnHeld, sqinnConcurrentRun).
const (
	sqinnFamily = "sqinn"
	// Table sizes of the published suite.
	sqinnUsers              = 1_000_000
	sqinnProfiles           = 200
	sqinnDevicesPerProfile  = 100
	sqinnLocationsPerDevice = 10
	sqinnLocations          = sqinnProfiles * sqinnDevicesPerProfile * sqinnLocationsPerDevice
	sqinnManyQueries        = 1000
	sqinnPlants             = 500
	sqinnPlantQueries       = 100
	sqinnBooks              = 1_000_000
	// Smoke scales: 1,000 users or books, one profile (1,000 locations).
	sqinnSmoke        = 0.001
	sqinnComplexSmoke = 0.005
)

func init() {
	for _, ws := range [][]bench.Workload{sqinnSimple(), sqinnComplex(), sqinnMany(), sqinnLarge(), sqinnConcurrent()} {
		for _, w := range ws {
			w.Family = sqinnFamily
			w.NoWarmup = true // the published program times each test once on a fresh database
			bench.RegisterWorkload(w)
		}
	}
}

// sqinnVarchar returns the type of a text column of d that may be indexed:
// VARCHAR as published, with a length on MariaDB, which needs one.
func sqinnVarchar(d bench.Dialect) string {
	if d.DB == bench.MariaDB {
		return "VARCHAR(64)"
	}
	return "VARCHAR"
}

// sqinnTypes returns the published BOOL and REAL columns' types on d: the
// flags are written as the integers 0 and 1, and the rating needs 64 bits
// (SQLite's REAL; PostgreSQL's REAL is 32).
func sqinnTypes(d bench.Dialect) (boolean, real string) {
	switch d.DB {
	case bench.SQLite:
		return "BOOL", "REAL"
	case bench.MariaDB:
		return "INTEGER", "DOUBLE"
	default:
		return "INTEGER", "DOUBLE PRECISION"
	}
}

// sqinnDropper returns the Teardown dropping tables.
func sqinnDropper(tables ...string) func(bench.Env) error {
	return func(e bench.Env) error { return recreateTables(e, tables) }
}

// sqinnOneTable is a table of the simple, many, large and concurrent
// tests: an integer key and text or numeric columns, written in one
// transaction, read whole in id order.
type sqinnOneTable struct {
	base string
	cols []string                                // the columns after id
	ddl  func(d bench.Dialect) string            // the column definitions after id
	row  func(vals []any, id int) []any          // appends the values after id, formatted as the published program does
	bind func(b bench.ParamBinder, id int) error // binds the whole row with typed calls, if the table is inserted timed
	dest func() []any                            // fresh scan destinations after id: the published sql.Null types
	// same compares a row read with row id as written, computing the
	// values from id in buf (a reader's scratch space): no table of the
	// values written is held, which the published programs do not hold
	// either (a million rows of it cost the garbage collector's marking
	// on every cycle of the timed read).
	same func(got []any, id int, buf *[]byte) bool
	// plausible is the published programs' check of a row in their timed
	// loops: the id at least 1 and each value past a bound (a text's
	// length, a number's least value), which the timed reads make.
	plausible func(got []any, id int32) bool
}

func (t sqinnOneTable) create(d bench.Dialect) string {
	engine := ""
	if d.DB == bench.MariaDB {
		engine = " ENGINE=InnoDB"
	}
	in := "INTEGER"
	if d.DB != bench.SQLite {
		in = "BIGINT"
	}
	return "CREATE TABLE " + d.Table(t.base) + " (id " + in + " PRIMARY KEY NOT NULL, " + t.ddl(d) + ")" + engine
}

func (t sqinnOneTable) insert(d bench.Dialect) string {
	ps := []string{d.Param(1)}
	for i := range t.cols {
		ps = append(ps, d.Param(i+2))
	}
	return "INSERT INTO " + d.Table(t.base) + " (id, " + strings.Join(t.cols, ", ") + ") VALUES (" +
		strings.Join(ps, ", ") + ")"
}

func (t sqinnOneTable) query(d bench.Dialect) string {
	return "SELECT id, " + strings.Join(t.cols, ", ") + " FROM " + d.Table(t.base) + " ORDER BY id"
}

// fill recreates the table and inserts rows 1..n untimed.
func (t sqinnOneTable) fill(e bench.Env, n int) error {
	if err := recreateTables(e, []string{t.base}, t.create(e.Dialect)); err != nil {
		return err
	}
	ins, err := beginTxInsert(e.Conn, t.insert(e.Dialect))
	if err != nil {
		return err
	}
	args := make([]any, 0, 1+len(t.cols))
	for id := 1; id <= n; id++ {
		if err := ins.stmts[0].Exec(t.row(append(args[:0], id), id)...); err != nil {
			ins.abort()
			return fmt.Errorf("fill %s: %w", e.Dialect.Table(t.base), err)
		}
	}
	return ins.commit()
}

// reader returns a reader of the whole table of n rows, with scan
// destinations of its own.
func (t sqinnOneTable) reader(n int, exact bool) *sqinnReader {
	r := &sqinnReader{t: t, rows: n, vals: t.dest(), exact: exact}
	r.dest = append([]any{&r.id}, r.vals...)
	r.rowFn, r.nextFn = r.row, r.next // bound once: a method value allocates
	return r
}

// sqinnReader reads the table whole and checks each row: exact, against
// the values written, computed from its id (the reads outside the clock:
// an insert's read back, a timed read run's End), else as the published
// programs check it in their timed loops (t.plausible: the id at least 1,
// texts at least 5 bytes; the row count checked at the end of the read).
// Its columns scan into the published mattn program's sql.Null types (the
// id into sql.NullInt32).
type sqinnReader struct {
	t      sqinnOneTable
	rows   int
	exact  bool
	buf    []byte
	id     sql.NullInt32
	vals   []any
	dest   []any
	n      int
	rowFn  bench.RowFunc
	nextFn func() error
}

// read runs one read of the whole table on c: one whole-result call where
// c's API has one (sqinn's Query, as the published sqinn program reads),
// else a query whose rows are scanned one by one, through the library's
// statement cache where it has one (crawshaw's Conn.Prepare, as the
// published crawshaw program reads; mattn's program calls db.Query).
func (r *sqinnReader) read(c bench.Conn, q string) error {
	if wq, ok := c.(bench.WholeQuerier); ok {
		return r.check(wq.QueryWhole(q, r.dest, r.nextFn))
	}
	return r.check(bench.QueryCached(c, q, r.rowFn))
}

func (r *sqinnReader) row(row bench.Row) error {
	if err := sqinnScan(row, r.dest); err != nil {
		return err
	}
	return r.next()
}

// sqinnScan scans row into dest, sql.Null types. A native row (bench.Columns)
// is read as the published crawshaw program reads each column: its type
// first, then, unless NULL, its value with the typed call
// (stmt.ColumnType, then ColumnInt, ColumnText or ColumnFloat); any other
// row through its Scan, as the mattn program's rows.Scan.
func sqinnScan(row bench.Row, dest []any) error {
	c, ok := row.(bench.Columns)
	if !ok {
		return row.Scan(dest...)
	}
	for i, d := range dest {
		null := c.ColumnNull(i)
		switch d := d.(type) {
		case *sql.NullInt32:
			if null {
				*d = sql.NullInt32{}
			} else {
				*d = sql.NullInt32{Int32: int32(c.ColumnInt64(i)), Valid: true}
			}
		case *sql.NullString:
			if null {
				*d = sql.NullString{}
			} else {
				*d = sql.NullString{String: c.ColumnText(i), Valid: true}
			}
		case *sql.NullFloat64:
			if null {
				*d = sql.NullFloat64{}
			} else {
				*d = sql.NullFloat64{Float64: c.ColumnFloat(i), Valid: true}
			}
		case *sql.NullBool:
			if null {
				*d = sql.NullBool{}
			} else {
				*d = sql.NullBool{Bool: c.ColumnInt64(i) != 0, Valid: true}
			}
		default:
			return fmt.Errorf("scan: unsupported destination %T for column %d", d, i)
		}
	}
	return nil
}

// next checks the row just stored in the destinations.
func (r *sqinnReader) next() error {
	r.n++
	if !r.exact {
		if !r.t.plausible(r.vals, r.id.Int32) {
			return fmt.Errorf("wrong %s row %d", r.t.base, r.n)
		}
		return nil
	}
	if !r.id.Valid || int(r.id.Int32) != r.n {
		return fmt.Errorf("row %d has id %v: out of order or missing", r.n, r.id)
	}
	if r.n > r.rows || !r.t.same(r.vals, r.n, &r.buf) {
		return fmt.Errorf("wrong %s row %d", r.t.base, r.n)
	}
	return nil
}

// check ends one read: it passes err through or checks the count.
func (r *sqinnReader) check(err error) error {
	n := r.n
	r.n = 0
	if err != nil {
		return err
	}
	if n != r.rows {
		return fmt.Errorf("read %d rows of %s, want %d", n, r.t.base, r.rows)
	}
	return nil
}

// sqinnInsertRun begins a run inserting one row of t per operation (ids
// from 1) in one transaction whose commit is timed; the table is read back
// afterwards. Where the target's API runs a statement for many rows in one
// call (bench.RowsExecer: sqinn's Exec, as the published sqinn program
// inserts), the run formats all its rows into one slice of values and
// hands them to that call; elsewhere it executes one statement, prepared
// in the transaction, per row (as the published mattn and crawshaw
// programs do).
func sqinnInsertRun(t sqinnOneTable) func(bench.Env) (bench.Run, error) {
	return func(e bench.Env) (bench.Run, error) {
		if err := recreateTables(e, []string{t.base}, t.create(e.Dialect)); err != nil {
			return bench.Run{}, err
		}
		q := t.insert(e.Dialect)
		rx, whole := e.Conn.(bench.RowsExecer)
		// The published programs begin the transaction (and prepare the
		// insert) after starting their clock: Run.Start.
		ins := &suiteTxInsert{}
		start := func() error { return ins.begin(e.Conn, q) }
		if whole {
			start = func() error { return ins.begin(e.Conn) }
		}
		end := func() error {
			if !ins.done {
				ins.abort()
				return nil
			}
			if err := t.reader(e.Warm+e.N, true).read(e.Conn, t.query(e.Dialect)); err != nil {
				return fmt.Errorf("verify: %w", err)
			}
			return nil
		}
		ncols := 1 + len(t.cols)
		if whole {
			return bench.Run{
				Batch: func(first, n int) error {
					values := make([]any, 0, n*ncols)
					for id := first + 1; id <= first+n; id++ {
						values = t.row(append(values, id), id)
					}
					return rx.ExecRows(q, ncols, values)
				},
				Start:  start,
				Finish: ins.commit,
				End:    end,
			}, nil
		}
		// Where the statement binds with typed calls (bench.BoundExecer:
		// crawshaw's BindInt64, BindText, BindFloat, as the published
		// crawshaw program binds) each row goes through them; elsewhere
		// its values go in one Exec (mattn's stmt.Exec, as published).
		var typed bench.BoundExecer
		start = func() error {
			if err := ins.begin(e.Conn, q); err != nil {
				return err
			}
			typed, _ = ins.stmts[0].(bench.BoundExecer)
			return nil
		}
		args := make([]any, 0, ncols)
		return bench.Run{
			Start: start,
			Op: func(i int) error {
				id := i + 1
				if typed != nil && t.bind != nil {
					if err := t.bind(typed, id); err != nil {
						return err
					}
					return typed.ExecBound()
				}
				return ins.stmts[0].Exec(t.row(append(args[:0], id), id)...)
			},
			Finish: ins.commit,
			End:    end,
		}, nil
	}
}

// bindAll returns the first error of a row's typed binds, if any; taking
// them as a fixed list keeps the row free of allocations (errors.Join's
// slice would escape).
func bindAll(e1, e2, e3, e4 error) error {
	for _, err := range [...]error{e1, e2, e3, e4} {
		if err != nil {
			return err
		}
	}
	return nil
}

// sqinnHeld returns begin with the cell's connection held from before the
// run until its End where the published program holds its connection for a
// test (bench.Holder: the Sqinn-Go craw program takes it from its
// sqlitex.Pool with Get(nil) before its clock starts and puts it back when
// the test is done); elsewhere it returns begin's run as it is.
func sqinnHeld(begin func(bench.Env) (bench.Run, error)) func(bench.Env) (bench.Run, error) {
	return func(e bench.Env) (bench.Run, error) {
		h, ok := e.Conn.(bench.Holder)
		if !ok {
			return begin(e)
		}
		if err := h.Hold(); err != nil {
			return bench.Run{}, err
		}
		r, err := begin(e)
		if err != nil {
			h.Release()
			return r, err
		}
		end := r.End
		r.End = func() error {
			defer h.Release()
			if end == nil {
				return nil
			}
			return end()
		}
		return r, nil
	}
}

// sqinnReadRun begins a run whose operation reads the whole table of rows
// rows (times --scale unless fixed).
func sqinnReadRun(t sqinnOneTable, rows int, fixed bool) func(bench.Env) (bench.Run, error) {
	return func(e bench.Env) (bench.Run, error) {
		n := rows
		if !fixed {
			n = e.Scaled(rows)
		}
		c, q, r := e.Conn, t.query(e.Dialect), t.reader(n, false)
		// The published check in the timed loop; every row checked
		// exactly once, after the run.
		return bench.Run{Op: func(int) error { return r.read(c, q) },
			End: func() error { return t.reader(n, true).read(c, q) }}, nil
	}
}

// sqinnUsersTable is the simple test's table.
func sqinnUsersTable() sqinnOneTable {
	return sqinnOneTable{
		base: "users", cols: []string{"name", "age", "rating"},
		ddl: func(d bench.Dialect) string {
			_, real := sqinnTypes(d)
			return "name " + sqinnVarchar(d) + ", age INTEGER, rating " + real
		},
		row: func(vals []any, id int) []any {
			return append(vals, fmt.Sprintf("User_%d", id), 33+id, 0.13*float64(id))
		},
		bind: func(b bench.ParamBinder, id int) error {
			return bindAll(b.BindInt64(1, int64(id)), b.BindText(2, fmt.Sprintf("User_%d", id)),
				b.BindInt64(3, int64(33+id)), b.BindFloat(4, 0.13*float64(id)))
		},
		dest: func() []any { return []any{new(sql.NullString), new(sql.NullInt32), new(sql.NullFloat64)} },
		same: func(got []any, id int, buf *[]byte) bool {
			name, age, rating := got[0].(*sql.NullString), got[1].(*sql.NullInt32), got[2].(*sql.NullFloat64)
			return name.Valid && age.Valid && rating.Valid && sqinnNumbered(name.String, "User_", id, buf) &&
				age.Int32 == int32(33+id) && rating.Float64 == 0.13*float64(id)
		},
		plausible: func(got []any, id int32) bool {
			name, age, rating := got[0].(*sql.NullString), got[1].(*sql.NullInt32), got[2].(*sql.NullFloat64)
			return id >= 1 && len(name.String) >= 5 && age.Int32 >= 33 && rating.Float64 >= 0.13
		},
	}
}

// sqinnNumbered reports whether s is prefix followed by id in decimal,
// formatting id into buf: no allocation.
func sqinnNumbered(s, prefix string, id int, buf *[]byte) bool {
	*buf = strconv.AppendInt(append((*buf)[:0], prefix...), int64(id), 10)
	return s == string(*buf)
}

// sqinnText is a text column's value: its text followed by the row's id
// in decimal (numbered) or its text alone.
type sqinnText struct {
	text     string
	numbered bool
}

func (v sqinnText) of(id int) string {
	if v.numbered {
		return v.text + strconv.Itoa(id)
	}
	return v.text
}

func (v sqinnText) is(s string, id int, buf *[]byte) bool {
	if v.numbered {
		return sqinnNumbered(s, v.text, id, buf)
	}
	return s == v.text
}

// sqinnTextTable is a table of an id and text columns whose values are
// vals[column] of the id; the published programs' timed loops check that
// each is at least minLen bytes long.
func sqinnTextTable(base string, cols []string, vals []sqinnText, minLen int,
	ddl func(d bench.Dialect) string) sqinnOneTable {
	return sqinnOneTable{
		base: base, cols: cols, ddl: ddl,
		row: func(row []any, id int) []any {
			for c := range cols {
				row = append(row, vals[c].of(id))
			}
			return row
		},
		dest: func() []any {
			d := make([]any, len(cols))
			for c := range d {
				d[c] = new(sql.NullString)
			}
			return d
		},
		same: func(got []any, id int, buf *[]byte) bool {
			for c := range got {
				if s := got[c].(*sql.NullString); !s.Valid || !vals[c].is(s.String, id, buf) {
					return false
				}
			}
			return true
		},
		plausible: func(got []any, id int32) bool {
			if id < 1 {
				return false
			}
			for _, g := range got {
				if len(g.(*sql.NullString).String) < minLen {
					return false
				}
			}
			return true
		},
	}
}

func sqinnCarsTable() sqinnOneTable {
	return sqinnTextTable("cars", []string{"company", "model"}, []sqinnText{{"Company ", true}, {"Model ", true}}, 5,
		func(d bench.Dialect) string { return "company " + sqinnVarchar(d) + ", model " + sqinnVarchar(d) })
}

// sqinnPlantName returns the large test's name: "Name " repeated to at
// least size bytes.
func sqinnPlantName(size int) string { return strings.Repeat("Name ", (size+4)/5) }

func sqinnPlantsTable(size int) sqinnOneTable {
	name := sqinnPlantName(size)
	return sqinnTextTable("plants", []string{"name"}, []sqinnText{{name, false}}, size, func(d bench.Dialect) string {
		if d.DB == bench.MariaDB {
			return "name TEXT"
		}
		return "name VARCHAR"
	})
}

func sqinnBooksTable() sqinnOneTable {
	return sqinnTextTable("books", []string{"name"}, []sqinnText{{"Book ", true}}, 5,
		func(d bench.Dialect) string { return "name " + sqinnVarchar(d) })
}

func sqinnSimple() []bench.Workload {
	t := sqinnUsersTable()
	return []bench.Workload{
		{
			Name: "SqinnSimpleInsert", Whole: true, Ops: sqinnUsers, Unit: "rows", Smoke: sqinnSmoke,
			Describe: func(d bench.Dialect) string {
				return "`" + t.insert(d) + "` through one statement prepared in one transaction (crawshaw: bound " +
					"with its typed calls; sqinn: all the rows in one Exec request), one user per operation, its " +
					"name formatted in the timed loop (`User_<id>`, age 33+id, rating 0.13·id), commit timed; table " +
					"recreated before each run"
			},
			Setup: func(bench.Env) error { return nil }, Teardown: sqinnDropper(t.base),
			Begin: sqinnHeld(sqinnInsertRun(t)),
		},
		{
			Name: "SqinnSimpleQuery", Ops: 5, Unit: "queries", ScaledData: true, Smoke: sqinnSmoke,
			Describe: func(d bench.Dialect) string {
				return "`" + t.query(d) + "` reading all 1,000,000 users (times --scale) in one query (sqinn: one " +
					"Query request returning every row), each row scanned into sql.Null types and checked in the " +
					"timed loop as published (id, name length, age, rating at least 1, 5, 33, 0.13)" + sqinnExactNote
			},
			Setup:    func(e bench.Env) error { return t.fill(e, e.Scaled(sqinnUsers)) },
			Teardown: sqinnDropper(t.base),
			Begin:    sqinnHeld(sqinnReadRun(t, sqinnUsers, false)),
		},
	}
}

func sqinnMany() []bench.Workload {
	var ws []bench.Workload
	t := sqinnCarsTable()
	for _, n := range []int{10, 100, 1000} {
		ws = append(ws, bench.Workload{
			Name: "SqinnMany", Keys: "n=" + strconv.Itoa(n), Ops: sqinnManyQueries, Unit: "queries",
			Describe: func(d bench.Dialect) string {
				return "`" + t.query(d) + "` reading all " + strconv.Itoa(n) + " cars, unprepared (crawshaw: its " +
					"cached statement, as published; sqinn: one Query request), each row scanned into sql.Null types " +
					"and checked in the timed loop as published (id at least 1, each text at least 5 bytes)" +
					sqinnExactNote
			},
			Setup:    func(e bench.Env) error { return t.fill(e, n) },
			Teardown: sqinnDropper(t.base),
			Begin:    sqinnHeld(sqinnReadRun(t, n, true)),
		})
	}
	return ws
}

func sqinnLarge() []bench.Workload {
	var ws []bench.Workload
	for _, size := range []int{2000, 4000, 8000} {
		t := sqinnPlantsTable(size)
		ws = append(ws, bench.Workload{
			Name: "SqinnLarge", Keys: "size=" + strconv.Itoa(size), Ops: sqinnPlantQueries, Unit: "queries",
			Describe: func(d bench.Dialect) string {
				return "`" + t.query(d) + "` reading all 500 plants, each with a " + strconv.Itoa(size) +
					"-byte name, unprepared (crawshaw: its cached statement, as published; sqinn: one Query " +
					"request), each row scanned into sql.Null types and checked in the timed loop as published " +
					"(id at least 1, the name at least " + strconv.Itoa(size) + " bytes)" + sqinnExactNote
			},
			Setup:    func(e bench.Env) error { return t.fill(e, sqinnPlants) },
			Teardown: sqinnDropper(t.base),
			Begin: sqinnHeld(func(e bench.Env) (bench.Run, error) {
				r, err := sqinnReadRun(t, sqinnPlants, true)(e)
				r.BytesPerOp = float64(sqinnPlants * len(sqinnPlantName(size)))
				return r, err
			}),
		})
	}
	return ws
}

func sqinnConcurrent() []bench.Workload {
	var ws []bench.Workload
	t := sqinnBooksTable()
	for _, n := range []int{2, 4, 8} {
		ws = append(ws, bench.Workload{
			Name: "SqinnConcurrent", Keys: "goroutines=" + strconv.Itoa(n), Ops: 2, Unit: "rounds", ScaledData: true,
			Smoke: sqinnSmoke,
			Describe: func(d bench.Dialect) string {
				return strconv.Itoa(n) + " goroutines at once each open a connection of their own, run `" + t.query(d) +
					"` reading all 1,000,000 books (times --scale) (sqinn: one Query request), scanning each row " +
					"into sql.Null types and checking it as published (id at least 1, the name at least 5 bytes), " +
					"and close it" + sqinnExactNote +
					" (crawshaw: each takes one of " + strconv.Itoa(n) + " connections opened before the clock from " +
					"its sqlitex.Pool and puts it back, as published); one operation is one round"
			},
			Setup:    func(e bench.Env) error { return t.fill(e, e.Scaled(sqinnBooks)) },
			Teardown: sqinnDropper(t.base),
			Begin:    func(e bench.Env) (bench.Run, error) { return sqinnConcurrentRun(e, t, n) },
		})
	}
	return ws
}

// sqinnConcurrentRun begins a run of the concurrent test with n goroutines.
// The published mattn and sqinn programs open each goroutine's connection
// (a sql.DB, a sqinn process) inside the timed region and close it there;
// the crawshaw program opens a sqlitex.Pool of n connections before its
// clock starts, and each goroutine takes one with Get(nil) and puts it back
// inside the timed region. Where the cell's connection is held so
// (bench.Holder), the run opens the n connections before the clock and
// each goroutine holds and releases its own in the round; elsewhere each
// goroutine opens and closes its own in the round.
func sqinnConcurrentRun(e bench.Env, t sqinnOneTable, n int) (bench.Run, error) {
	q, rows := t.query(e.Dialect), e.Scaled(sqinnBooks)
	readers := make([]*sqinnReader, n)
	for k := range readers {
		readers[k] = t.reader(rows, false)
	}
	var pooled []bench.Conn // the connections held in the round, if any
	if _, ok := e.Conn.(bench.Holder); ok {
		for k := range n {
			c, err := e.Open(e.Ctx, 0)
			if err == nil {
				if _, ok := c.(bench.Holder); !ok {
					err = errors.Join(errors.New("not held from a pool as the cell's connection is"), c.Close())
				}
			}
			if err != nil {
				return bench.Run{}, errors.Join(fmt.Errorf("open connection %d: %w", k, err), closeAll(pooled))
			}
			pooled = append(pooled, c)
		}
	}
	read := func(k int) error {
		if pooled != nil {
			c := pooled[k]
			h := c.(bench.Holder)
			if err := h.Hold(); err != nil {
				return err
			}
			defer h.Release()
			return readers[k].read(c, q)
		}
		c, err := e.Open(e.Ctx, 0)
		if err != nil {
			return fmt.Errorf("open: %w", err)
		}
		return errors.Join(readers[k].read(c, q), c.Close())
	}
	errs := make([]error, n)
	clients := bench.NewClients(n)
	r := bench.Run{Clients: clients, Op: func(int) error {
		clients.Go(func(k int) {
			if err := read(k); err != nil {
				errs[k] = fmt.Errorf("goroutine %d: %w", k, err)
			}
		})
		err := errors.Join(errs...)
		clear(errs)
		return err
	}}
	// The goroutines check each row as the published programs do (id and
	// length); every row is checked exactly once, after the run, on the
	// cell's connection (held for it where it is held from a pool).
	r.End = func() error {
		err := sqinnHeldRead(e.Conn, func() error { return t.reader(rows, true).read(e.Conn, q) })
		if pooled != nil {
			err = errors.Join(err, closeAll(pooled))
		}
		return err
	}
	return r, nil
}

// sqinnExactNote ends the descriptions of the reads that check their rows
// in the clock as the published programs do.
const sqinnExactNote = "; every row checked exactly once after the run, clock stopped"

// sqinnHeldRead runs read on c, held for it where c is held from a pool
// (bench.Holder).
func sqinnHeldRead(c bench.Conn, read func() error) error {
	h, ok := c.(bench.Holder)
	if !ok {
		return read()
	}
	if err := h.Hold(); err != nil {
		return err
	}
	defer h.Release()
	return read()
}

// closeAll closes every connection of cs.
func closeAll(cs []bench.Conn) error {
	var errs []error
	for _, c := range cs {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}
