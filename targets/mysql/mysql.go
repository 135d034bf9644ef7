// Package mysql registers two targets for github.com/go-sql-driver/mysql
// through database/sql: "mysql" (arguments through server-side prepared
// statements, the driver's default) and "mysql-interp" (interpolateParams:
// arguments formatted into the SQL text client-side). Both load data with
// LOAD DATA LOCAL INFILE from an io.Reader (bench.Loader); "mysql" sends
// a batch's statements as one multi-statement text (bench.Batcher), on a
// connection of its own opened with multiStatements=true.
package mysql

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/go-sql-driver/mysql"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/sqldb"
)

func init() {
	bench.RegisterOpener("mysql", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		return open(ctx, cfg, false)
	}, bench.CapPool, bench.CapLoad, bench.CapContext, bench.CapMultiStmt)
	bench.RegisterOpener("mysql-interp", func(ctx context.Context, cfg bench.Config) (bench.Conn, error) {
		return open(ctx, cfg, true)
	}, bench.CapPool, bench.CapLoad, bench.CapContext)
}

// Config returns the driver configuration for e. An endpoint with TLS sets
// the driver's TLS to e.TLSConfig (verified against e.CA for
// bench.TLSVerify); Config fails only on a TLS setting it cannot build.
func Config(e bench.Endpoint, interpolate bool) (*mysql.Config, error) {
	c := mysql.NewConfig()
	c.Net, c.Addr, c.User, c.Passwd, c.DBName = e.Net, e.Addr, e.User, e.Password, e.Database
	c.InterpolateParams = interpolate
	// DATETIME columns scan into time.Time, as a program reading them so
	// configures the driver (the typed family); no other workload reads one.
	c.ParseTime = true
	tc, err := e.TLSConfig()
	if err != nil {
		return nil, err
	}
	c.TLS = tc
	return c, nil
}

func open(ctx context.Context, cfg bench.Config, interpolate bool) (bench.Conn, error) {
	mc, err := Config(cfg.Server, interpolate)
	if err != nil {
		return nil, fmt.Errorf("configure: %w", err)
	}
	connector, err := mysql.NewConnector(mc)
	if err != nil {
		return nil, fmt.Errorf("configure: %w", err)
	}
	c, err := sqldb.Wrap(ctx, sql.OpenDB(connector), cfg)
	if err != nil {
		return nil, err
	}
	return &conn{Conn: c.(sqldb.Conn), cfg: cfg}, nil
}
