package workloads

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/sqlbench/sqlbench/bench"
)

// The typed family reads and writes the column types applications use, in
// each database's own types, through each driver's idiomatic calls:
//
//   - typed(id, ts, amount, uid, doc, data, note, qty): a time with zone
//     (PostgreSQL timestamptz; MariaDB DATETIME(6) holding UTC; SQLite a
//     DATETIME-declared TEXT), a decimal (numeric(18,4), DECIMAL(18,4);
//     SQLite TEXT, since its REAL would round), a UUID (uuid; MariaDB's
//     UUID type; SQLite a 16-byte BLOB), a JSON document (jsonb; JSON;
//     SQLite TEXT), a 64-byte binary blob (bytea; BLOB; BLOB), a nullable
//     text and a nullable integer (NULL on every third and every second
//     row);
//   - typedwide(id, w1 .. w19): a row of 20 columns, integers, texts and
//     doubles in turn.
//
// Every value is computed from its row's id, and every row read is checked
// value by value against it inside the timed loop, as the sqinn family's
// reads are. Targets whose rows are database/sql's *sql.Rows or pgx's rows
// scan into the natural Go types (time.Time, uuid.UUID, json.RawMessage,
// sql.NullString, sql.NullInt64: typedProbe) and bind them (time.Time, uuid.UUID,
// sql.Null*); targets whose native API reads typed columns of SQLite's
// kinds (the native SQLite libraries, sqinn, mymysql's and go-mysql's
// native APIs: bench.Columns) scan into strings, byte slices and integers
// and parse the time and the UUID from them, as a program on those APIs
// does. A decimal is a string everywhere: database/sql has no decimal type
// and the drivers hand it over as text. The query workloads come as
// scan=string (decimal, JSON and the nullable text into string and
// sql.NullString) and scan=bytes (into []byte, json.RawMessage and a nil
// []byte for NULL), the two ways database/sql and pgx offer.
const (
	typedFamily  = "typed"
	typedRows    = 1000   // rows of a query workload's table
	typedQueries = 500    // queries per run at scale 1
	typedInserts = 20_000 // rows per insert run at scale 1
	typedWideN   = 19     // columns of the wide row after its id
	typedBlobLen = 64
)

// typedEpoch is the time of row 0; row id is id × 1.000001 s after it, so
// that every row has its own microseconds.
var typedEpoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func init() {
	for _, w := range []bench.Workload{
		typedInsertWorkload(false), typedQueryWorkload(false, false), typedQueryWorkload(false, true),
		typedInsertWorkload(true), typedQueryWorkload(true, false),
	} {
		w.Family = typedFamily
		bench.RegisterWorkload(w)
	}
}

// typedTime returns row id's time.
func typedTime(id int64) time.Time {
	return typedEpoch.Add(time.Duration(id) * 1_000_001 * time.Microsecond)
}

// appendTypedAmount appends row id's decimal, with its four places: a
// negative amount every fifth row.
func appendTypedAmount(b []byte, id int64) []byte {
	v := id*7919 + id%10000
	if id%5 == 0 {
		b = append(b, '-')
	}
	b = strconv.AppendInt(b, v/10000, 10)
	b = append(b, '.')
	frac := v % 10000
	for d := int64(1000); d > 0; d /= 10 {
		b = append(b, byte('0'+frac/d%10))
	}
	return b
}

// typedUUID returns row id's UUID: a fixed first half, the id in the second.
func typedUUID(id int64) uuid.UUID {
	u := uuid.UUID{0x5a, 0x1b, 0xe0, 0x4c, 0x93, 0x7d, 0x4e, 0x21}
	for i := 0; i < 8; i++ {
		u[15-i] = byte(id >> (8 * i))
	}
	return u
}

// appendTypedDoc appends row id's JSON document in the form PostgreSQL's
// jsonb prints it back (keys by length, a space after ':' and ','), so that
// its text is the same on every database.
func appendTypedDoc(b []byte, id int64) []byte {
	b = append(b, `{"n": `...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `, "ok": `...)
	b = strconv.AppendBool(b, id%2 == 0)
	b = append(b, `, "tag": "item-`...)
	b = strconv.AppendInt(b, id, 10)
	return append(b, `"}`...)
}

