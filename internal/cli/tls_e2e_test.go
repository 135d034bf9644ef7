package cli

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"

	"github.com/sqlbench/sqlbench/internal/servers"
)

// TestJDBCTargetsOverTLS gives each JDBC server target a user DSN asking
// for TLS (PostgreSQL's sslmode=verify-full with the server's certificate
// as sslrootcert, go-sql-driver's tls=skip-verify for MariaDB) and runs a
// script that records, from the server, the TLS version and cipher of the
// session it runs in: every execution must have run encrypted.
func TestJDBCTargetsOverTLS(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	needJDK(t)
	env, stdout, stderr, cache, tmp := realEnv(t)
	ctx := context.Background()
	for _, c := range []struct {
		kind   servers.Kind
		target string
		goToo  string // a Go target run beside it, for its header line
	}{
		{servers.KindPostgres, "jdbc-postgres", "pgx"},
		{servers.KindMariaDB, "jdbc-mariadb", "mysql"},
		{servers.KindMariaDB, "jdbc-mysql", ""},
	} {
		t.Run(c.target, func(t *testing.T) {
			srv, err := servers.Start(ctx, servers.Options{Kind: c.kind, Profile: servers.ProfileFast, TLS: true})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Stop()
			var dsn, insert string
			var open func() (*sql.DB, error)
			if c.kind == servers.KindPostgres {
				u := url.URL{Scheme: "postgres", User: url.UserPassword(srv.User, srv.Password),
					Host: fmt.Sprintf("127.0.0.1:%d", srv.Port), Path: "/" + srv.Database,
					RawQuery: url.Values{"sslmode": {"verify-full"}, "sslrootcert": {srv.TLSCert}}.Encode()}
				dsn = u.String()
				insert = "INSERT INTO public.tls_seen "
				open = func() (*sql.DB, error) { return nil, nil }
			} else {
				cfg := mysql.NewConfig()
				cfg.User, cfg.Passwd, cfg.Net, cfg.Addr, cfg.DBName = srv.User, srv.Password, "tcp",
					fmt.Sprintf("127.0.0.1:%d", srv.Port), srv.Database
				dsn = cfg.FormatDSN() + "?tls=skip-verify"
				insert = "INSERT INTO bench.tls_seen "
				open = func() (*sql.DB, error) { return sql.Open("mysql", cfg.FormatDSN()) }
			}
			q := insert + servers.TLSStatusQuery(c.kind) + ";\n"
			script := filepath.Join(tmp, c.target+".sql")
			if err := os.WriteFile(script, []byte(q), 0o644); err != nil {
				t.Fatal(err)
			}
			seen := func(stmt string) [][2]string {
				t.Helper()
				var out [][2]string
				if c.kind == servers.KindPostgres {
					conn, err := pgx.Connect(ctx, strings.Replace(dsn, "verify-full", "require", 1))
					if err != nil {
						t.Fatal(err)
					}
					defer conn.Close(ctx)
					rows, err := conn.Query(ctx, stmt)
					if err != nil {
						t.Fatal(err)
					}
					for rows.Next() {
						var v, c string
						if err := rows.Scan(&v, &c); err != nil {
							t.Fatal(err)
						}
						out = append(out, [2]string{v, c})
					}
					if rows.Err() != nil {
						t.Fatal(rows.Err())
					}
					return out
				}
				db, err := open()
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				rows, err := db.Query(stmt)
				if err != nil {
					t.Fatal(err)
				}
				defer rows.Close()
				for rows.Next() {
					var v, c sql.NullString
					if err := rows.Scan(&v, &c); err != nil {
						t.Fatal(err)
					}
					out = append(out, [2]string{v.String, c.String})
				}
				return out
			}
			seen("CREATE TABLE tls_seen (version varchar(40), cipher varchar(100))")
			out := filepath.Join(t.TempDir(), "out.txt")
			ts := c.target
			if c.goToo != "" {
				ts += "," + c.goToo
			}
			code := Main(ctx, []string{"run", "--db", string(c.kind), "--dsn", string(c.kind) + "=" + dsn,
				"--targets", ts, "--script", script, "--quick", "--count", "1", "--slices", "1",
				"-o", out, "--cache", cache}, env)
			if code != ExitOK {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			rows := seen("SELECT version, cipher FROM tls_seen")
			if len(rows) == 0 {
				t.Fatal("the script recorded no session")
			}
			for _, r := range rows {
				if !strings.HasPrefix(r[0], "TLS") || r[1] == "" {
					t.Fatalf("a session of %s ran with TLS version %q cipher %q: not encrypted", c.target, r[0], r[1])
				}
			}
			t.Logf("%s: %d executions, all over %s %s", ts, len(rows), rows[0][0], rows[0][1])
			// The header names what the server reported for each target's
			// own connection.
			_, cfg := readRuns(t, out)
			for _, name := range strings.Split(ts, ",") {
				if v := cfg.GetConfig(name + "-tls"); !strings.HasPrefix(v, "TLS") || !strings.Contains(v, " ") {
					t.Errorf("%s-tls: %q, want the version and cipher", name, v)
				}
			}
		})
	}
}
