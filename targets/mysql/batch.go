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
func (c *conn) Batch(path string) (bench.Batch, error) {
	if path != string(bench.CapMultiStmt) {
		return nil, fmt.Errorf("go-sql-driver has no batch path %q", path)
	}
	mc := Config(c.cfg.Server, true)
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
	return &multiBatch{db: db, texts: map[multiKey]string{}}, nil
}

// multiKey names a joined text: the statement and how many times it is
// repeated.
type multiKey struct {
	query string
	n     int
}

// multiBatch is the path "multistmt".
type multiBatch struct {
	db    *sql.DB
	texts map[multiKey]string
}

// text returns query repeated n times, joined by "; ", made once.
func (m *multiBatch) text(query string, n int) string {
	k := multiKey{query, n}
	t, ok := m.texts[k]
	if !ok {
		t = strings.TrimSuffix(strings.Repeat(query+"; ", n), "; ")
		m.texts[k] = t
	}
	return t
}

func (m *multiBatch) Exec(query string, nparams int, args []any) error {
	_, err := m.db.Exec(m.text(query, len(args)/nparams), args...)
	return err
}

func (m *multiBatch) Query(query string, nparams int, args []any, fn func(k int, r bench.Row) error) error {
	n := len(args) / nparams
	rows, err := m.db.Query(m.text(query, n), args...)
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
