package workloads

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// The bulk family is the database/sql overhead study: rows of random text
// inserted as fast as each API allows, into a table with no key and no
// index that is recreated (untimed) before every run. One operation is one
// row. Every path runs on every target that has it, so database/sql and the
// native APIs of a driver compare row by row:
//
//   - prepared: one prepared single-row INSERT per row, in one transaction;
//   - multirow: multi-row INSERTs of up to 100 rows, in one transaction;
//   - copy: PostgreSQL's COPY FROM STDIN through the driver's COPY API;
//   - load: MariaDB's LOAD DATA LOCAL INFILE fed from an io.Reader.
//
// The paths that pass arguments (prepared, multirow, copy) run with each
// argument type an application may hold: args=bytes, a []byte per value,
// as the published study's program bound them, and args=string. The rows
// are generated before the clock starts, as the study generated its whole
// input first: all of a run's rows when they take at most bulkUpFrontBytes
// (every run of the study's default scales), else a block of bulkBlockRows
// at a time with the clock paused between blocks (bench.ArgRows,
// bench.Timer): ten million rows of 16 columns would not fit. A pause
// inside a driver that reads the rows on a goroutine of its own (pgx's
// CopyFrom) lets the driver's other goroutine work off the clock; such a
// run's time is not divided (bench.Timer).
//
// Each run checks what it wrote: the row count and the checksum of every
// row read back.
const (
	bulkFamily = "bulk"
	bulkTable  = "bulk"
	bulkName   = "BulkInsert"
	bulkOps    = 10_000_000
	// bulkSmoke is the smoke (--quick) scale: 1,000 rows a run, since a
	// single-row INSERT costs up to half a millisecond on a server here.
	bulkSmoke = 0.0001
	// bulkBlockRows is how many rows are generated at a time when a run's
	// rows do not fit bulkUpFrontBytes.
	bulkBlockRows = 4096
	// bulkUpFrontBytes is the most memory a run's rows may take to be
	// generated all before the clock (about the value's bytes and 48 more
	// for its header and interface a value; bulkShape.rowBytes).
	bulkUpFrontBytes = 512 << 20
)

// bulkArgs names the Go type of a generated value handed to the driver.
type bulkArgs string

// The argument types; bulkArgTypes lists them, the study's first.
const (
	argsBytes  bulkArgs = "bytes"
	argsString bulkArgs = "string"
)

func bulkArgTypes() []bulkArgs { return []bulkArgs{argsBytes, argsString} }

// key is the argument type's result-name key.
func (a bulkArgs) key() string { return "args=" + string(a) }

// describe says what the driver is handed.
func (a bulkArgs) describe() string {
	if a == argsBytes {
		return "each value a []byte (as the study bound them)"
	}
	return "each value a string"
}

// bulkShape is the table's shape: cols text columns of width bytes.
type bulkShape struct{ cols, width int }

// key is the shape's result-name key.
func (s bulkShape) key() string { return fmt.Sprintf("shape=%dx%d", s.cols, s.width) }

// bulkShapes are the two shapes of the published study.
func bulkShapes() []bulkShape { return []bulkShape{{16, 32}, {3, 8}} }

func init() {
	for _, w := range bulkWorkloads() {
		bench.RegisterWorkload(w)
	}
}

