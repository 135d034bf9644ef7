package pgx

import (
	"github.com/jackc/pgx/v5"

	"github.com/sqlbench/sqlbench/bench"
)

// CopyFrom implements bench.Copier with pgx's native conn.CopyFrom (COPY
// FROM STDIN in the binary format), reading the rows from src as pgx asks
// for them.
func (n *nativeConn) CopyFrom(table string, cols []string, src bench.RowSource) (int64, error) {
	return n.c.CopyFrom(bg, pgx.Identifier{table}, cols, copySource{src})
}

// copySource is a bench.RowSource as a pgx.CopyFromSource.
type copySource struct{ src bench.RowSource }

func (s copySource) Next() bool             { return s.src.Next() }
func (s copySource) Values() ([]any, error) { return s.src.Values(), nil }
func (s copySource) Err() error             { return nil }
