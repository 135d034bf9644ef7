package workloads

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// A bulk table: columns c0 .. c{cols-1} of text, no key, no index, holding
// generated rows (bench.Value(row, col, cols, width)). The bulk-insert and
// analytics families write and read it.

// bulkColumns returns the column names of a table of cols columns.
func bulkColumns(cols int) []string {
	names := make([]string, cols)
	for i := range names {
		names[i] = "c" + strconv.Itoa(i)
	}
	return names
}

// createBulkTable drops table and creates it empty with cols text columns.
func createBulkTable(c bench.Conn, table string, cols int) error {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + table + " (")
	for i, name := range bulkColumns(cols) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(name + " TEXT")
	}
	b.WriteByte(')')
	for _, q := range []string{"DROP TABLE IF EXISTS " + table, b.String()} {
		if err := c.Exec(q); err != nil {
			return fmt.Errorf("create %s: %w", table, err)
		}
	}
	return nil
}

// insertSQL returns an INSERT of rows rows of cols parameters into table.
func insertSQL(d bench.Dialect, table string, cols, rows int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO " + table + " (" + strings.Join(bulkColumns(cols), ", ") + ") VALUES ")
	n := 0
	for r := range rows {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for c := range cols {
			if c > 0 {
				b.WriteString(", ")
			}
			n++
			b.WriteString(d.Param(n))
		}
		b.WriteByte(')')
	}
	return b.String()
}

// maxParams is the most parameters one statement may have on db: SQLite's
// SQLITE_MAX_VARIABLE_NUMBER (32766 since 3.32), and the 16-bit parameter
// counts of the PostgreSQL and MySQL protocols.
func maxParams(db bench.DB) int {
	if db == bench.SQLite {
		return 32766
	}
	return 65535
}

// multirowBatch is how many rows one multi-row INSERT carries.
const multirowBatch = 100

// batchRows returns the rows per multi-row INSERT of cols columns on db:
// multirowBatch, or fewer if the parameter limit says so.
func batchRows(db bench.DB, cols int) int {
	return max(1, min(multirowBatch, maxParams(db)/cols))
}

// unhex returns v, or the text it encodes when v is a bytea hex literal
// (\x followed by hex digits): what lib/pq's COPY stores for a []byte
// argument. Generated values are letters and digits, so no generated value
// is mistaken for one.
func unhex(v string) string {
	if !strings.HasPrefix(v, `\x`) {
		return v
	}
	b, err := hex.DecodeString(v[2:])
	if err != nil {
		return v
	}
	return string(b)
}

// verifyBulk checks that table holds exactly the generated rows [0, rows) of
// cols columns of width bytes: its count, and the order-independent
// checksum of every row read back. It streams: one row is held at a time.
func verifyBulk(c bench.Conn, table string, rows, cols, width int) error {
	var count int64
	if err := c.QueryRow("SELECT COUNT(*) FROM "+table, func(r bench.Row) error { return r.Scan(&count) }); err != nil {
		return fmt.Errorf("count %s: %w", table, err)
	}
	if count != int64(rows) {
		return fmt.Errorf("%s holds %d rows, want %d", table, count, rows)
	}
	vals := make([]string, cols)
	dest := make([]any, cols)
	for i := range vals {
		dest[i] = &vals[i]
	}
	var got bench.Checksum
	err := c.Query("SELECT "+strings.Join(bulkColumns(cols), ", ")+" FROM "+table, func(r bench.Row) error {
		if err := r.Scan(dest...); err != nil {
			return err
		}
		h := bench.NewRowHasher()
		for _, v := range vals {
			h.Add(unhex(v))
		}
		got.Add(h.Sum())
		return nil
	})
	if err != nil {
		return fmt.Errorf("read back %s: %w", table, err)
	}
	if want := bench.GeneratedChecksum(0, rows, cols, width); got != want {
		return fmt.Errorf("%s read back wrong: %d rows with checksum %#x, want %d rows with checksum %#x",
			table, got.Rows, got.Sum, want.Rows, want.Sum)
	}
	return nil
}
