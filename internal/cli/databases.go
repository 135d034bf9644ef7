package cli

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/redact"
)

// dsnEnv names the environment variable that gives a database's DSN.
func dsnEnv(db bench.DB) string {
	switch db {
	case bench.MariaDB:
		return "SQLBENCH_MYSQL_DSN"
	case bench.Postgres:
		return "SQLBENCH_POSTGRES_DSN"
	}
	return ""
}

// parseDSNFlags reads --dsn values ("mariadb=DSN", "postgres=DSN"; mysql is
// accepted for mariadb) into a map by database.
func parseDSNFlags(vals []string) (map[bench.DB]string, error) {
	out := map[bench.DB]string{}
	for _, v := range vals {
		name, dsn, ok := strings.Cut(v, "=")
		if !ok || dsn == "" {
			return nil, usagef("--dsn: want DATABASE=DSN, e.g. --dsn postgres=postgres://user:pw@127.0.0.1/db")
		}
		if name == "mysql" {
			name = string(bench.MariaDB)
		}
		db, err := bench.ParseDB(name)
		if err != nil || !db.Server() {
			return nil, usagef("--dsn: %q is not a server database (valid: mariadb, postgres)", name)
		}
		out[db] = dsn
	}
	return out, nil
}

// parseEndpoint reads a user's DSN for db with the driver's own parser:
// go-sql-driver/mysql for MariaDB/MySQL, pgx's pgconn for PostgreSQL (which
// also takes URLs and key=value strings). Errors never carry the password.
func parseEndpoint(db bench.DB, dsn string) (bench.Endpoint, error) {
	var e bench.Endpoint
	switch db {
	case bench.MariaDB:
		cfg, err := mysql.ParseDSN(dsn)
		if err != nil {
			return e, fmt.Errorf("bad mariadb DSN %s: %v", redact.DSN(dsn), err)
		}
		e = bench.Endpoint{Net: cfg.Net, Addr: cfg.Addr, User: cfg.User, Password: cfg.Passwd, Database: cfg.DBName}
		if e.Net == "" {
			e.Net = "tcp"
		}
	case bench.Postgres:
		cfg, err := pgconn.ParseConfig(dsn)
		if err != nil {
			// pgconn quotes the (redacted) DSN first; keep only the reason.
			msg := err.Error()
			if i := strings.Index(msg, "`: "); i >= 0 {
				msg = msg[i+3:]
			}
			return e, fmt.Errorf("bad postgres DSN %s: %s", redact.DSN(dsn), msg)
		}
		e = bench.Endpoint{Net: "tcp", Addr: net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))),
			User: cfg.User, Password: cfg.Password, Database: cfg.Database}
		if strings.HasPrefix(cfg.Host, "/") {
			e.Net, e.Addr = "unix", fmt.Sprintf("%s/.s.PGSQL.%d", cfg.Host, cfg.Port)
		}
	default:
		return e, fmt.Errorf("%s takes no DSN", db)
	}
	if e.Database == "" {
		return e, fmt.Errorf("the %s DSN %s names no database: sqlbench needs one to create its tables in", db, redact.DSN(dsn))
	}
	return e, nil
}

// checkLoopback refuses endpoints off this machine unless allowed: load
// stays on loopback by default.
func checkLoopback(db bench.DB, e bench.Endpoint, allowRemote bool) error {
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
	return fmt.Errorf("the %s server %s is not on this machine: sqlbench sends load only to loopback addresses and unix sockets unless --allow-remote is given", db, host)
}

// reach checks that something listens at e, so that an unreachable server
// is one clear error before any benchmark, not a failure in every cell.
func reach(db bench.DB, e bench.Endpoint) error {
	c, err := net.DialTimeout(e.Net, e.Addr, 3*time.Second)
	if err != nil {
		return fmt.Errorf("cannot reach the %s server at %s: %v", db, e.Addr, unwrapNetErr(err))
	}
	return c.Close()
}

func unwrapNetErr(err error) error {
	if oe, ok := err.(*net.OpError); ok && oe.Err != nil {
		return oe.Err
	}
	return err
}
