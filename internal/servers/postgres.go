package servers

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqlbench/sqlbench/targets/pgdsn"
)

// postgres starts a postmaster from one PostgreSQL installation.
type postgres struct {
	server, initdb string
}

// findPostgres prefers the highest version under /usr/lib/postgresql (the
// Debian layout), then postgres and initdb on PATH.
func findPostgres() (*postgres, error) {
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(bins, func(a, b string) int {
		return compareVersions(filepath.Base(filepath.Dir(b)), filepath.Base(filepath.Dir(a)))
	})
	for _, d := range bins {
		srv, ini := filepath.Join(d, "postgres"), filepath.Join(d, "initdb")
		if isExecutable(srv) && isExecutable(ini) {
			return &postgres{server: srv, initdb: ini}, nil
		}
	}
	dirs := append(systemBinDirs(), "/usr/local/pgsql/bin")
	srv := findProgram([]string{"postgres"}, dirs)
	if srv == "" {
		return nil, notInstalled(KindPostgres, "postgres")
	}
	ini := findProgram([]string{"initdb"}, append([]string{filepath.Dir(srv)}, dirs...))
	if ini == "" {
		return nil, notInstalled(KindPostgres, "initdb")
	}
	return &postgres{server: srv, initdb: ini}, nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// compareVersions orders dotted numeric versions such as "9.6" and "15".
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			return x - y
		}
	}
	return strings.Compare(a, b)
}

func (p *postgres) socket(dir string, port int) string {
	return filepath.Join(dir, fmt.Sprintf(".s.PGSQL.%d", port))
}

func (p *postgres) logs(dir string) []string { return []string{filepath.Join(dir, serverLog)} }

// hbaConf lets only the superuser in without a password, and only through
// the socket in the server's private directory; everyone else, on the socket
// or over TCP, needs a SCRAM password.
const hbaConf = `# written by sqlbench
local all postgres               trust
local all all                    scram-sha-256
host  all all      127.0.0.1/32  scram-sha-256
host  all all      ::1/128       scram-sha-256
`

// binaries returns none, which turns the template cache off: initdb
// --no-sync takes about a second, and copying its ~1000 small files took as
// long or longer on the test machine, so a template saves nothing.
func (p *postgres) binaries() []string { return nil }

// initialize runs initdb as the server's account.
func (p *postgres) initialize(ctx context.Context, r *run) error {
	return runTool(ctx, r, filepath.Join(r.srv.Dir, "init.log"), p.initdb,
		"--no-sync", "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256",
		"-E", "UTF8", "--no-locale", "-D", filepath.Join(r.srv.Dir, "data"))
}

// configure replaces initdb's pg_hba.conf.
func (p *postgres) configure(_ context.Context, r *run) error {
	data := filepath.Join(r.srv.Dir, "data")
	// The file exists and belongs to the server's account; truncating it
	// keeps the owner.
	conf := hbaConf
	if r.node != nil {
		conf += r.node.hba
	}
	if err := os.WriteFile(filepath.Join(data, "pg_hba.conf"), []byte(conf), 0o600); err != nil {
		return fmt.Errorf("write pg_hba.conf: %w", err)
	}
	return nil
}

func (p *postgres) command(r *run) (string, []string) {
	s := r.srv
	args := []string{
		"-D", filepath.Join(s.Dir, "data"),
		"-p", strconv.Itoa(s.Port),
		"-k", s.Dir,
		"-c", "listen_addresses=127.0.0.1",
		"-c", "logging_collector=off",
		"-c", "log_destination=stderr",
		"-c", "unix_socket_permissions=0700",
	}
	if s.TLSCert != "" {
		args = append(args, "-c", "ssl=on", "-c", "ssl_cert_file="+s.TLSCert,
			"-c", "ssl_key_file="+filepath.Join(s.Dir, tlsKeyFile))
	}
	args = append(args, postgresProfileArgs(r.opt.Profile, cacheBytes(r.opt))...)
	return p.server, args
}

// pgConnect connects with a keyword/value connection string.
func pgConnect(ctx context.Context, dsn string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("parse connection string: %w", err)
	}
	cfg.ConnectTimeout = 2 * time.Second
	return pgx.ConnectConfig(ctx, cfg)
}

func (p *postgres) connectAdmin(ctx context.Context, s *Server) (admin, error) {
	conn, err := pgConnect(ctx, fmt.Sprintf("host=%s port=%d user=postgres dbname=postgres sslmode=disable",
		pgdsn.Quote(s.Dir), s.Port))
	if err != nil {
		return nil, err
	}
	return postgresAdmin{conn}, nil
}

func (p *postgres) userPing(ctx context.Context, s *Server) error {
	conn, err := pgConnect(ctx, fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable",
		s.Host, s.Port, pgdsn.Quote(s.User), pgdsn.Quote(s.Password), pgdsn.Quote(s.Database)))
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	return conn.Ping(ctx)
}

type postgresAdmin struct{ conn *pgx.Conn }

func (a postgresAdmin) close() { a.conn.Close(context.Background()) }

// bootstrap creates the bench role and the database it owns. The password
// is alphanumeric, so it can be quoted directly: utility statements take no
// parameters.
func (a postgresAdmin) bootstrap(ctx context.Context, s *Server) error {
	role := pgx.Identifier{s.User}.Sanitize()
	stmts := []string{
		fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s'", role, strings.ReplaceAll(s.Password, "'", "''")),
		fmt.Sprintf("CREATE DATABASE %s OWNER %s", pgx.Identifier{s.Database}.Sanitize(), role),
	}
	for _, q := range stmts {
		if _, err := a.conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", firstWords(q, 3), err)
		}
	}
	return nil
}

func (a postgresAdmin) readBack(ctx context.Context, s *Server) error {
	if err := a.conn.QueryRow(ctx, "SHOW server_version").Scan(&s.Version); err != nil {
		return fmt.Errorf("SHOW server_version: %w", err)
	}
	rows, err := a.conn.Query(ctx,
		"SELECT name, current_setting(name) FROM pg_settings WHERE name = ANY($1)", postgresVarNames())
	if err != nil {
		return fmt.Errorf("read pg_settings: %w", err)
	}
	defer rows.Close()
	s.Vars = map[string]string{}
	for rows.Next() {
		var n, v string
		if err := rows.Scan(&n, &v); err != nil {
			return fmt.Errorf("read pg_settings: %w", err)
		}
		s.Vars[n] = v
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read pg_settings: %w", err)
	}
	return nil
}