// bulkWorkloads returns every shape × path.
func bulkWorkloads() []bench.Workload {
	var ws []bench.Workload
	for _, s := range bulkShapes() {
		for _, a := range bulkArgTypes() {
			ws = append(ws,
				bench.Workload{
					Keys: s.key() + "/path=prepared/" + a.key(),
					Describe: func(d bench.Dialect) string {
						return fmt.Sprintf(
							"`%s` prepared once and executed for each row, all in one transaction, %s; %s",
							insertSQL(d, d.Table(bulkTable), s.cols, 1), a.describe(), s.describe())
					},
					Begin: func(e bench.Env) (bench.Run, error) { return bulkPrepared(e, s, a) },
				},
				bench.Workload{
					Keys: s.key() + "/path=multirow/" + a.key(),
					Describe: func(d bench.Dialect) string {
						return fmt.Sprintf("`INSERT INTO %s (%s) VALUES (%s), ...` with %d rows per prepared "+
							"statement (one more for the last rows), all in one transaction, %s; %s",
							d.Table(bulkTable), strings.Join(bulkColumns(s.cols), ", "), params(d, s.cols),
							batchRows(d.DB, s.cols), a.describe(), s.describe())
					},
					Begin: func(e bench.Env) (bench.Run, error) { return bulkMultirow(e, s, a) },
				},
				bench.Workload{
					Keys: s.key() + "/path=copy/" + a.key(), Only: []bench.DB{bench.Postgres}, Needs: bench.CapCopy,
					Describe: func(d bench.Dialect) string {
						return fmt.Sprintf("`COPY %s (%s) FROM STDIN` through the driver's COPY API (pgx CopyFrom, "+
							"lib/pq CopyIn), %s (lib/pq sends a []byte as bytea hex text, which the check decodes); %s",
							d.Table(bulkTable), strings.Join(bulkColumns(s.cols), ", "), a.describe(), s.describe())
					},
					Begin: func(e bench.Env) (bench.Run, error) { return bulkCopy(e, s, a) },
				},
			)
		}
		ws = append(ws,
			bench.Workload{
				Keys: s.key() + "/path=load", Only: []bench.DB{bench.MariaDB}, Needs: bench.CapLoad,
				Describe: func(d bench.Dialect) string {
					return fmt.Sprintf("`%s` fed from an io.Reader generating the tab-separated rows (no file); %s",
						loadSQL("Reader::<name>", d.Table(bulkTable), bulkColumns(s.cols)), s.describe())
				},
				Begin: func(e bench.Env) (bench.Run, error) { return bulkLoad(e, s) },
			},
			// JDBC's own paths, run by the JDBC runner (jdbc/) only: the Go
			// APIs have no statement batching.
			bench.Workload{
				Keys: s.key() + "/path=batch", Needs: bench.CapBatch,
				Describe: func(d bench.Dialect) string {
					return fmt.Sprintf("`%s` prepared once, addBatch per row and executeBatch every %d rows (JDBC), "+
						"all in one transaction; %s",
						insertSQL(d, d.Table(bulkTable), s.cols, 1), multirowBatch, s.describe())
				},
				Begin: jdbcOnly,
			},
			bench.Workload{
				Keys: s.key() + "/path=rewrite", Only: []bench.DB{bench.MariaDB}, Needs: bench.CapRewrite,
				Describe: func(d bench.Dialect) string {
					return fmt.Sprintf("the batch path on a connection with rewriteBatchedStatements=true: "+
						"Connector/J sends each batch as multi-row INSERTs; %s",
						s.describe())
				},
				Begin: jdbcOnly,
			},
		)
	}
	for i := range ws {
		w := &ws[i]
		w.Name, w.Family, w.Ops, w.Unit = bulkName, bulkFamily, bulkOps, "rows"
		w.Whole = true // a run is one transaction or one stream
		w.Smoke, w.Spread = bulkSmoke, true
		w.NoWarmup = true                              // the study timed each run from an empty table
		w.Setup = func(bench.Env) error { return nil } // each run creates its table
		w.Teardown = func(e bench.Env) error {
			return e.Conn.Exec("DROP TABLE IF EXISTS " + e.Dialect.Table(bulkTable))
		}
	}
	return ws
}

// jdbcOnly is the Begin of the paths only the JDBC runner implements; the
// catalogue plans them on no Go target (none has their capability).
func jdbcOnly(bench.Env) (bench.Run, error) {
	return bench.Run{}, errors.New("only the JDBC runner implements this path")
}

// describe says what the rows are.
func (s bulkShape) describe() string {
	return fmt.Sprintf("%d TEXT columns of %d random letters and digits, generated before the clock starts (all of a "+
		"run's rows when they take at most %d MB, as published; else %d rows at a time, the clock paused between), "+
		"no key or index, table recreated before each run", s.cols, s.width, bulkUpFrontBytes>>20, bulkBlockRows)
}

// rowBytes estimates the memory one generated row takes: each value's
// bytes, its slice header and its interface.
func (s bulkShape) rowBytes() int { return s.cols * (s.width + 48) }

// bulkBlock is the generated input of a run: one block of rows at a time,
// the next generated with the run's clock paused. A row's arguments are
// valid until the next block is generated over them.
type bulkBlock struct {
	rows  *bench.ArgRows
	gen   bench.RowGen
	timer *bench.Timer
	total int
	size  int // rows a block
}

