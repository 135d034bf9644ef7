package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// DB names a database family. Its string is the db= key in result names.
type DB string

// The database families sqlbench knows.
const (
	SQLite   DB = "sqlite"
	MariaDB  DB = "mariadb"
	Postgres DB = "postgres"
	// Loopback is not a database but the transport floor: raw TCP and
	// HTTP/1.1 to a sink in the runner process on 127.0.0.1, the limit under
	// every networked number. It speaks no SQL; only workloads that name it
	// in Workload.Only run on it.
	Loopback DB = "loopback"
)

// AllDBs lists every SQL database family in display order: the databases a
// workload without Only runs on. Loopback is not among them.
func AllDBs() []DB { return []DB{SQLite, MariaDB, Postgres} }

// KnownDBs lists every family a target can speak: the SQL databases, then
// Loopback.
func KnownDBs() []DB { return append(AllDBs(), Loopback) }

// SQL reports whether db is a SQL database (not the transport floor).
func (db DB) SQL() bool { return db != Loopback }

// Server reports whether db is reached over a network transport: MariaDB
// and PostgreSQL, whose numbers the transport floor bounds.
func (db DB) Server() bool { return db == MariaDB || db == Postgres }

// ParseDB returns the DB named s.
func ParseDB(s string) (DB, error) {
	for _, d := range KnownDBs() {
		if string(d) == s {
			return d, nil
		}
	}
	return "", fmt.Errorf("unknown database %q (valid: sqlite, mariadb, postgres, loopback)", s)
}

// Dialect holds what differs in SQL text between databases.
type Dialect struct {
	DB DB
	// NoopExec is the cheapest statement that touches no data.
	NoopExec string
	// Version is a query returning the server's (or library's) version.
	Version string
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

// DialectOf returns the dialect of db.
func DialectOf(db DB) Dialect {
	switch db {
	case Postgres:
		// A custom (dotted) setting: a session variable, like MySQL's
		// @test_var, and not one the server reports back to the client.
		return Dialect{DB: db, NoopExec: "SET sqlbench.test_var = 1", Version: "SHOW server_version", dollar: true}
	case MariaDB:
		return Dialect{DB: db, NoopExec: "SET @test_var=1", Version: "SELECT VERSION()"}
	case Loopback:
		// No SQL at all: the floor targets' SQL methods fail.
		return Dialect{DB: db}
	default:
		return Dialect{DB: SQLite, NoopExec: "SELECT 1", Version: "SELECT sqlite_version()", Setup: SQLiteSetup()}
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

// Setup returns the PRAGMA statements of s, foreign keys on and a busy
// timeout of 5 s included.
func (s SQLiteSettings) Setup() []string {
	j, y := s.Journal, s.Sync
	if j == "" {
		j = DefaultSQLiteJournal
	}
	if y == "" {
		y = DefaultSQLiteSync
	}
	return []string{
		"PRAGMA journal_mode=" + j,
		"PRAGMA synchronous=" + y,
		"PRAGMA foreign_keys=ON",
		"PRAGMA busy_timeout=5000",
	}
}

// ParseSQLiteJournal checks a journal mode (delete, truncate, persist,
// memory, wal, off; any case) and returns it upper case.
func ParseSQLiteJournal(s string) (string, error) {
	return oneOf("journal mode", s, "DELETE", "TRUNCATE", "PERSIST", "MEMORY", "WAL", "OFF")
}

// ParseSQLiteSync checks a synchronous level (off, normal, full, extra; any
// case) and returns it upper case.
func ParseSQLiteSync(s string) (string, error) {
	return oneOf("synchronous level", s, "OFF", "NORMAL", "FULL", "EXTRA")
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
