// Package mysqlproto registers the "mysqlproto" target: the MySQL/MariaDB
// protocol floor, a minimal client of the client/server protocol written on
// go-mysql's packet layer (github.com/go-mysql-org/go-mysql/packet, reached
// through its client.Conn) and nothing above it, so that a driver's cost
// above the protocol's own shows beside it in the same run
// (docs/protocol-floor.md).
//
// Opening is go-mysql's client.Connect (handshake, authentication: outside
// the timed region); every call after that is one COM_QUERY packet written
// with packet.Conn.WritePacket and the response read with ReadPacket: an OK
// or an ERR packet, or a result set (the column count, the column
// definitions read and counted, an EOF, the text rows, an EOF), repeated
// while the server says more results follow. Each row's length-encoded
// values (mysql.LengthEncodedString) go to the caller's RowFunc as text.
// There is no result buffering, no field parsing and no arguments in the
// text path. A prepared statement is go-mysql's own: COM_STMT_PREPARE by
// client.Conn.Prepare, then one COM_STMT_EXECUTE per call with the
// arguments in the binary protocol (client.Stmt), the binary rows parsed
// by the column types and streamed, one at a time, to the caller as text
// (see stmt). The target runs only the workloads whose calls are these
// (targets.Spec.Only).
package mysqlproto

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/go-mysql-org/go-mysql/client"
	"github.com/go-mysql-org/go-mysql/mysql"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/textrow"
)

func init() { bench.RegisterOpener("mysqlproto", Open) }

// dialTimeout bounds connecting to the server.
const dialTimeout = 10 * time.Second

// errArgs is the error of a call with arguments: the floor sends SQL text
// only.
var errArgs = errors.New("mysqlproto: the protocol floor takes no arguments (SQL text only)")

// Open connects to cfg.Server with go-mysql's client and keeps its packet
// connection.
func Open(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
	e := cfg.Server
	d := &net.Dialer{Timeout: dialTimeout}
	tc, err := e.TLSConfig()
	if err != nil {
		return nil, err
	}
	var opts []client.Option
	if tc != nil {
		// The packet layer reads and writes through the handshake's
		// connection, TLS included.
		opts = append(opts, func(c *client.Conn) error { c.SetTLSConfig(tc); return nil })
	}
	c, err := client.ConnectWithDialer(ctx, e.Net, e.Addr, e.User, e.Password, e.Database, d.DialContext, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect over %s: %w", e.Net, err)
	}
	// A server that offers query attributes gets them, none, in every
	// COM_QUERY: go-mysql's handshake accepts the capability where the
	// server has it (MySQL 8.0.23 and later; no MariaDB).
	attrs := strings.Contains(c.CapabilityString(), "CLIENT_QUERY_ATTRIBUTES")
	return &conn{c: c, attrs: attrs}, nil
}

// conn is one connection. It is used by one goroutine at a time and keeps
// its packet buffers and one row for all its calls.
type conn struct {
	c     *client.Conn
	attrs bool   // COM_QUERY carries a (zero) count of query attributes
	out   []byte // the packet written: 4 header bytes, COM_QUERY, the SQL
	in    []byte // the packet read
	row   textrow.Row
}

// query sends sql as one COM_QUERY and reads the response whole. Each row
// goes to fn while fn returns nil and, when first is set, only the first;
// rows is how many arrived. The server's error, else fn's, is returned
// after the whole response is read, so that the connection is ready for
// the next call.
func (c *conn) query(sql string, fn bench.RowFunc, first bool) (rows int, err error) {
	c.out = append(c.out[:0], 0, 0, 0, 0, mysql.COM_QUERY)
	if c.attrs {
		c.out = append(c.out, 0, 1) // no parameters, one parameter set
	}
	c.out = append(c.out, sql...)
	c.c.ResetSequence()
	if err := c.c.WritePacket(c.out); err != nil {
		return 0, fmt.Errorf("send query: %w", err)
	}
	var fnErr error
	for {
		p, err := c.read()
		if err != nil {
			return rows, err
		}
		var status uint16
		switch p[0] {
		case mysql.OK_HEADER:
			status = okStatus(p)
		case mysql.ERR_HEADER:
			return rows, errPacket(p) // nothing follows an error
		case mysql.LocalInFile_HEADER:
			return rows, errors.New("mysqlproto: the server asked for a local file")
		default:
			if status, err = c.resultSet(p, fn, first, &rows, &fnErr); err != nil {
				return rows, err
			}
		}
		if status&mysql.SERVER_MORE_RESULTS_EXISTS == 0 {
			return rows, fnErr
		}
	}
}

