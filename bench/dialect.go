package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// DB names a database family, or a Kind of target that is not a database
// (registered by its own package). Its string is the db= key in result
// names.
type DB string

// The SQL database families sqlbench knows.
const (
	SQLite   DB = "sqlite"
	MariaDB  DB = "mariadb"
	Postgres DB = "postgres"
)

// AllDBs lists every SQL database family in display order: the databases a
// workload without Only runs on.
func AllDBs() []DB { return []DB{SQLite, MariaDB, Postgres} }

// KnownDBs lists every family a target can speak: the SQL databases, then
// the registered kinds (see Kind) in registration order.
func KnownDBs() []DB {
	dbs := AllDBs()
	for _, k := range Kinds() {
		dbs = append(dbs, k.DB)
	}
	return dbs
}

// SQL reports whether db is a SQL database (one of AllDBs), not a Kind.
func (db DB) SQL() bool { return slices.Contains(AllDBs(), db) }

// Server reports whether db is reached over a network transport: MariaDB
// and PostgreSQL, whose numbers a Kind with BoundsServers bounds.
func (db DB) Server() bool { return db == MariaDB || db == Postgres }

// ParseDB returns the DB named s: a SQL database or a registered kind.
func ParseDB(s string) (DB, error) {
	known := KnownDBs()
	for _, d := range known {
		if string(d) == s {
			return d, nil
		}
	}
	names := make([]string, len(known))
	for i, d := range known {
		names[i] = string(d)
	}
	return "", fmt.Errorf("unknown database %q (valid: %s)", s, strings.Join(names, ", "))
}

// Dialect holds what differs in SQL text between databases.
type Dialect struct {
	DB DB
	// NoopExec is the cheapest statement that touches no data.
	NoopExec string
	// Version is a query returning the server's (or library's) version.
	Version string
	// TLSStatus, for a server database, is a query returning one row of
	// two strings: the TLS protocol version and cipher the server reports
	// for the connection running it, both empty on a plain connection
	// (PostgreSQL's pg_stat_ssl, MariaDB's session status Ssl_version and
	// Ssl_cipher). It takes no arguments, so that every driver can run it.
	TLSStatus string
	// Setup is run through Conn.Exec after every open, so all targets of a
	// database run under the same session settings.
	Setup []string
	// Scope makes table names unique to one cell, so that cells sharing a
	// server database never touch each other's tables. Set per cell.
	Scope string
	// dollar is set when placeholders are $1, $2 ... instead of ?.
	dollar bool
}

// Table returns the name of a workload's table: sqlbench's prefix, the
// cell's scope, and base. sqlbench only ever touches tables named so.
func (d Dialect) Table(base string) string {
	if d.Scope == "" {
		return "sqlbench_" + base
	}
	return "sqlbench_" + d.Scope + "_" + base
}

// DialectOf returns the dialect of db; for a Kind, which speaks no SQL, a
// dialect with no statements.
func DialectOf(db DB) Dialect {
	switch db {
	case Postgres:
		// A custom (dotted) setting: a session variable, like MySQL's
		// @test_var, and not one the server reports back to the client.
		return Dialect{DB: db, NoopExec: "SET sqlbench.test_var = 1", Version: "SHOW server_version", dollar: true,
			TLSStatus: pgTLSStatus}
	case MariaDB:
		return Dialect{DB: db, NoopExec: "SET @test_var=1", Version: "SELECT VERSION()", TLSStatus: mariadbTLSStatus}
	case SQLite:
		return Dialect{DB: SQLite, NoopExec: "SELECT 1", Version: "SELECT sqlite_version()", Setup: SQLiteSetup()}
	default:
		return Dialect{DB: db}
	}
}

// SQLiteSetup returns the session settings every SQLite target runs under
// by default: those of the published SQLite driver suite.
func SQLiteSetup() []string { return SQLiteSettings{}.Setup() }

// SQLiteSettings are the SQLite session settings a run may change: the
// journal mode and the synchronous level. Empty fields mean the published
// suite's defaults (DELETE, FULL). Values are upper case, as ParseSQLiteJournal
// and ParseSQLiteSync return them.
type SQLiteSettings struct {
	Journal, Sync string
}

// Default SQLite settings, as in the published SQLite driver suite.
const (
	DefaultSQLiteJournal = "DELETE"
	DefaultSQLiteSync    = "FULL"
)

// DefaultSQLiteSettings returns the default settings spelled out (the
// published SQLite driver suite's journal mode and synchronous level).
func DefaultSQLiteSettings() SQLiteSettings {
	return SQLiteSettings{Journal: DefaultSQLiteJournal, Sync: DefaultSQLiteSync}
}

// SQLiteSyncDriver, as the synchronous level, sets none: each driver keeps
// the level it sets itself, as the Sqinn-Go suite's published programs ran
// (mattn's database/sql driver sets NORMAL on every connection it opens;
// crawshaw, sqinn and the other libraries leave SQLite's default, FULL).
const SQLiteSyncDriver = "DRIVER"

// Setup returns the PRAGMA statements of s, foreign keys on and a busy
// timeout of 5 s included; with SQLiteSyncDriver no synchronous level.
func (s SQLiteSettings) Setup() []string {
	j, y := s.Journal, s.Sync
	if j == "" {
		j = DefaultSQLiteJournal
	}
	if y == "" {
		y = DefaultSQLiteSync
	}
	setup := []string{"PRAGMA journal_mode=" + j}
	if y != SQLiteSyncDriver {
		setup = append(setup, "PRAGMA synchronous="+y)
	}
	return append(setup, "PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=5000")
}

// ParseSQLiteJournal checks a journal mode (delete, truncate, persist,
// memory, wal, off; any case) and returns it upper case.
func ParseSQLiteJournal(s string) (string, error) {
	return oneOf("journal mode", s, "DELETE", "TRUNCATE", "PERSIST", "MEMORY", "WAL", "OFF")
}

// ParseSQLiteSync checks a synchronous level (off, normal, full, extra, or
// driver: SQLiteSyncDriver; any case) and returns it upper case.
func ParseSQLiteSync(s string) (string, error) {
	return oneOf("synchronous level", s, "OFF", "NORMAL", "FULL", "EXTRA", SQLiteSyncDriver)
}

func oneOf(what, s string, valid ...string) (string, error) {
	u := strings.ToUpper(s)
	if slices.Contains(valid, u) {
		return u, nil
	}
	return "", fmt.Errorf("unknown SQLite %s %q (valid: %s)", what, s, strings.ToLower(strings.Join(valid, ", ")))
}

// WithSQLite returns d with SQLite session settings s: for a SQLite
// dialect its Setup becomes s.Setup(); other dialects are returned as they
// are.
func (d Dialect) WithSQLite(s SQLiteSettings) Dialect {
	if d.DB == SQLite {
		d.Setup = s.Setup()
	}
	return d
}

// Param returns the placeholder for the n-th (1-based) parameter.
func (d Dialect) Param(n int) string {
	if d.dollar {
		return "$" + strconv.Itoa(n)
	}
	return "?"
}

// The TLS status queries of Dialect.TLSStatus.
const (
	pgTLSStatus = "SELECT coalesce(version, ''), coalesce(cipher, '') FROM pg_stat_ssl WHERE pid = pg_backend_pid()"
	// information_schema.SESSION_STATUS holds SHOW SESSION STATUS's
	// values, one row for both.
	mariadbTLSStatus = "SELECT coalesce((SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS " +
		"WHERE VARIABLE_NAME = 'SSL_VERSION'), ''), coalesce((SELECT VARIABLE_VALUE FROM " +
		"information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'SSL_CIPHER'), '')"
)
