package sqinn

import (
	"fmt"

	"github.com/cvilsmeier/sqinn-go/sqinn"

	"github.com/sqlbench/sqlbench/bench"
)

// A one-off query (Conn.Query, Conn.QueryRow) goes through sqinn-go's
// whole-result Query, the call its README leads with: one request that
// returns every row, each column read as the type asked for. The column
// types come from the query's first use, which runs on the per-row
// requests (Prepare, Bind, Step, Column, Finalize) and records the
// destinations its rows are scanned into; every later use of the same SQL
// on the connection is one Query request. A query whose first use read no
// row, or scanned into a destination Query cannot fill (sql.RawBytes,
// any), stays on the per-row requests, and so do new texts once
// maxLearned are known (a workload that formats its literals into the SQL
// makes a text per value: the classic SimpleQueryRow's 100).

// maxLearned bounds the query texts a connection keeps column types for.
const maxLearned = 1024

// learner is the row of a query's first use: it reads each column with a
// Column request, as row does, and records the whole-result types of the
// destinations.
type learner struct {
	row
	types []byte
	ok    bool
}

// Scan implements bench.Row.
func (l *learner) Scan(dest ...any) error {
	if err := l.row.Scan(dest...); err != nil {
		return err
	}
	if l.types != nil || !l.ok {
		return nil
	}
	l.types = make([]byte, len(dest))
	for i, d := range dest {
		t, err := wholeType(d)
		if err != nil {
			l.ok, l.types = false, nil
			return nil
		}
		l.types[i] = t
	}
	return nil
}

// wholeRow is one row of a whole-result Query.
type wholeRow struct {
	vals  []sqinn.AnyValue
	types []byte
}

// Scan implements bench.Row: the destinations must be those of the query's
// first use.
func (w *wholeRow) Scan(dest ...any) error {
	if len(dest) != len(w.types) {
		return fmt.Errorf("scan: %d destinations, the query's first use scanned %d", len(dest), len(w.types))
	}
	for i, d := range dest {
		if t, err := wholeType(d); err != nil || t != w.types[i] {
			return fmt.Errorf("scan: column %d into %T, unlike the query's first use", i, d)
		}
	}
	for i, d := range dest {
		store(d, &w.vals[i])
	}
	return nil
}

// oneOff runs query once: as one whole-result Query when its column types
// are known, else on the per-row requests, learning them. first stops
// after the first row (QueryRow), which must exist.
func (c *conn) oneOff(query string, fn bench.RowFunc, first bool, args []any) error {
	if types, ok := c.learned[query]; ok {
		if err := c.evict(); err != nil {
			return err
		}
		vals, err := c.values(args)
		if err != nil {
			return err
		}
		rows, err := c.sq.Query(query, vals, types)
		if err != nil {
			return err
		}
		if first && len(rows) == 0 {
			return bench.ErrNoRows
		}
		w := wholeRow{types: types}
		for i := range rows {
			w.vals = rows[i].Values
			if err := fn(&w); err != nil {
				return err
			}
			if first {
				break
			}
		}
		return nil
	}
	l := &learner{row: row{c: c}, ok: true}
	err := c.transient(query, args, func() error {
		if first {
			return c.firstWith(l, fn)
		}
		return c.eachWith(l, fn)
	})
	if err == nil && l.ok && l.types != nil && len(c.learned) < maxLearned {
		if c.learned == nil {
			c.learned = map[string][]byte{}
		}
		c.learned[query] = l.types
	}
	return err
}

// eachWith steps through every row, handing r to fn for each.
func (c *conn) eachWith(r bench.Row, fn bench.RowFunc) error {
	for {
		more, err := c.sq.Step()
		if err != nil || !more {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
}

// firstWith steps to the first row and hands r to fn.
func (c *conn) firstWith(r bench.Row, fn bench.RowFunc) error {
	more, err := c.sq.Step()
	if err != nil {
		return err
	}
	if !more {
		return bench.ErrNoRows
	}
	return fn(r)
}