// resultSet reads a result set whose first packet, its column count, is
// p: the column definitions, an EOF, the rows (each to fn as query says)
// and the EOF that ends them, whose status it returns.
func (c *conn) resultSet(p []byte, fn bench.RowFunc, first bool, rows *int, fnErr *error) (uint16, error) {
	cols, _, n := mysql.LengthEncodedInt(p)
	if n != len(p) || cols == 0 {
		return 0, mysql.ErrMalformPacket
	}
	for i := uint64(0); ; i++ {
		p, err := c.read()
		if err != nil {
			return 0, err
		}
		if eof(p) {
			if i != cols {
				return 0, fmt.Errorf("mysqlproto: %d column definitions for %d columns", i, cols)
			}
			break
		}
	}
	for {
		p, err := c.read()
		if err != nil {
			return 0, err
		}
		switch {
		case eof(p):
			return binary.LittleEndian.Uint16(p[3:]), nil
		case p[0] == mysql.ERR_HEADER:
			return 0, errPacket(p)
		}
		*rows++
		if fn == nil || *fnErr != nil || (first && *rows > 1) {
			continue
		}
		if err := c.values(p, int(cols)); err != nil {
			return 0, err
		}
		*fnErr = fn(&c.row)
	}
}

// values splits a text row into the row's values, nil for NULL.
func (c *conn) values(p []byte, cols int) error {
	c.row.Values = c.row.Values[:0]
	for range cols {
		v, null, n, err := mysql.LengthEncodedString(p)
		if err != nil {
			return fmt.Errorf("mysqlproto: row: %w", err)
		}
		if null {
			v = nil
		}
		c.row.Values = append(c.row.Values, v)
		p = p[n:]
	}
	if len(p) != 0 {
		return mysql.ErrMalformPacket
	}
	return nil
}

// read reads the next packet into the connection's buffer.
func (c *conn) read() ([]byte, error) {
	var err error
	if c.in, err = c.c.ReadPacketReuseMem(c.in[:0]); err != nil {
		return nil, fmt.Errorf("receive: %w", err)
	}
	if len(c.in) == 0 {
		return nil, mysql.ErrMalformPacket
	}
	return c.in, nil
}

// eof reports whether p is an EOF packet (0xFE and shorter than any row
// that begins with an 8-byte length).
func eof(p []byte) bool { return p[0] == mysql.EOF_HEADER && len(p) < 9 && len(p) >= 5 }

// okStatus returns the status flags of an OK packet: after the affected
// rows and the last insert id.
func okStatus(p []byte) uint16 {
	_, _, n := mysql.LengthEncodedInt(p[1:])
	_, _, m := mysql.LengthEncodedInt(p[1+n:])
	if i := 1 + n + m; len(p) >= i+2 {
		return binary.LittleEndian.Uint16(p[i:])
	}
	return 0
}

// errPacket returns the error an ERR packet carries: its code, SQL state
// and message.
func errPacket(p []byte) error {
	e := &mysql.MyError{}
	if len(p) >= 3 {
		e.Code = binary.LittleEndian.Uint16(p[1:])
		p = p[3:]
	}
	if len(p) >= 6 && p[0] == '#' {
		e.State, p = string(p[1:6]), p[6:]
	}
	e.Message = string(p)
	return e
}

// Exec runs query as one COM_QUERY, its rows read and dropped.
func (c *conn) Exec(query string, args ...any) error {
	if len(args) > 0 {
		return errArgs
	}
	_, err := c.query(query, nil, false)
	return err
}

// Query runs query as one COM_QUERY and calls fn for every row.
func (c *conn) Query(query string, fn bench.RowFunc, args ...any) error {
	if len(args) > 0 {
		return errArgs
	}
	_, err := c.query(query, fn, false)
	return err
}

// QueryRow runs query as one COM_QUERY and calls fn with its first row;
// the rest are read and dropped. No row is bench.ErrNoRows.
func (c *conn) QueryRow(query string, fn bench.RowFunc, args ...any) error {
	if len(args) > 0 {
		return errArgs
	}
	n, err := c.query(query, fn, true)
	if err == nil && n == 0 {
		return bench.ErrNoRows
	}
	return err
}

