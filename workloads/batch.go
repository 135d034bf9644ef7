package workloads

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/sqlbench/sqlbench/bench"
)

// The batch family sends batchSize statements per operation, inserts of
// one row or point selects of one row, by each path a driver has (its
// bench.Batcher's): one statement per round trip (path=each, on every
// server target: the statement prepared once per run, one execution per
// statement), pgx's pgx.Batch sent with SendBatch (path=sendbatch), pgx's
// pipeline mode on pgconn (path=pipeline) and MySQL multi-statements
// (path=multistmt, go-sql-driver on a connection of its own with
// multiStatements=true and interpolateParams=true); on the JDBC targets,
// executeBatch (path=executebatch) and executeBatch with the driver's
// rewrite option (path=rewrite), inserts only. The same statements
// run on every path, so that the ratio of a path to path=each on one target
// is what the driver's batching saves. Inserted rows are read back and
// checked when the run ends; every selected row is checked inside the
// timed loop, as the other families' reads are.
//
// SQLite is left out: its statements are calls into the library in the
// program's own process, with no round trip to save.
const (
	batchFamily  = "batch"
	batchName    = "Batch"
	batchSize    = 50   // statements per operation (one batch)
	batchOps     = 200  // batches per run at scale 1
	batchSelRows = 1000 // rows of the select table
	batchIns     = "batchins"
	batchSel     = "batchsel"
)

// batchPath is one way of sending a batch's statements.
type batchPath struct {
	key  string    // path= in the workload's keys
	cap  bench.Cap // the capability a target needs for it; "" for path=each
	db   bench.DB  // the one database it runs on; "" for both servers
	op   string    // the one op it has; "" for both
	desc string
}

var batchPaths = []batchPath{
	{key: "each", desc: "one statement per round trip: the statement prepared once per run (untimed), " +
		"one execution of it per statement (Stmt.Exec, Stmt.QueryRow)"},
	{key: "sendbatch", cap: bench.CapSendBatch, db: bench.Postgres,
		desc: "pgx.Batch: every statement queued (Batch.Queue), sent with Conn.SendBatch, results read in order " +
			"(pgx's default statement cache; one Sync, so the batch is one implicit transaction)"},
	{key: "pipeline", cap: bench.CapPipeline, db: bench.Postgres,
		desc: "pgconn pipeline mode: the statement prepared once per run (untimed), then StartPipeline, " +
			"SendQueryPrepared per statement (text arguments), Sync, GetResults per statement, Close " +
			"(one Sync: one implicit transaction)"},
	{key: "multistmt", cap: bench.CapMultiStmt, db: bench.MariaDB,
		desc: "MySQL multi-statements: the statements joined by ';' into one text, arguments interpolated by " +
			"the driver, one Exec or Query (result sets read with NextResultSet), on a connection of its own " +
			"opened with the DSN options multiStatements=true and interpolateParams=true (this family only; " +
			"each statement autocommitted)"},
	// JDBC's own paths, run by the JDBC runner only (jdbc/.../BatchWorkloads.java).
	{key: "executebatch", cap: bench.CapBatch, op: "insert",
		desc: "JDBC: the statement prepared once per run, addBatch per statement, executeBatch per operation " +
			"(autocommit, the driver's defaults)"},
	{key: "rewrite", cap: bench.CapRewrite, op: "insert",
		desc: "JDBC executeBatch on a connection of its own with the driver's rewrite option " +
			"(Connector/J rewriteBatchedStatements=true, pgjdbc reWriteBatchedInserts=true: multi-row INSERTs)"},
}

func init() {
	for _, op := range []string{"insert", "select"} {
		for _, p := range batchPaths {
			if p.op != "" && p.op != op {
				continue
			}
			w := bench.Workload{
				Name: batchName, Keys: "op=" + op + "/path=" + p.key, Family: batchFamily,
				Ops: batchOps, Unit: "batches", Needs: p.cap,
				Only:     []bench.DB{bench.MariaDB, bench.Postgres},
				Describe: batchDescribe(op, p),
			}
			if p.db != "" {
				w.Only = []bench.DB{p.db}
			}
			switch {
			case p.cap == bench.CapBatch || p.cap == bench.CapRewrite:
				w.Setup, w.Teardown, w.Begin = batchInsertSetup, batchTeardown(batchIns), jdbcOnly
			case op == "insert":
				w.Setup, w.Teardown = batchInsertSetup, batchTeardown(batchIns)
				w.Begin = func(e bench.Env) (bench.Run, error) { return batchInsertRun(e, p.key) }
			default:
				w.Setup, w.Teardown = batchSelectSetup, batchTeardown(batchSel)
				w.Begin = func(e bench.Env) (bench.Run, error) { return batchSelectRun(e, p.key) }
			}
			bench.RegisterWorkload(w)
		}
	}
}

