package pq

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/sqldb"
)

// conn is the pq target's bench.Conn: database/sql, plus COPY FROM STDIN
// the way lib/pq offers it (bench.Copier).
type conn struct{ sqldb.Conn }

// CopyFrom implements bench.Copier with lib/pq's CopyIn protocol: in a
// transaction, the statement `COPY table (cols) FROM STDIN` is prepared,
// executed once per row (pq buffers the rows and sends them in large
// messages), then executed with no arguments to end the stream. That
// statement text is what pq.CopyIn builds; pq documents it as the way to
// write it.
func (c conn) CopyFrom(table string, cols []string, src bench.RowSource) (n int64, err error) {
	tx, err := c.DB.Begin()
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, tx.Rollback())
		}
	}()
	st, err := tx.Prepare("COPY " + table + " (" + strings.Join(cols, ", ") + ") FROM STDIN")
	if err != nil {
		return 0, fmt.Errorf("prepare copy: %w", err)
	}
	for src.Next() {
		if _, err := st.Exec(src.Values()...); err != nil {
			st.Close()
			return 0, fmt.Errorf("copy row %d: %w", n, err)
		}
		n++
	}
	res, err := st.Exec()
	if err != nil {
		st.Close()
		return 0, fmt.Errorf("end copy: %w", err)
	}
	if err := st.Close(); err != nil {
		return 0, fmt.Errorf("close copy: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("commit: %w", err)
	}
	if stored, rerr := res.RowsAffected(); rerr == nil {
		return stored, nil
	}
	return n, nil
}
