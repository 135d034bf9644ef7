package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/sqlbench/sqlbench/bench"
)

// Batch implements bench.Batcher with the path "multistmt": the
// statements joined by ';' into one text and sent in one call, on a
// connection of its own opened with the DSN options multiStatements=true
// (the driver then sends the text as one COM_QUERY and reads every result)
// and interpolateParams=true (a multi-statement text cannot be prepared on
// the server, so the driver formats the arguments into it), with the
// session settings of the cell's connection. The option is this path's
// alone: the target's other calls run on a connection without it.
func (c *conn) Batch(path, query string) (bench.Batch, error) {
	if path != string(bench.CapMultiStmt) {
		return nil, fmt.Errorf("go-sql-driver has no batch path %q", path)
	}
	mc, err := Config(c.cfg.Server, true)
	if err != nil {
		return nil, err
	}
	mc.MultiStatements = true
	connector, err := mysql.NewConnector(mc)
	if err != nil {
		return nil, fmt.Errorf("configure: %w", err)
	}
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	for _, q := range c.cfg.Session {
		if _, err := db.ExecContext(context.Background(), q); err != nil {
			db.Close()
			return nil, fmt.Errorf("session setting %q: %w", q, err)
		}
	}
	return &multiBatch{db: db, query: query, texts: map[int]string{}}, nil
}

// multiBatch is the path "multistmt".
type multiBatch struct {
	db    *sql.DB
	query string
	texts map[int]string // the joined texts by statement count
}

// text returns the statement repeated n times, joined by "; ", made once.
func (m *multiBatch) text(n int) string {
	t, ok := m.texts[n]
	if !ok {
		t = strings.TrimSuffix(strings.Repeat(m.query+"; ", n), "; ")
		m.texts[n] = t
	}
	return t
}

func (m *multiBatch) Exec(nparams int, args []any) error {
	_, err := m.db.Exec(m.text(len(args)/nparams), args...)
	return err
}

func (m *multiBatch) Query(nparams int, args []any, fn func(k int, r bench.Row) error) error {
	n := len(args) / nparams
	rows, err := m.db.Query(m.text(n), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for k := 0; ; k++ {
		for rows.Next() {
			if err := fn(k, rows); err != nil {
				return err
			}
		}
		if !rows.NextResultSet() {
			if k+1 != n {
				return fmt.Errorf("multi-statement: %d result sets for %d statements", k+1, n)
			}
			break
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return rows.Close()
}

func (m *multiBatch) Close() error { return m.db.Close() }