func batchDescribe(op string, p batchPath) func(d bench.Dialect) string {
	return func(d bench.Dialect) string {
		if op == "insert" {
			return fmt.Sprintf("%d × `%s` per operation (one row each, autocommitted unless the path says), %s; "+
				"rows read back and checked after the run", batchSize, batchInsertSQL(d), p.desc)
		}
		return fmt.Sprintf("%d × `%s` per operation (a point select of a %d-row table), %s; every value checked",
			batchSize, batchSelectSQL(d), batchSelRows, p.desc)
	}
}

func batchInsertSQL(d bench.Dialect) string {
	return "INSERT INTO " + d.Table(batchIns) + " (id, v) VALUES (" + d.Param(1) + ", " + d.Param(2) + ")"
}

func batchSelectSQL(d bench.Dialect) string {
	return "SELECT v FROM " + d.Table(batchSel) + " WHERE id = " + d.Param(1)
}

// batchValue is row id's v.
func batchValue(id int64) int64 { return id*31 + 7 }

func batchCreate(e bench.Env, base string) error {
	t := e.Dialect.Table(base)
	for _, q := range []string{"DROP TABLE IF EXISTS " + t,
		"CREATE TABLE " + t + " (id BIGINT PRIMARY KEY NOT NULL, v BIGINT NOT NULL)"} {
		if err := e.Conn.Exec(q); err != nil {
			return fmt.Errorf("create %s: %w", t, err)
		}
	}
	return nil
}

func batchInsertSetup(e bench.Env) error { return batchCreate(e, batchIns) }

// batchSelectSetup creates the select table and fills it in one
// multi-row INSERT per 100 rows.
func batchSelectSetup(e bench.Env) error {
	if err := batchCreate(e, batchSel); err != nil {
		return err
	}
	for first := int64(1); first <= batchSelRows; first += 100 {
		q := "INSERT INTO " + e.Dialect.Table(batchSel) + " (id, v) VALUES "
		for id := first; id < first+100 && id <= batchSelRows; id++ {
			if id > first {
				q += ", "
			}
			q += "(" + strconv.FormatInt(id, 10) + ", " + strconv.FormatInt(batchValue(id), 10) + ")"
		}
		if err := e.Conn.Exec(q); err != nil {
			return fmt.Errorf("fill %s: %w", e.Dialect.Table(batchSel), err)
		}
	}
	return nil
}

func batchTeardown(base string) func(e bench.Env) error {
	return func(e bench.Env) error { return e.Conn.Exec("DROP TABLE IF EXISTS " + e.Dialect.Table(base)) }
}

// batchSender is one path's sending of a batch: exec for inserts, query
// for selects, and what the path made to release.
type batchSender struct {
	exec  func(args []any) error
	query func(args []any, fn func(k int, r bench.Row) error) error
	close func() error
}

// newBatchSender readies path for query on e's connection.
func newBatchSender(e bench.Env, path, query string, nparams int) (batchSender, error) {
	if path == "each" {
		st, err := e.Conn.Prepare(query)
		if err != nil {
			return batchSender{}, fmt.Errorf("prepare: %w", err)
		}
		// One row function for every statement, made here: the clock
		// times the driver's calls, not a closure made per statement.
		var (
			cur  int
			each func(k int, r bench.Row) error
		)
		row := func(r bench.Row) error { return each(cur, r) }
		return batchSender{
			exec: func(args []any) error {
				for k := 0; k < len(args); k += nparams {
					if err := st.Exec(args[k : k+nparams]...); err != nil {
						return err
					}
				}
				return nil
			},
			query: func(args []any, fn func(k int, r bench.Row) error) error {
				each = fn
				for k := 0; k < len(args); k += nparams {
					cur = k / nparams
					if err := st.QueryRow(row, args[k:k+nparams]...); err != nil {
						return err
					}
				}
				return nil
			},
			close: st.Close,
		}, nil
	}
	br, ok := e.Conn.(bench.Batcher)
	if !ok {
		return batchSender{}, fmt.Errorf("the target has no batches (bench.Batcher), so no path=%s", path)
	}
	b, err := br.Batch(path, query)
	if err != nil {
		return batchSender{}, fmt.Errorf("path=%s: %w", path, err)
	}
	return batchSender{
		exec: func(args []any) error { return b.Exec(nparams, args) },
		query: func(args []any, fn func(k int, r bench.Row) error) error {
			return b.Query(nparams, args, fn)
		},
		close: b.Close,
	}, nil
}

