// Package dsn reads a user's server DSN into the driver-neutral
// bench.Endpoint, with each database's own driver parser, and checks it
// before a run: on this machine (unless allowed) and reachable. It also
// lists and drops what sessions leave on such a server, by the prefix of
// their names (Tables, Namespaces, Drop, DropNamespaces). No error it
// returns carries a password.
package dsn

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/redact"
)

// EnvVar names the environment variable that gives a database's DSN, or ""
// for a database that takes none.
func EnvVar(db bench.DB) string {
	switch db {
	case bench.MariaDB:
		return "SQLBENCH_MYSQL_DSN"
	case bench.Postgres:
		return "SQLBENCH_POSTGRES_DSN"
	}
	return ""
}

// Parse reads a user's DSN for db with the driver's own parser:
// go-sql-driver/mysql for MariaDB/MySQL, pgx's pgconn for PostgreSQL (which
// also takes URLs and key=value strings).
//
// A DSN the driver rejects is not shown: the error gives the driver's
// reason only, scrubbed of whatever it quotes of the DSN (redact.DSN).
func Parse(db bench.DB, dsn string) (bench.Endpoint, error) {
	var e bench.Endpoint
	if !db.Server() {
		return e, fmt.Errorf("%s takes no DSN", db)
	}
	shown, err := redact.DSN(db, dsn)
	if err != nil {
		return e, fmt.Errorf("bad %s DSN: %v", db, err)
	}
	switch db {
	case bench.MariaDB:
		cfg, err := mysql.ParseDSN(dsn)
		if err != nil {
			return e, fmt.Errorf("bad %s DSN: %v", db, redact.Reason(err, dsn))
		}
		e = bench.Endpoint{Net: cfg.Net, Addr: cfg.Addr, User: cfg.User, Password: cfg.Passwd, Database: cfg.DBName}
		switch cfg.TLSConfig {
		case "", "false":
		case "true":
			e.TLS = bench.TLSVerify
		default: // skip-verify, preferred (taken as required), a name only a program registers
			e.TLS = bench.TLSRequire
		}
	case bench.Postgres:
		cfg, err := pgconn.ParseConfig(dsn)
		if err != nil {
			return e, fmt.Errorf("bad %s DSN: %v", db, redact.Reason(err, dsn))
		}
		e = bench.Endpoint{Net: "tcp", Addr: net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))),
			User: cfg.User, Password: cfg.Password, Database: cfg.Database}
		if strings.HasPrefix(cfg.Host, "/") {
			e.Net, e.Addr = "unix", fmt.Sprintf("%s/.s.PGSQL.%d", cfg.Host, cfg.Port)
		}
		if t := cfg.TLSConfig; t != nil && e.Net == "tcp" && !plainFallback(cfg) {
			// sslmode=require skips verification; verify-ca and
			// verify-full verify (both taken as verify-full). prefer (the
			// default) and allow fall back to plain text: the targets
			// connect in plain text, as before TLS was a setting.
			e.TLS = bench.TLSRequire
			if !t.InsecureSkipVerify || t.VerifyPeerCertificate != nil {
				e.TLS, e.CA = bench.TLSVerify, sslRootCert(dsn)
			}
		}
	}
	if e.Database == "" {
		return e, fmt.Errorf("the %s DSN %s names no database: sqlbench needs one to create its tables in", db, shown)
	}
	return e, nil
}

// CheckLocal refuses an endpoint off this machine unless allowRemote: load
// stays on loopback addresses and unix sockets by default.
func CheckLocal(db bench.DB, e bench.Endpoint, allowRemote bool) error {
	if e.Net == "unix" || allowRemote {
		return nil
	}
	host, _, err := net.SplitHostPort(e.Addr)
	if err != nil {
		return fmt.Errorf("%s address %q: %v", db, e.Addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("the %s server %s is not on this machine: sqlbench sends load only to loopback addresses and "+
		"unix sockets unless --allow-remote is given", db, host)
}

// Reach checks that something listens at e, so that an unreachable server
// is one clear error before any benchmark, not a failure in every cell.
func Reach(db bench.DB, e bench.Endpoint) error {
	c, err := net.DialTimeout(e.Net, e.Addr, 3*time.Second)
	if err != nil {
		if oe, ok := err.(*net.OpError); ok && oe.Err != nil {
			err = oe.Err
		}
		return fmt.Errorf("cannot reach the %s server at %s: %v", db, e.Addr, err)
	}
	return c.Close()
}

// sslRootCert returns the sslrootcert parameter of a PostgreSQL DSN (a URL's
// query or a keyword/value string's unquoted value), else $PGSSLROOTCERT,
// as pgconn reads them.
func sslRootCert(dsn string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		if u, err := url.Parse(dsn); err == nil && u.Query().Get("sslrootcert") != "" {
			return u.Query().Get("sslrootcert")
		}
	} else {
		for _, f := range strings.Fields(dsn) {
			if v, ok := strings.CutPrefix(f, "sslrootcert="); ok && v != "" {
				return strings.Trim(v, "'")
			}
		}
	}
	return os.Getenv("PGSSLROOTCERT")
}

// plainFallback reports whether cfg may connect in plain text (sslmode
// prefer or allow).
func plainFallback(cfg *pgconn.Config) bool {
	for _, f := range cfg.Fallbacks {
		if f.TLSConfig == nil {
			return true
		}
	}
	return false
}
