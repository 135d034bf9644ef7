package workloads

import (
	"errors"
	"fmt"

	"github.com/sqlbench/sqlbench/bench"
)

// multirowWriter inserts generated rows into a bulk table through
// multi-row INSERTs prepared in a transaction: one statement for a full
// batch, one for the last, shorter batch. Rows are collected into one
// reused argument list until a batch is full.
type multirowWriter struct {
	tx         bench.Tx
	sql        func(rows int) string
	gen        bench.RowGen
	cols       int
	batch      int
	full, tail bench.Stmt
	tailRows   int
	args       *bench.TextArgs
	list       []any
	pending    int
	src        func(row int) []any // the rows' arguments, when set (see from)
}

// from makes the writer take each row's arguments from src instead of
// generating them.
func (w *multirowWriter) from(src func(row int) []any) {
	w.src = src
	w.list = make([]any, len(w.list))
}

// newMultirowWriter prepares, in tx, the statements for inserting total
// rows of cols columns of width bytes into table.
func newMultirowWriter(tx bench.Tx, d bench.Dialect, table string, cols, width, total int) (*multirowWriter, error) {
	w := &multirowWriter{
		tx: tx, gen: bench.NewRowGen(cols, width), cols: cols, batch: batchRows(d.DB, cols),
		sql: func(rows int) string { return insertSQL(d, table, cols, rows) },
	}
	w.args = bench.NewTextArgs(w.batch * cols)
	w.list = w.args.List()
	var err error
	if w.full, err = tx.Prepare(w.sql(w.batch)); err != nil {
		return nil, fmt.Errorf("prepare %d-row insert: %w", w.batch, err)
	}
	if w.tailRows = total % w.batch; w.tailRows > 0 {
		if w.tail, err = tx.Prepare(w.sql(w.tailRows)); err != nil {
			w.close()
			return nil, fmt.Errorf("prepare %d-row insert: %w", w.tailRows, err)
		}
	}
	return w, nil
}

// add queues generated row row, inserting the batch when it is full.
func (w *multirowWriter) add(row int) error {
	if w.src != nil {
		copy(w.list[w.pending*w.cols:], w.src(row))
	} else {
		w.args.SetRow(w.pending*w.cols, row, &w.gen)
	}
	if w.pending++; w.pending < w.batch {
		return nil
	}
	w.pending = 0
	return w.full.Exec(w.list...)
}

// flush inserts the queued rows of a last, short batch.
func (w *multirowWriter) flush() error {
	if w.pending == 0 {
		return nil
	}
	s := w.tail
	if w.pending != w.tailRows { // more rows came than announced
		var err error
		if s, err = w.tx.Prepare(w.sql(w.pending)); err != nil {
			return fmt.Errorf("prepare %d-row insert: %w", w.pending, err)
		}
		defer s.Close()
	}
	n := w.pending
	w.pending = 0
	return s.Exec(w.list[:n*w.cols]...)
}

// close closes the prepared statements.
func (w *multirowWriter) close() error {
	var errs []error
	for _, s := range []bench.Stmt{w.full, w.tail} {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	w.full, w.tail = nil, nil
	return errors.Join(errs...)
}

// insertGenerated inserts generated rows [0, n) into table through c, in one
// transaction of multi-row INSERTs.
func insertGenerated(c bench.Conn, d bench.Dialect, table string, cols, width, n int) error {
	tx, err := bench.Begin(c)
	if err != nil {
		return err
	}
	w, err := newMultirowWriter(tx, d, table, cols, width, n)
	if err != nil {
		tx.Rollback()
		return err
	}
	for i := 0; i < n && err == nil; i++ {
		err = w.add(i)
	}
	if err == nil {
		err = w.flush()
	}
	if cerr := w.close(); err == nil {
		err = cerr
	}
	if err != nil {
		tx.Rollback()
		return fmt.Errorf("insert into %s: %w", table, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