// Prepare sends COM_STMT_PREPARE through go-mysql's client.Conn.Prepare
// (its reply read: the statement id, the parameter and column
// definitions); the statement's calls are COM_STMT_EXECUTE.
func (c *conn) Prepare(query string) (bench.Stmt, error) {
	s, err := c.c.Prepare(query)
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	return &stmt{c: c, s: s}, nil
}

// stmt is a statement prepared on the server. Its calls are one
// COM_STMT_EXECUTE each, written by go-mysql's client.Stmt with the
// arguments in the binary protocol. Query and QueryRow read the response
// with its streaming reader: an OK or ERR packet, or a result set whose
// binary rows it parses by the column types the server sent
// (mysql.RowData.Parse), one row held at a time, each row's values to the
// caller's RowFunc as text, as the text protocol's are; Exec reads it with
// Stmt.Execute.
type stmt struct {
	c    *conn
	s    *client.Stmt
	res  mysql.Result // reused by every execution
	row  textrow.Row
	buf  [][]byte // one buffer per column for the values as text
	each client.SelectPerRowCallback

	// The execution under way (see execute).
	fn    bench.RowFunc
	first bool
	rows  int
	fnErr error
}

// execute runs the statement once with args; rows and fnErr as conn.query.
// The whole response is read whatever fn returns, so that the connection
// is ready for the next call.
func (s *stmt) execute(fn bench.RowFunc, first bool, args []any) (rows int, err error) {
	s.fn, s.first, s.rows, s.fnErr = fn, first, 0, nil
	if s.each == nil {
		s.each = s.onRow // one method value for the statement's life
	}
	err = s.s.ExecuteSelectStreaming(&s.res, s.each, nil, args...)
	rows, fnErr := s.rows, s.fnErr
	s.fn, s.fnErr = nil, nil
	if err != nil {
		return rows, fmt.Errorf("execute: %w", err)
	}
	return rows, fnErr
}

// onRow takes one row of the execution under way: to fn as execute says,
// never an error (that would leave the rest of the response unread).
func (s *stmt) onRow(vals []mysql.FieldValue) error {
	s.rows++
	if s.fn == nil || s.fnErr != nil || (s.first && s.rows > 1) {
		return nil
	}
	s.text(vals)
	s.fnErr = s.fn(&s.row)
	return nil
}

// text sets the row's values to vals written as text (nil for NULL), in
// buffers kept from row to row.
func (s *stmt) text(vals []mysql.FieldValue) {
	for len(s.buf) < len(vals) {
		s.buf = append(s.buf, nil)
	}
	s.row.Values = s.row.Values[:0]
	for i := range vals {
		v, b := &vals[i], s.buf[i][:0]
		switch v.Type {
		case mysql.FieldValueTypeNull:
			s.row.Values = append(s.row.Values, nil)
			continue
		case mysql.FieldValueTypeSigned:
			b = strconv.AppendInt(b, v.AsInt64(), 10)
		case mysql.FieldValueTypeUnsigned:
			b = strconv.AppendUint(b, v.AsUint64(), 10)
		case mysql.FieldValueTypeFloat:
			b = strconv.AppendFloat(b, v.AsFloat64(), 'g', -1, 64)
		default:
			b = append(b, v.AsString()...)
		}
		s.buf[i] = b
		s.row.Values = append(s.row.Values, b)
	}
}

// Exec runs the statement with go-mysql's Stmt.Execute, which reads the
// response whole (an OK packet for the statements Exec is for; rows, if
// any, are read and dropped with it).
func (s *stmt) Exec(args ...any) error {
	r, err := s.s.Execute(args...)
	if err != nil {
		return fmt.Errorf("execute: %w", err)
	}
	r.Close()
	return nil
}

// Query runs the statement and calls fn for every row.
func (s *stmt) Query(fn bench.RowFunc, args ...any) error {
	_, err := s.execute(fn, false, args)
	return err
}

// QueryRow runs the statement and calls fn with its first row; the rest
// are read and dropped. No row is bench.ErrNoRows.
func (s *stmt) QueryRow(fn bench.RowFunc, args ...any) error {
	n, err := s.execute(fn, true, args)
	if err == nil && n == 0 {
		return bench.ErrNoRows
	}
	return err
}

// Close sends COM_STMT_CLOSE (the server sends no reply).
func (s *stmt) Close() error { return s.s.Close() }

// Close sends COM_QUIT and closes the socket.
func (c *conn) Close() error { return c.c.Quit() }
