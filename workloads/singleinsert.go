package workloads

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// SingleInsert (family "insert") times one INSERT of one row per operation,
// autocommitted, by 1, 2, 4 or 8 clients at once, each with its own
// connection and its own prepared statement. Ops at scale 1: 100,000 rows
// per run (a size of the published single-insert studies, which time 10^5
// rows per series); --quick inserts 1,000.
//
// The definition, exact enough for another runner (the JDBC runner
// implements it identically):
//
// Table sqlbench_<scope>_single, dropped and created again, untimed, before
// every run:
//
//	SQLite:     CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR(64) NOT NULL, value BIGINT NOT NULL)
//	MariaDB:    CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL, value BIGINT NOT NULL)
//	PostgreSQL: CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL, value BIGINT NOT NULL)
//
// (SQLite's INTEGER PRIMARY KEY is its rowid, the table's own key.)
// Statement, prepared once per client: INSERT INTO t (id, name, value)
// VALUES (?, ?, ?) ($1, $2, $3 on PostgreSQL), in autocommit mode.
//
// Operation i (0-based over the run, warm-up included) inserts the row
// id = i (every row generated before the run starts) and
//
//   - data=fixed: name = "sqlbench-single-insert-fixed-row" (32 bytes),
//     value = 1234567890;
//   - data=random: name = bench.Value(i, 0, 2, 32) (32 generated
//     alphanumeric bytes), value = int64(Mix(ValueBase + 2*i + 1) >> 1)
//     (the generator's counter of column 1 of 2, shifted to be
//     non-negative).
//
// After the run (untimed) the table is read back whole: it must hold
// exactly Warm+N rows, and the sum over its rows of RowHash(decimal id,
// name, decimal value) must equal the sum over the rows written.
//
// SQLite serializes writers on the database file: parallel clients wait
// for each other under busy_timeout (5000 ms, a session setting), so
// conns>1 measures that queueing on SQLite, not parallel inserts. The wait
// is not fair: a client that has just committed takes the lock again at
// once, while the others poll it in their busy handlers and can miss it for
// the whole timeout. Such an INSERT fails with SQLITE_BUSY, having written
// nothing (autocommit), and is retried (up to sqliteBusyRetries times); the
// operation's latency includes the wait, which is what an application
// writing to SQLite from several connections sees.
const (
	insertFamily = "insert"
	// insertSmoke is the smoke (--quick) scale: 50 INSERTs a run, since
	// each commits on its own (milliseconds with SQLite's synchronous=FULL).
	insertSmoke = 0.0005
	singleTable = "single"
	singleWidth = 32
	// singleName and singleValue are the row contents of data=fixed.
	singleName  = "sqlbench-single-insert-fixed-row"
	singleValue = int64(1234567890)
)

// sqliteBusyRetries bounds how often one INSERT is retried after SQLite's
// busy timeout ran out: 60 tries of 5 s are five minutes.
const sqliteBusyRetries = 60

// busy reports whether err is SQLite's "database is locked" (SQLITE_BUSY),
// as each SQLite driver words it.
func busy(d bench.Dialect, err error) bool {
	if d.DB != bench.SQLite {
		return false
	}
	m := err.Error()
	return strings.Contains(m, "database is locked") || strings.Contains(m, "SQLITE_BUSY")
}

func init() {
	for _, w := range singleInsertWorkloads() {
		bench.RegisterWorkload(w)
	}
}

// singleDDL returns the CREATE TABLE of table on d.
func singleDDL(d bench.Dialect, table string) string {
	id := "BIGINT"
	if d.DB == bench.SQLite {
		id = "INTEGER"
	}
	return "CREATE TABLE " + table + " (id " + id + " PRIMARY KEY, name VARCHAR(64) NOT NULL, value BIGINT NOT NULL)"
}

// singleInsert returns the INSERT statement on d.
func singleInsert(d bench.Dialect) string {
	return "INSERT INTO " + d.Table(singleTable) + " (id, name, value) VALUES (" + d.Param(1) + ", " + d.Param(2) + ", " + d.Param(3) + ")"
}

// singleRow returns the name and value of row i.
func singleRow(random bool, i int) (string, int64) {
	if !random {
		return singleName, singleValue
	}
	return bench.Value(i, 0, 2, singleWidth), int64(bench.Mix(bench.ValueBase+2*uint64(i)+1) >> 1)
}

// singleHash is the hash of one row, written or read back.
func singleHash(id int64, name []byte, value int64) uint64 {
	h := bench.NewRowHasher()
	h.AddInt(id)
	h.AddBytes(name)
	h.AddInt(value)
	return h.Sum()
}

