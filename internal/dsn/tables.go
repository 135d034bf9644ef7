package dsn

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/redact"
)

// Tables returns the tables of the DSN's database (its current schema on
// PostgreSQL) whose names begin with prefix, sorted. sqlbench names every
// table it creates "sqlbench_<session id>c<cell>_<name>", so a session id's
// prefix finds that session's tables and nothing else.
func Tables(ctx context.Context, db bench.DB, dsn, prefix string) ([]string, error) {
	query := "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
	if db == bench.MariaDB {
		query = "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name"
	}
	return prefixed(ctx, db, dsn, prefix, query)
}

// prefixed returns the names query lists on the DSN's server that begin
// with prefix, in the query's order.
func prefixed(ctx context.Context, db bench.DB, dsn, prefix, query string) ([]string, error) {
	var names []string
	err := withConn(ctx, db, dsn, func(q querier) error {
		all, err := q.strings(ctx, query)
		for _, n := range all {
			if strings.HasPrefix(n, prefix) {
				names = append(names, n)
			}
		}
		return err
	})
	return names, err
}

// Drop drops the named tables of the DSN's database. Callers pass only
// names Tables returned for a prefix of their own.
func Drop(ctx context.Context, db bench.DB, dsn string, names []string) error {
	return dropEach(ctx, db, dsn, names, func(n string) string { return "DROP TABLE IF EXISTS " + n })
}

// dropEach runs the statement stmt makes for each of names on one
// connection to the DSN's server, stopping at the first that fails.
func dropEach(ctx context.Context, db bench.DB, dsn string, names []string, stmt func(name string) string) error {
	if len(names) == 0 {
		return nil
	}
	return withConn(ctx, db, dsn, func(q querier) error {
		for _, n := range names {
			if err := q.exec(ctx, stmt(n)); err != nil {
				return fmt.Errorf("drop %s: %w", n, err)
			}
		}
		return nil
	})
}

// querier is the little a table sweep needs of a connection.
type querier interface {
	strings(ctx context.Context, query string) ([]string, error)
	exec(ctx context.Context, query string) error
}

// withConn opens one connection to the DSN's server with the driver's own
// client (go-sql-driver/mysql, pgx's pgconn), runs f and closes it. Errors
// never carry the password.
func withConn(ctx context.Context, db bench.DB, dsn string, f func(querier) error) error {
	var err error
	switch db {
	case bench.MariaDB:
		var cfg *mysql.Config
		if cfg, err = mysql.ParseDSN(dsn); err != nil {
			return fmt.Errorf("bad mariadb DSN: %v", redact.Reason(err, dsn))
		}
		var conn *sql.Conn
		var c driver.Connector
		if c, err = mysql.NewConnector(cfg); err == nil {
			pool := sql.OpenDB(c)
			defer pool.Close()
			if conn, err = pool.Conn(ctx); err == nil {
				defer conn.Close()
				err = f(sqlQuerier{conn})
			}
		}
	case bench.Postgres:
		var conn *pgconn.PgConn
		if conn, err = pgconn.Connect(ctx, dsn); err == nil {
			defer conn.Close(context.Background())
			err = f(pgQuerier{conn})
		}
	default:
		return fmt.Errorf("%s has no server", db)
	}
	if err != nil {
		return fmt.Errorf("%s: %s", db, redact.Secrets(err.Error(), passwordOf(db, dsn)))
	}
	return nil
}

// passwordOf returns the DSN's password, to scrub from driver errors.
func passwordOf(db bench.DB, dsn string) string {
	if e, err := Parse(db, dsn); err == nil {
		return e.Password
	}
	return ""
}

type sqlQuerier struct{ c *sql.Conn }

func (q sqlQuerier) strings(ctx context.Context, query string) ([]string, error) {
	rows, err := q.c.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

func (q sqlQuerier) exec(ctx context.Context, query string) error {
	_, err := q.c.ExecContext(ctx, query)
	return err
}

type pgQuerier struct{ c *pgconn.PgConn }

func (q pgQuerier) strings(ctx context.Context, query string) ([]string, error) {
	res := q.c.ExecParams(ctx, query, nil, nil, nil, nil).Read()
	if res.Err != nil {
		return nil, res.Err
	}
	out := make([]string, 0, len(res.Rows))
	for _, r := range res.Rows {
		out = append(out, string(r[0]))
	}
	return out, nil
}

func (q pgQuerier) exec(ctx context.Context, query string) error {
	_, err := q.c.Exec(ctx, query).ReadAll()
	return err
}

// Namespaces returns the schemas (PostgreSQL) or databases (MariaDB) of the
// DSN's server whose names begin with prefix, sorted: where a script
// workload's cells run (workloads/script.Namespace), named like sqlbench's
// tables.
func Namespaces(ctx context.Context, db bench.DB, dsn, prefix string) ([]string, error) {
	query := "SELECT nspname FROM pg_namespace ORDER BY nspname"
	if db == bench.MariaDB {
		query = "SELECT schema_name FROM information_schema.schemata ORDER BY schema_name"
	}
	return prefixed(ctx, db, dsn, prefix, query)
}

// DropNamespaces drops the named schemas (with what they hold) or
// databases. Callers pass only names Namespaces returned for a prefix of
// their own.
func DropNamespaces(ctx context.Context, db bench.DB, dsn string, names []string) error {
	return dropEach(ctx, db, dsn, names, func(n string) string {
		if db == bench.MariaDB {
			return "DROP DATABASE IF EXISTS " + n
		}
		return "DROP SCHEMA IF EXISTS " + n + " CASCADE"
	})
}