// batchArgs returns the arguments of every operation of a run, made before
// the clock starts: per operation, batchSize rows of nparams values from
// row(i, k).
func batchArgs(ops, nparams int, row func(i, k int, dst []any)) [][]any {
	all := make([][]any, ops)
	for i := range all {
		all[i] = make([]any, batchSize*nparams)
		for k := 0; k < batchSize; k++ {
			row(i, k, all[i][k*nparams:(k+1)*nparams])
		}
	}
	return all
}

// batchInsertRun inserts rows above the table's largest id: operation i
// inserts ids base+1+i*batchSize onwards; End reads them back.
func batchInsertRun(e bench.Env, path string) (bench.Run, error) {
	table := e.Dialect.Table(batchIns)
	var base int64
	err := e.Conn.QueryRow("SELECT COALESCE(MAX(id), 0) FROM "+table, func(r bench.Row) error { return r.Scan(&base) })
	if err != nil {
		return bench.Run{}, fmt.Errorf("read the largest id of %s: %w", table, err)
	}
	total := e.Warm + e.N
	args := batchArgs(total, 2, func(i, k int, dst []any) {
		id := base + 1 + int64(i*batchSize+k)
		dst[0], dst[1] = id, batchValue(id)
	})
	s, err := newBatchSender(e, path, batchInsertSQL(e.Dialect), 2)
	if err != nil {
		return bench.Run{}, err
	}
	end := func() error {
		if err := s.close(); err != nil {
			return fmt.Errorf("close: %w", err)
		}
		return batchVerifyInserts(e.Conn, table, base, int64(total*batchSize))
	}
	return bench.Run{Op: func(i int) error { return s.exec(args[i]) }, End: end}, nil
}

// batchVerifyInserts reads back the rows above id base: want of them, ids
// base+1 onwards, each with its value.
func batchVerifyInserts(c bench.Conn, table string, base, want int64) error {
	var id, v, n int64
	next := base + 1
	err := c.Query("SELECT id, v FROM "+table+" WHERE id > "+strconv.FormatInt(base, 10)+" ORDER BY id",
		func(r bench.Row) error {
			if err := r.Scan(&id, &v); err != nil {
				return err
			}
			if id != next || v != batchValue(id) {
				return fmt.Errorf("row %d of the run is id %d, v %d; want id %d, v %d", n, id, v, next,
					batchValue(next))
			}
			next++
			n++
			return nil
		})
	if err != nil {
		return fmt.Errorf("read back %s: %w", table, err)
	}
	if n != want {
		return fmt.Errorf("%s holds %d rows of the run, want %d", table, n, want)
	}
	return nil
}

// errBatchRows is the error of a statement that returned other than one row.
var errBatchRows = errors.New("a point select returned other than one row")

// batchSelectRun selects batchSize rows per operation, ids in turn round
// the table, and checks each row's value and that each statement returned
// exactly one row.
func batchSelectRun(e bench.Env, path string) (bench.Run, error) {
	total := e.Warm + e.N
	ids := make([]int64, total*batchSize)
	args := batchArgs(total, 1, func(i, k int, dst []any) {
		id := int64((i*batchSize+k)%batchSelRows) + 1
		ids[i*batchSize+k] = id
		dst[0] = id
	})
	s, err := newBatchSender(e, path, batchSelectSQL(e.Dialect), 1)
	if err != nil {
		return bench.Run{}, err
	}
	var (
		v    int64
		cur  int // the operation being checked
		seen [batchSize]int
	)
	check := func(k int, r bench.Row) error {
		if err := r.Scan(&v); err != nil {
			return err
		}
		if k < 0 || k >= batchSize {
			return fmt.Errorf("a row of statement %d of a batch of %d", k, batchSize)
		}
		if id := ids[cur*batchSize+k]; v != batchValue(id) {
			return fmt.Errorf("id %d read v %d, want %d", id, v, batchValue(id))
		}
		seen[k]++
		return nil
	}
	op := func(i int) error {
		cur, seen = i, [batchSize]int{}
		if err := s.query(args[i], check); err != nil {
			return err
		}
		for k, n := range seen {
			if n != 1 {
				return fmt.Errorf("statement %d of operation %d: %w (%d)", k, i, errBatchRows, n)
			}
		}
		return nil
	}
	return bench.Run{Op: op, End: s.close}, nil
}