// newBulkBlock returns the input of a run of total rows of shape s as
// argument type a, its first block generated (before the clock starts):
// every row when they fit bulkUpFrontBytes, as the published program
// makes its whole input before timing, so that the run never pauses.
func newBulkBlock(s bulkShape, a bulkArgs, total, align int) *bulkBlock {
	return newBulkBlockWithin(s, a, total, align, bulkUpFrontBytes)
}

// newBulkBlockWithin is newBulkBlock with the up-front budget in bytes.
// Blocks of a run over it hold a multiple of align rows (about
// bulkBlockRows), so that a reader that keeps align rows' arguments at a
// time, read in order from row 0, never has them overwritten by the next
// block.
func newBulkBlockWithin(s bulkShape, a bulkArgs, total, align, budget int) *bulkBlock {
	size := max(align, bulkBlockRows-bulkBlockRows%max(align, 1))
	if total*s.rowBytes() <= budget {
		size = max(total, 1)
	}
	b := &bulkBlock{rows: bench.NewArgRows(size, s.cols, a == argsBytes), gen: bench.NewRowGen(s.cols, s.width),
		timer: &bench.Timer{}, total: total, size: size}
	b.rows.Fill(0, min(total, size), &b.gen)
	return b
}

// row returns the arguments of row i, generating its block, clock paused,
// if the block held is another.
func (b *bulkBlock) row(i int) []any {
	if !b.rows.Holds(i) {
		b.timer.Stop()
		b.rows.Fill(i, min(b.size, max(1, b.total-i)), &b.gen)
		b.timer.Start()
	}
	return b.rows.Row(i)
}

// params returns the placeholders of one row of cols columns.
func params(d bench.Dialect, cols int) string {
	p := make([]string, cols)
	for i := range p {
		p[i] = d.Param(i + 1)
	}
	return strings.Join(p, ", ")
}

// loadSQL returns the LOAD DATA statement reading file into table's cols:
// tab-separated fields, newline-ended rows (the statement's defaults, said
// explicitly).
func loadSQL(file, table string, cols []string) string {
	return "LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE " + table +
		` FIELDS TERMINATED BY '\t' LINES TERMINATED BY '\n' (` + strings.Join(cols, ", ") + ")"
}

// bulkRun holds what every path shares: the table, recreated empty, the
// transaction of the paths that have one, and the check at the end.
type bulkRun struct {
	e         bench.Env
	s         bulkShape
	table     string
	tx        bench.Tx
	committed bool
	release   func() error // closes the path's statements; may be nil
}

// newBulkRun recreates the table for one run.
func newBulkRun(e bench.Env, s bulkShape) (*bulkRun, error) {
	b := &bulkRun{e: e, s: s, table: e.Dialect.Table(bulkTable)}
	if err := createBulkTable(e.Conn, b.table, s.cols); err != nil {
		return nil, err
	}
	return b, nil
}

// begin starts the run's transaction.
func (b *bulkRun) begin() error {
	tx, err := bench.Begin(b.e.Conn)
	b.tx = tx
	return err
}

// commit closes the statements and commits: the timed end of a run. A run
// that began no transaction (no operations) has nothing to commit.
func (b *bulkRun) commit() error {
	if b.tx == nil {
		return nil
	}
	if err := b.closeStmts(); err != nil {
		return fmt.Errorf("close statements: %w", err)
	}
	if err := b.tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	b.committed = true
	return nil
}

func (b *bulkRun) closeStmts() error {
	if b.release == nil {
		return nil
	}
	err := b.release()
	b.release = nil
	return err
}

// end releases a run that failed before its commit, or verifies one that
// committed: the table holds exactly the generated rows [0, Warm+N).
func (b *bulkRun) end() error {
	if b.tx != nil && !b.committed {
		return errors.Join(b.closeStmts(), b.tx.Rollback())
	}
	return verifyBulk(b.e.Conn, b.table, b.e.Warm+b.e.N, b.s.cols, b.s.width)
}

// run returns the Run of a path whose operations are op or batch.
func (b *bulkRun) run(r bench.Run) bench.Run {
	r.End = b.end
	r.BytesPerOp = float64(b.s.cols * b.s.width)
	if b.tx != nil {
		r.Finish = b.commit
	}
	return r
}

