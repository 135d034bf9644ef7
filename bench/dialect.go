package bench

import (
	"fmt"
	"strconv"
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

// SQLiteSetup returns the session settings every SQLite target runs under:
// the defaults of the published SQLite driver suite.
func SQLiteSetup() []string {
	return []string{
		"PRAGMA journal_mode=DELETE",
		"PRAGMA synchronous=FULL",
		"PRAGMA foreign_keys=ON",
		"PRAGMA busy_timeout=5000",
	}
}

// Param returns the placeholder for the n-th (1-based) parameter.
func (d Dialect) Param(n int) string {
	if d.dollar {
		return "$" + strconv.Itoa(n)
	}
	return "?"
}
