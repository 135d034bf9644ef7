package bench

import (
	"context"
	"errors"
)

// Conn is one open session of a target against one database. It is used by
// one goroutine at a time. "Simple" calls compile the SQL text every time they
// run; Prepare returns a statement compiled once. How each maps onto a native
// API is documented on the target.
type Conn interface {
	// Exec runs a statement that returns no rows the caller wants.
	Exec(query string, args ...any) error
	// Query runs a query and calls fn once for every row, in order. It stops
	// at the first error fn returns and returns it.
	Query(query string, fn RowFunc, args ...any) error
	// QueryRow runs a query through the driver's single-row call and calls
	// fn with the first row. A query that returns no row is an error.
	QueryRow(query string, fn RowFunc, args ...any) error
	// Prepare compiles query once for repeated use.
	Prepare(query string) (Stmt, error)
	// Close releases the session.
	Close() error
}

// CachedQuerier is implemented by a Conn whose library keeps the
// statements it compiles, keyed by their SQL text, and hands a cached one
// back reset and unbound (crawshaw's and zombiezen's Conn.Prepare).
// QueryCached runs query as a program that calls that Prepare for every
// query does: compiled on its first use on the connection, reused after,
// never finalized by the caller.
type CachedQuerier interface {
	QueryCached(query string, fn RowFunc, args ...any) error
}

// QueryCached runs query on c through its library's statement cache when c
// has one (CachedQuerier), else as c.Query: the read of a published
// program that prepares its query through the library's cache on every
// call where the library has one, and calls its plain query otherwise.
func QueryCached(c Conn, query string, fn RowFunc, args ...any) error {
	if cq, ok := c.(CachedQuerier); ok {
		return cq.QueryCached(query, fn, args...)
	}
	return c.Query(query, fn, args...)
}

// Stmt is a prepared statement of a Conn.
type Stmt interface {
	// Exec runs the statement with args, ignoring any rows.
	Exec(args ...any) error
	// Query runs the statement and calls fn once for every row.
	Query(fn RowFunc, args ...any) error
	// QueryRow runs the statement through the driver's single-row call.
	QueryRow(fn RowFunc, args ...any) error
	// Close releases the statement.
	Close() error
}

// Row is the current row of a result. Scan copies its columns into dest in
// the manner of database/sql: dest holds one pointer per column.
type Row interface {
	Scan(dest ...any) error
}

// RowFunc receives one row of a result. The Row is valid only during the
// call.
type RowFunc func(Row) error

// Config says where a target connects to.
type Config struct {
	// DB is the database the target speaks to.
	DB DB
	// DSN is the SQLite database file.
	DSN string
	// Server is where a server target connects; each target formats it in
	// its own driver's DSN syntax.
	Server Endpoint
	// Pool, when above 1, asks a target with CapPool for a Conn that Pool
	// goroutines may use at once; other targets ignore it.
	Pool int
	// Session holds the statements a target with CapPool runs on every new
	// connection of its pool (the dialect's session settings), since the
	// pool opens connections by itself.
	Session []string
}

// Endpoint is a database server reached over one transport, in a form every
// driver can be configured from.
type Endpoint struct {
	// Net is "tcp" or "unix".
	Net string
	// Addr is "host:port" for tcp and the socket file's path for unix (for
	// PostgreSQL the file is <dir>/.s.PGSQL.<port>).
	Addr string
	// User, Password and Database log in.
	User, Password, Database string
	// TLS says whether and how a target encrypts the connection: TLSOff
	// (""), TLSRequire or TLSVerify (see TLSMode).
	TLS TLSMode
	// CA is the PEM file of the certificates TLSVerify trusts; "" means the
	// system's roots.
	CA string
}

// ContextQuerier is a Conn whose one-row call takes a context that reaches
// the driver, so that a deadline or a cancellation interrupts the call the
// way the driver does it (database/sql's QueryRowContext, pgx's context
// argument). Targets declare it as CapContext.
type ContextQuerier interface {
	QueryRowContext(ctx context.Context, query string, fn RowFunc, args ...any) error
}

// Opener opens a Conn for a target.
type Opener func(ctx context.Context, cfg Config) (Conn, error)

// ErrNoRows is returned by QueryRow when the query returned no row.
var ErrNoRows = errors.New("query returned no rows")