// bulkPrepared is the prepared path: one prepared single-row INSERT executed
// per row inside one transaction, the arguments passed without allocating.
// The study's clock starts before it begins the transaction and prepares
// the insert (go-lib/lib.go, RunSQL), so the first operation does both.
func bulkPrepared(e bench.Env, s bulkShape, a bulkArgs) (bench.Run, error) {
	b, err := newBulkRun(e, s)
	if err != nil {
		return bench.Run{}, err
	}
	q := insertSQL(e.Dialect, b.table, s.cols, 1)
	var st bench.Stmt
	in := newBulkBlock(s, a, e.Warm+e.N, 1)
	r := b.run(bench.Run{Timer: in.timer, Op: func(i int) error {
		if st == nil {
			if err := b.begin(); err != nil {
				return err
			}
			s, err := b.tx.Prepare(q)
			if err != nil {
				return fmt.Errorf("prepare: %w", err)
			}
			st, b.release = s, s.Close
		}
		return st.Exec(in.row(i)...)
	}})
	r.Finish = b.commit
	return r, nil
}

// bulkMultirow is the multi-row path: rows are queued and inserted a batch
// at a time; the last short batch goes in at the commit.
func bulkMultirow(e bench.Env, s bulkShape, a bulkArgs) (bench.Run, error) {
	b, err := newBulkRun(e, s)
	if err != nil {
		return bench.Run{}, err
	}
	if err := b.begin(); err != nil {
		return bench.Run{}, err
	}
	w, err := newMultirowWriter(b.tx, e.Dialect, b.table, s.cols, s.width, e.Warm+e.N)
	if err != nil {
		b.tx.Rollback()
		return bench.Run{}, err
	}
	// The writer keeps a batch of rows' arguments until it is full: blocks
	// of whole batches are never generated over a batch in the making.
	in := newBulkBlock(s, a, e.Warm+e.N, w.batch)
	w.from(in.row)
	b.release = w.close
	r := b.run(bench.Run{Timer: in.timer, Batch: func(first, n int) error {
		for i := first; i < first+n; i++ {
			if err := w.add(i); err != nil {
				return fmt.Errorf("insert up to row %d: %w", i, err)
			}
		}
		return nil
	}})
	r.Finish = func() error {
		if err := w.flush(); err != nil {
			return fmt.Errorf("insert the last rows: %w", err)
		}
		return b.commit()
	}
	return r, nil
}

// bulkCopy is the COPY path: each call of Batch is one COPY of its rows,
// generated as the driver asks for them.
func bulkCopy(e bench.Env, s bulkShape, a bulkArgs) (bench.Run, error) {
	cp, ok := e.Conn.(bench.Copier)
	if !ok {
		return bench.Run{}, fmt.Errorf("the target's connection (%T) has no COPY API", e.Conn)
	}
	b, err := newBulkRun(e, s)
	if err != nil {
		return bench.Run{}, err
	}
	in := newBulkBlock(s, a, e.Warm+e.N, 1)
	src, cols := &blockRows{in: in}, bulkColumns(s.cols)
	return b.run(bench.Run{Timer: in.timer, Batch: func(first, n int) error {
		src.reset(first, n)
		got, err := cp.CopyFrom(b.table, cols, src)
		if err != nil {
			return fmt.Errorf("copy: %w", err)
		}
		if got != int64(n) {
			return fmt.Errorf("copy stored %d rows, want %d", got, n)
		}
		return nil
	}}), nil
}

// bulkLoad is the LOAD DATA path: each call of Batch is one LOAD DATA LOCAL
// INFILE of its rows, streamed from a reader that generates them.
func bulkLoad(e bench.Env, s bulkShape) (bench.Run, error) {
	ld, ok := e.Conn.(bench.Loader)
	if !ok {
		return bench.Run{}, fmt.Errorf("the target's connection (%T) has no LOAD DATA reader", e.Conn)
	}
	b, err := newBulkRun(e, s)
	if err != nil {
		return bench.Run{}, err
	}
	rd, cols := newTSVReader(s.cols, s.width), bulkColumns(s.cols)
	return b.run(bench.Run{Batch: func(first, n int) error {
		rd.reset(first, n)
		got, err := ld.Load(b.table, cols, rd)
		if err != nil {
			return fmt.Errorf("load data: %w", err)
		}
		if got != int64(n) {
			return fmt.Errorf("load data stored %d rows, want %d", got, n)
		}
		return nil
	}}), nil
}