// appendTypedBlob appends row id's 64 bytes, every byte value among them.
func appendTypedBlob(b []byte, id int64) []byte {
	for k := int64(0); k < typedBlobLen; k++ {
		b = append(b, byte(id*31+k*97))
	}
	return b
}

// appendTypedNote appends row id's nullable text: NULL (false) every third row.
func appendTypedNote(b []byte, id int64) ([]byte, bool) {
	if id%3 == 0 {
		return b, false
	}
	return strconv.AppendInt(append(b, "note "...), id, 10), true
}

// typedQty returns row id's nullable integer: NULL (false) every second row.
func typedQty(id int64) (int64, bool) { return id * 7, id%2 == 1 }

// typedScanProbe is a scan destination only an API that scans into Go's
// own types takes: a sql.Scanner (database/sql and pgx call it; the native
// APIs' scans, bench.ScanColumns and sqinn's, refuse it).
type typedScanProbe struct{ called bool }

// Scan implements sql.Scanner.
func (p *typedScanProbe) Scan(any) error {
	p.called = true
	return nil
}

// typedProbe reports, from one untimed one-row query, whether c's rows
// scan into Go's own types (time.Time, uuid.UUID, sql.Null*: database/sql,
// pgx) or only into the kinds of SQLite's typed columns (the native APIs).
// It asks by behaviour, not by the row's type, so that it answers the same
// through a wrapper (the call-counting tests').
func typedProbe(c bench.Conn) (bool, error) {
	var p typedScanProbe
	err := c.Query("SELECT 1", func(r bench.Row) error {
		if r.Scan(&p) != nil {
			p.called = false
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("probe the row API: %w", err)
	}
	return p.called, nil
}

// typedTable is one of the family's two tables as one API reads and writes
// it: its columns, the values bound for a row, the scan destinations and
// the check of a row scanned into them.
type typedTable interface {
	base() string
	cols() []string
	ddl(db bench.DB) string
	args(vals []any, id int64) []any
	dests() []any
	check(id int64) error
}

func typedCreate(d bench.Dialect, t typedTable) string {
	pk, engine := "BIGINT PRIMARY KEY NOT NULL", ""
	switch d.DB {
	case bench.SQLite:
		pk = "INTEGER PRIMARY KEY NOT NULL"
	case bench.MariaDB:
		engine = " ENGINE=InnoDB"
	}
	return "CREATE TABLE " + d.Table(t.base()) + " (id " + pk + ", " + t.ddl(d.DB) + ")" + engine
}

func typedInsertSQL(d bench.Dialect, t typedTable) string {
	ps := []string{d.Param(1)}
	for i := range t.cols() {
		ps = append(ps, d.Param(i+2))
	}
	return "INSERT INTO " + d.Table(t.base()) + " (id, " + strings.Join(t.cols(), ", ") + ") VALUES (" +
		strings.Join(ps, ", ") + ")"
}

func typedQuerySQL(d bench.Dialect, t typedTable) string {
	return "SELECT id, " + strings.Join(t.cols(), ", ") + " FROM " + d.Table(t.base()) + " ORDER BY id"
}

// typedMixed is the typed table on one database through one API.
type typedMixed struct {
	db      bench.DB
	natural bool // database/sql or pgx: Go's own types
	bytes   bool // scan=bytes: decimal, JSON and note into byte slices

	// Destinations: natural API.
	ts   time.Time
	uid  uuid.UUID
	docR json.RawMessage
	// Destinations: column API (time and UUID as text or bytes).
	tsText string
	uidB   []byte
	// Destinations: both.
	amountS, docS string
	amountB, docB []byte
	blob          []byte
	noteS         sql.NullString
	noteB         []byte
	qty           sql.NullInt64

	want []byte // scratch for expected values
}

func (t *typedMixed) base() string { return "typed" }

func (t *typedMixed) cols() []string {
	return []string{"ts", "amount", "uid", "doc", "data", "note", "qty"}
}

func (t *typedMixed) ddl(db bench.DB) string {
	switch db {
	case bench.Postgres:
		return "ts TIMESTAMPTZ NOT NULL, amount NUMERIC(18,4) NOT NULL, uid UUID NOT NULL, doc JSONB NOT NULL, " +
			"data BYTEA NOT NULL, note TEXT, qty BIGINT"
	case bench.MariaDB:
		return "ts DATETIME(6) NOT NULL, amount DECIMAL(18,4) NOT NULL, uid UUID NOT NULL, doc JSON NOT NULL, " +
			"data BLOB NOT NULL, note VARCHAR(64), qty BIGINT"
	default:
		return "ts DATETIME NOT NULL, amount TEXT NOT NULL, uid BLOB NOT NULL, doc TEXT NOT NULL, " +
			"data BLOB NOT NULL, note TEXT, qty INTEGER"
	}
}

// timeLayout is the text form of a time on the column API: SQLite's TEXT
// in RFC 3339 (what its date functions read), MariaDB's DATETIME(6).
func (t *typedMixed) timeLayout() string {
	if t.db == bench.MariaDB {
		return "2006-01-02 15:04:05.000000"
	}
	return time.RFC3339Nano
}

func (t *typedMixed) args(vals []any, id int64) []any {
	amount := string(appendTypedAmount(nil, id))
	doc := string(appendTypedDoc(nil, id))
	blob := appendTypedBlob(nil, id)
	note, noteOK := appendTypedNote(nil, id)
	qty, qtyOK := typedQty(id)
	u := typedUUID(id)
	var ts, uid any = typedTime(id), u
	if t.db == bench.SQLite {
		uid = u[:] // a BLOB of 16 bytes: uuid.UUID's Value would be its text
	}
	if !t.natural {
		ts = typedTime(id).Format(t.timeLayout())
		if t.db != bench.SQLite {
			uid = u.String()
		}
		var n, q any
		if noteOK {
			n = string(note)
		}
		if qtyOK {
			q = qty
		}
		return append(vals, id, ts, amount, uid, doc, blob, n, q)
	}
	return append(vals, id, ts, amount, uid, doc, blob,
		sql.NullString{String: string(note), Valid: noteOK}, sql.NullInt64{Int64: qty, Valid: qtyOK})
}

func (t *typedMixed) dests() []any {
	d := make([]any, 0, 7)
	switch {
	case t.natural:
		d = append(d, &t.ts)
	default:
		d = append(d, &t.tsText)
	}
	if t.bytes {
		d = append(d, &t.amountB)
	} else {
		d = append(d, &t.amountS)
	}
	if t.natural {
		d = append(d, &t.uid)
	} else {
		d = append(d, &t.uidB)
	}
	switch {
	case t.bytes && t.natural:
		// A json.RawMessage through its []byte: database/sql converts a
		// driver's string (SQLite's TEXT) into *[]byte, not into
		// *json.RawMessage.
		d = append(d, (*[]byte)(&t.docR))
	case t.bytes:
		d = append(d, &t.docB)
	default:
		d = append(d, &t.docS)
	}
	d = append(d, &t.blob)
	if t.bytes {
		d = append(d, &t.noteB)
	} else {
		d = append(d, &t.noteS)
	}
	return append(d, &t.qty)
}

// check compares the row scanned into the destinations with row id.
func (t *typedMixed) check(id int64) error {
	ts := t.ts
	if !t.natural {
		var err error
		if ts, err = time.ParseInLocation(t.timeLayout(), t.tsText, time.UTC); err != nil {
			return fmt.Errorf("ts: %w", err)
		}
	}
	if want := typedTime(id); !ts.Equal(want) {
		return fmt.Errorf("ts = %v, want %v", ts, want)
	}
	t.want = appendTypedAmount(t.want[:0], id)
	if got := t.text(t.amountS, t.amountB); got != string(t.want) {
		return fmt.Errorf("amount = %q, want %q", got, t.want)
	}
	u := t.uid
	if !t.natural {
		var err error
		if t.db == bench.SQLite {
			u, err = uuid.FromBytes(t.uidB)
		} else {
			u, err = uuid.ParseBytes(t.uidB)
		}
		if err != nil {
			return fmt.Errorf("uid: %w", err)
		}
	}
	if want := typedUUID(id); u != want {
		return fmt.Errorf("uid = %v, want %v", u, want)
	}
	t.want = appendTypedDoc(t.want[:0], id)
	doc := t.docS
	if t.bytes {
		doc = string(t.docB)
		if t.natural {
			doc = string(t.docR)
		}
	}
	if doc != string(t.want) {
		return fmt.Errorf("doc = %s, want %s", doc, t.want)
	}
	if t.want = appendTypedBlob(t.want[:0], id); !bytes.Equal(t.blob, t.want) {
		return fmt.Errorf("data = %x, want %x", t.blob, t.want)
	}
	var ok bool
	t.want, ok = appendTypedNote(t.want[:0], id)
	note, valid := t.noteS.String, t.noteS.Valid
	if t.bytes {
		note, valid = string(t.noteB), t.noteB != nil
	}
	if valid != ok || note != string(t.want) {
		return fmt.Errorf("note = %q (valid %v), want %q (valid %v)", note, valid, t.want, ok)
	}
	if q, ok := typedQty(id); t.qty.Valid != ok || (ok && t.qty.Int64 != q) {
		return fmt.Errorf("qty = %v, want %d (valid %v)", t.qty, q, ok)
	}
	return nil
}

// text returns the scanned text of a column read as string or []byte.
func (t *typedMixed) text(s string, b []byte) string {
	if t.bytes {
		return string(b)
	}
	return s
}

// typedWide is the 20-column table: w1 .. w19 hold integers, texts and
// doubles in turn (wK for K mod 3 = 1, 2, 0).
type typedWide struct {
	ints  [typedWideN]int64
	texts [typedWideN]string
	flts  [typedWideN]float64
	want  []byte
}

func (t *typedWide) base() string { return "typedwide" }

func (t *typedWide) cols() []string {
	c := make([]string, typedWideN)
	for k := range c {
		c[k] = "w" + strconv.Itoa(k+1)
	}
	return c
}

func (t *typedWide) ddl(db bench.DB) string {
	in, tx, fl := "BIGINT", "VARCHAR(32)", "DOUBLE PRECISION"
	switch db {
	case bench.SQLite:
		in, tx, fl = "INTEGER", "TEXT", "REAL"
	case bench.MariaDB:
		fl = "DOUBLE"
	}
	defs := make([]string, typedWideN)
	for k := range defs {
		typ := [3]string{fl, in, tx}[(k+1)%3]
		defs[k] = "w" + strconv.Itoa(k+1) + " " + typ + " NOT NULL"
	}
	return strings.Join(defs, ", ")
}

// wideInt, wideText and wideFloat are column K's value in row id.
func wideInt(id int64, k int) int64 { return id*int64(k) + int64(k) }

func appendWideText(b []byte, id int64, k int) []byte {
	b = strconv.AppendInt(append(b, 'w'), int64(k), 10)
	return strconv.AppendInt(append(b, '-'), id, 10)
}

func wideFloat(id int64, k int) float64 { return float64(id*int64(k)) + 0.25 }

func (t *typedWide) args(vals []any, id int64) []any {
	vals = append(vals, id)
	for k := 1; k <= typedWideN; k++ {
		switch k % 3 {
		case 1:
			vals = append(vals, wideInt(id, k))
		case 2:
			vals = append(vals, string(appendWideText(nil, id, k)))
		default:
			vals = append(vals, wideFloat(id, k))
		}
	}
	return vals
}

func (t *typedWide) dests() []any {
	d := make([]any, typedWideN)
	for k := 1; k <= typedWideN; k++ {
		switch k % 3 {
		case 1:
			d[k-1] = &t.ints[k-1]
		case 2:
			d[k-1] = &t.texts[k-1]
		default:
			d[k-1] = &t.flts[k-1]
		}
	}
	return d
}

func (t *typedWide) check(id int64) error {
	for k := 1; k <= typedWideN; k++ {
		switch k % 3 {
		case 1:
			if got, want := t.ints[k-1], wideInt(id, k); got != want {
				return fmt.Errorf("w%d = %d, want %d", k, got, want)
			}
		case 2:
			if t.want = appendWideText(t.want[:0], id, k); t.texts[k-1] != string(t.want) {
				return fmt.Errorf("w%d = %q, want %q", k, t.texts[k-1], t.want)
			}
		default:
			if got, want := t.flts[k-1], wideFloat(id, k); got != want {
				return fmt.Errorf("w%d = %v, want %v", k, got, want)
			}
		}
	}
	return nil
}

// typedReader reads a typed table whole and checks every row, in id order
// from 1, against the values computed from its id.
type typedReader struct {
	t     typedTable
	rows  int
	id    int64
	dest  []any
	n     int
	rowFn bench.RowFunc
}

func newTypedReader(t typedTable, rows int) *typedReader {
	r := &typedReader{t: t, rows: rows}
	r.dest = append([]any{&r.id}, t.dests()...)
	r.rowFn = r.row
	return r
}

func (r *typedReader) row(row bench.Row) error {
	if err := row.Scan(r.dest...); err != nil {
		return err
	}
	r.n++
	if r.id != int64(r.n) {
		return fmt.Errorf("row %d has id %d: out of order or missing", r.n, r.id)
	}
	if r.n > r.rows {
		return fmt.Errorf("more than %d rows", r.rows)
	}
	if err := r.t.check(r.id); err != nil {
		return fmt.Errorf("%s row %d: %w", r.t.base(), r.id, err)
	}
	return nil
}

// read runs one read of the whole table through c's plain query call and
// checks the count.
func (r *typedReader) read(c bench.Conn, q string) error {
	r.n = 0
	if err := c.Query(q, r.rowFn); err != nil {
		return err
	}
	if r.n != r.rows {
		return fmt.Errorf("read %d rows of %s, want %d", r.n, r.t.base(), r.rows)
	}
	return nil
}

// typedTableOf returns the wide or the mixed table on e's database through
// its connection's API (typedProbe).
func typedTableOf(e bench.Env, wide, asBytes bool) (typedTable, error) {
	if wide {
		return &typedWide{}, nil
	}
	natural, err := typedProbe(e.Conn)
	if err != nil {
		return nil, err
	}
	return &typedMixed{db: e.Dialect.DB, natural: natural, bytes: asBytes}, nil
}

// typedFill recreates t's table and inserts rows 1..n in one transaction,
// through the same binds as the insert workloads.
func typedFill(e bench.Env, t typedTable, n int) error {
	if err := recreateTables(e, []string{t.base()}, typedCreate(e.Dialect, t)); err != nil {
		return err
	}
	ins, err := beginTxInsert(e.Conn, typedInsertSQL(e.Dialect, t))
	if err != nil {
		return err
	}
	var args []any
	for id := int64(1); id <= int64(n); id++ {
		if err := ins.stmts[0].Exec(t.args(args[:0], id)...); err != nil {
			ins.abort()
			return fmt.Errorf("fill %s: %w", e.Dialect.Table(t.base()), err)
		}
	}
	return ins.commit()
}

func typedName(wide bool, what string) string {
	if wide {
		return "TypedWide" + what
	}
	return "Typed" + what
}

// typedDescribeTable says what the table holds on d.
func typedDescribeTable(d bench.Dialect, wide bool) string {
	if wide {
		types := strings.Split((&typedWide{}).ddl(d.DB), ", ")
		for i, def := range types[:3] {
			types[i] = strings.TrimSuffix(strings.Fields(def)[1], " NOT NULL")
		}
		return "20 columns (id and w1 .. w19: " + strings.Join(types[:3], ", ") + " in turn)"
	}
	var types []string
	for _, def := range strings.Split((&typedMixed{}).ddl(d.DB), ", ") {
		types = append(types, strings.TrimSuffix(def, " NOT NULL"))
	}
	s := "(id, " + strings.Join(types, ", ") + "), note NULL every 3rd row, qty every 2nd"
	if d.DB == bench.SQLite {
		s += " (SQLite has no time type: a time.Time in the text each database/sql driver writes, RFC 3339 " +
			"from the native APIs and JDBC; the UUID as its 16 bytes)"
	}
	return s
}

// typedInsertWorkload inserts one row per operation through one statement
// prepared in a transaction; the commit is timed, the table is read back
// and checked after the run.
func typedInsertWorkload(wide bool) bench.Workload {
	w := bench.Workload{
		Name: typedName(wide, "Insert"), Ops: typedInserts, Unit: "rows",
		Describe: func(d bench.Dialect) string {
			if wide {
				return "one row of " + typedDescribeTable(d, wide) + " inserted through a statement prepared " +
					"in one transaction, bound as int64, string and float64; commit timed; read back and checked " +
					"after the run"
			}
			return "one row of " + typedDescribeTable(d, wide) + " inserted through a statement prepared in " +
				"one transaction; values bound as the API's own types (time.Time, uuid.UUID, sql.Null*; text, " +
				"bytes and nil on the native APIs; JDBC: OffsetDateTime or LocalDateTime, BigDecimal, UUID, " +
				"setNull); commit timed; read back and checked after the run"
		},
		Setup: func(bench.Env) error { return nil },
	}
	base := typedTableStub(wide).base()
	w.Teardown = func(e bench.Env) error { return recreateTables(e, []string{base}) }
	w.Begin = func(e bench.Env) (bench.Run, error) {
		t, err := typedTableOf(e, wide, false)
		if err != nil {
			return bench.Run{}, err
		}
		if err := recreateTables(e, []string{t.base()}, typedCreate(e.Dialect, t)); err != nil {
			return bench.Run{}, err
		}
		q := typedInsertSQL(e.Dialect, t)
		ins := &suiteTxInsert{}
		args := make([]any, 0, 1+len(t.cols()))
		return bench.Run{
			Start: func() error { return ins.begin(e.Conn, q) },
			Op: func(i int) error {
				return ins.stmts[0].Exec(t.args(args[:0], int64(i)+1)...)
			},
			Finish: ins.commit,
			End: func() error {
				if !ins.done {
					ins.abort()
					return nil
				}
				r := newTypedReader(t, e.Warm+e.N)
				if err := r.read(e.Conn, typedQuerySQL(e.Dialect, t)); err != nil {
					return fmt.Errorf("verify: %w", err)
				}
				return nil
			},
		}, nil
	}
	return w
}

// typedQueryWorkload reads the whole table of 1,000 rows per operation
// through the driver's plain query call (db.Query without arguments: the
// text protocol on MariaDB, pgx's statement cache on PostgreSQL), scanning
// and checking every row.
func typedQueryWorkload(wide, asBytes bool) bench.Workload {
	base, scan := typedTableStub(wide).base(), "string"
	if asBytes {
		scan = "bytes"
	}
	w := bench.Workload{
		Name: typedName(wide, "Query"), Ops: typedQueries, Unit: "queries",
		Describe: func(d bench.Dialect) string {
			var s string
			if wide {
				s = "integers into int64, texts into string, doubles into float64"
			} else {
				s = "time into time.Time, UUID into uuid.UUID, data into []byte, qty into sql.NullInt64, " +
					"decimal, JSON and note into " + map[bool]string{
					false: "string and sql.NullString", true: "[]byte, json.RawMessage and []byte (nil for NULL)",
				}[asBytes] + " (the native APIs: time and UUID as text or bytes, parsed)"
			}
			return "`" + typedQuerySQL(d, typedTableStub(wide)) + "`, all " + strconv.Itoa(typedRows) +
				" rows of " + typedDescribeTable(d, wide) + ", through the plain query call (unprepared); " + s +
				"; every value checked against the value of its id in the timed loop"
		},
		Setup: func(e bench.Env) error {
			t, err := typedTableOf(e, wide, asBytes)
			if err != nil {
				return err
			}
			return typedFill(e, t, typedRows)
		},
		Teardown: func(e bench.Env) error { return recreateTables(e, []string{base}) },
	}
	if !wide {
		w.Keys = "scan=" + scan
	}
	w.Begin = func(e bench.Env) (bench.Run, error) {
		t, err := typedTableOf(e, wide, asBytes)
		if err != nil {
			return bench.Run{}, err
		}
		q := typedQuerySQL(e.Dialect, t)
		r := newTypedReader(t, typedRows)
		return bench.Run{Op: func(int) error { return r.read(e.Conn, q) }}, nil
	}
	return w
}

// typedTableStub returns a table for the SQL text of descriptions.
func typedTableStub(wide bool) typedTable {
	if wide {
		return &typedWide{}
	}
	return &typedMixed{}
}
