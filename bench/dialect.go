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
)

// AllDBs lists every database family in display order.
func AllDBs() []DB { return []DB{SQLite, MariaDB, Postgres} }

// ParseDB returns the DB named s.
func ParseDB(s string) (DB, error) {
	for _, d := range AllDBs() {
		if string(d) == s {
			return d, nil
		}
	}
	return "", fmt.Errorf("unknown database %q (valid: sqlite, mariadb, postgres)", s)
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