func singleInsertWorkloads() []bench.Workload {
	var ws []bench.Workload
	for _, random := range []bool{false, true} {
		data := "fixed"
		if random {
			data = "random"
		}
		for _, n := range []int{1, 2, 4, 8} {
			ws = append(ws, bench.Workload{
				Name: "SingleInsert", Keys: "data=" + data + "/conns=" + strconv.Itoa(n),
				Family: insertFamily, Ops: 100_000, Unit: "rows", Smoke: insertSmoke,
				NoWarmup: true, // the published benchmark inserted into an empty table
				Describe: func(d bench.Dialect) string {
					return fmt.Sprintf("`%s` autocommitted, one row per operation, %s data, %s; row count and checksum verified", singleInsert(d), data, clients(n))
				},
				Setup: func(bench.Env) error { return nil },
				Begin: func(e bench.Env) (bench.Run, error) { return singleInsertRun(e, n, random) },
				Teardown: func(e bench.Env) error {
					return e.Conn.Exec("DROP TABLE IF EXISTS " + e.Dialect.Table(singleTable))
				},
			})
		}
	}
	return ws
}

// clients says how many clients insert.
func clients(n int) string {
	if n == 1 {
		return "1 client with its own connection and prepared statement"
	}
	return fmt.Sprintf("%d clients, each with its own connection and prepared statement", n)
}

// singleInsertRun recreates the table, opens n clients and prepares the
// INSERT on each.
func singleInsertRun(e bench.Env, n int, random bool) (bench.Run, error) {
	c, d, table := e.Conn, e.Dialect, e.Dialect.Table(singleTable)
	for _, q := range []string{"DROP TABLE IF EXISTS " + table, singleDDL(d, table)} {
		if err := c.Exec(q); err != nil {
			return bench.Run{}, fmt.Errorf("recreate %s: %w", table, err)
		}
	}
	var (
		conns []bench.Conn
		stmts []bench.Stmt
	)
	release := func() error {
		var first error
		for _, s := range stmts {
			if err := s.Close(); err != nil && first == nil {
				first = fmt.Errorf("close statement: %w", err)
			}
		}
		for _, cc := range conns {
			if err := cc.Close(); err != nil && first == nil {
				first = fmt.Errorf("close client: %w", err)
			}
		}
		return first
	}
	q := singleInsert(d)
	// The rows are generated before the clock starts, as the published
	// benchmark's are.
	total := e.Warm + e.N
	names, values := make([]string, total), make([]int64, total)
	for i := range total {
		names[i], values[i] = singleRow(random, i)
	}
	ops := make([]func(int) error, n)
	for k := range ops {
		cc, err := e.Open(e.Ctx, 0)
		if err != nil {
			release()
			return bench.Run{}, fmt.Errorf("open client %d: %w", k, err)
		}
		conns = append(conns, cc)
		s, err := cc.Prepare(q)
		if err != nil {
			release()
			return bench.Run{}, fmt.Errorf("prepare on client %d: %w", k, err)
		}
		stmts = append(stmts, s)
		ops[k] = func(i int) error {
			name, value := names[i], values[i]
			err := s.Exec(int64(i), name, value)
			for try := 0; try < sqliteBusyRetries && err != nil && busy(d, err); try++ {
				err = s.Exec(int64(i), name, value)
			}
			return err
		}
	}
	end := func() error {
		if err := release(); err != nil {
			return err
		}
		return verifySingle(c, table, random, total)
	}
	return bench.Run{Parallel: ops, End: end}, nil
}

// verifySingle reads the table back and compares it with rows 0..total-1.
func verifySingle(c bench.Conn, table string, random bool, total int) error {
	var want bench.Checksum
	for i := range total {
		name, value := singleRow(random, i)
		want.Add(singleHash(int64(i), []byte(name), value))
	}
	var (
		got   bench.Checksum
		id, v int64
		name  []byte
	)
	dest := []any{&id, &name, &v}
	err := c.Query("SELECT id, name, value FROM "+table, func(r bench.Row) error {
		if err := r.Scan(dest...); err != nil {
			return err
		}
		got.Add(singleHash(id, name, v))
		return nil
	})
	if err != nil {
		return fmt.Errorf("read back %s: %w", table, err)
	}
	if got != want {
		return fmt.Errorf("%s holds %d rows (checksum %x), want %d rows (checksum %x)", table, got.Rows, got.Sum, want.Rows, want.Sum)
	}
	return nil
}
