package servers

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"
)

// mariadb starts mariadbd; the fields record what this binary accepts.
type mariadb struct {
	daemon, installer string
	flushNosync       bool // innodb_flush_method=nosync is accepted
}

func findMariaDB() (*mariadb, error) {
	dirs := systemBinDirs()
	daemon := findProgram([]string{"mariadbd", "mysqld"}, dirs)
	if daemon == "" {
		return nil, notInstalled(KindMariaDB, "mariadbd")
	}
	installer := findProgram([]string{"mariadb-install-db", "mysql_install_db"},
		append(dirs, "/usr/local/mysql/scripts"))
	if installer == "" {
		return nil, notInstalled(KindMariaDB, "mariadb-install-db")
	}
	return &mariadb{daemon: daemon, installer: installer}, nil
}

func (m *mariadb) socket(dir string, _ int) string { return filepath.Join(dir, "mysqld.sock") }

func (m *mariadb) logs(dir string) []string {
	return []string{filepath.Join(dir, "error.log"), filepath.Join(dir, serverLog)}
}

func (m *mariadb) binaries() []string { return []string{m.daemon, m.installer} }

// initialize runs mariadb-install-db as the server's account, so it needs
// no --user (which would also make the script chown the system's PAM helper
// directory).
func (m *mariadb) initialize(ctx context.Context, r *run) error {
	dir := r.srv.Dir
	return runTool(ctx, r, filepath.Join(dir, "init.log"), m.installer,
		"--no-defaults", "--auth-root-authentication-method=normal", "--skip-test-db",
		"--datadir="+filepath.Join(dir, "data"))
}

// configure asks mariadbd which of the profile's options it accepts.
func (m *mariadb) configure(ctx context.Context, r *run) error {
	if r.opt.Profile == ProfileDurable {
		return nil
	}
	return m.probe(ctx, r)
}

// probe runs mariadbd --verbose --help with the profile's options: the
// values it prints are the ones it would use, its option list shows which
// variables exist, and its warnings which options it drops.
func (m *mariadb) probe(ctx context.Context, r *run) error {
	opts := mariadbProfileArgs(r.opt.Profile, true)
	if r.opt.Profile == ProfileSeed {
		r.srv.Seed = seedPlan(r.opt)
		opts = seedArgs(r.srv.Seed)
	}
	args := append(append([]string{"--no-defaults"}, opts...), "--verbose", "--help")
	cmd := exec.CommandContext(ctx, m.daemon, args...)
	cmd.Dir, cmd.Env = r.srv.Dir, childEnv(r.srv.Dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	r.acct.apply(cmd.SysProcAttr)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s --verbose --help failed (%v): %s", m.daemon, err,
			meaningfulLine(errOut.String(), ""))
	}
	sc := bufio.NewScanner(bytes.NewReader(out.Bytes()))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "innodb-flush-method" {
			m.flushNosync = f[1] == "nosync"
		}
	}
	if r.opt.Profile == ProfileSeed {
		markUnsupported(r.srv.Seed, out.String(), errOut.String())
		for _, s := range r.srv.Seed {
			if s.Unsupported != "" {
				r.logf("%s: seed option %s=%s not applied: %s", r.srv.Kind, s.Option, s.Requested, s.Unsupported)
			}
		}
	}
	if r.opt.Profile == ProfileFast && !m.flushNosync {
		r.logf("%s: this mariadbd does not accept innodb_flush_method=nosync; leaving the default", r.srv.Kind)
	}
	return nil
}

func (m *mariadb) command(r *run) (string, []string) {
	s := r.srv
	args := []string{
		"--no-defaults",
		"--datadir=" + filepath.Join(s.Dir, "data"),
		"--socket=" + s.Socket,
		fmt.Sprintf("--port=%d", s.Port),
		"--bind-address=127.0.0.1",
		"--pid-file=" + filepath.Join(s.Dir, "mysqld.pid"),
		"--log-error=" + filepath.Join(s.Dir, "error.log"),
		"--tmpdir=" + s.Dir,
		"--skip-name-resolve",
		// LOAD DATA LOCAL INFILE, the bulk family's load path: MariaDB's
		// default, said explicitly so that no packaging changes it.
		"--local-infile=1",
	}
	if s.TLSCert != "" {
		args = append(args, "--ssl-cert="+s.TLSCert, "--ssl-key="+filepath.Join(s.Dir, tlsKeyFile))
	}
	if r.opt.Profile == ProfileSeed {
		return m.daemon, append(args, seedArgs(s.Seed)...)
	}
	return m.daemon, append(args, mariadbProfileArgs(r.opt.Profile, m.flushNosync)...)
}

// mariadbDB opens a one-connection pool with the given credentials.
func mariadbDB(network, addr, user, password, database string) (*sql.DB, error) {
	cfg := mysql.NewConfig()
	cfg.Net, cfg.Addr = network, addr
	cfg.User, cfg.Passwd, cfg.DBName = user, password, database
	cfg.Timeout = 2 * time.Second
	cfg.Logger = &mysql.NopLogger{}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("mysql connector: %w", err)
	}
	db := sql.OpenDB(conn)
	db.SetMaxOpenConns(1)
	return db, nil
}

func (m *mariadb) connectAdmin(ctx context.Context, s *Server) (admin, error) {
	return rootAdmin(ctx, s)
}

// rootAdmin connects as root, without a password, through the socket of
// s, a MariaDB or TiDB server: the first connection of both.
func rootAdmin(ctx context.Context, s *Server) (mariadbAdmin, error) {
	db, err := mariadbDB("unix", s.Socket, "root", "", "")
	if err != nil {
		return mariadbAdmin{}, err
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return mariadbAdmin{}, err
	}
	return mariadbAdmin{db}, nil
}

func (m *mariadb) userPing(ctx context.Context, s *Server) error {
	db, err := mariadbDB("tcp", fmt.Sprintf("%s:%d", s.Host, s.Port), s.User, s.Password, s.Database)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.PingContext(ctx)
}

type mariadbAdmin struct{ db *sql.DB }

func (a mariadbAdmin) close() { a.db.Close() }

// bootstrap drops every account but root@localhost (reachable only through
// the socket in the private directory) and mariadb.sys, then creates the
// bench database and user. The password is alphanumeric, so it can be
// quoted directly: MariaDB does not take placeholders in CREATE USER.
func (a mariadbAdmin) bootstrap(ctx context.Context, s *Server) error {
	rows, err := a.db.QueryContext(ctx,
		"SELECT User, Host FROM mysql.user WHERE NOT (Host = 'localhost' AND User IN ('root', 'mariadb.sys'))")
	if err != nil {
		return fmt.Errorf("list accounts: %w", err)
	}
	var drops []string
	for rows.Next() {
		var u, h string
		if err := rows.Scan(&u, &h); err != nil {
			rows.Close()
			return fmt.Errorf("list accounts: %w", err)
		}
		drops = append(drops, fmt.Sprintf("DROP USER %s@%s", sqlString(u), sqlString(h)))
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("list accounts: %w", err)
	}
	return a.exec(ctx, append(drops,
		"CREATE DATABASE "+s.Database,
		fmt.Sprintf("CREATE USER %s@'localhost' IDENTIFIED BY %s", sqlString(s.User), sqlString(s.Password)),
		fmt.Sprintf("CREATE USER %s@'127.0.0.1' IDENTIFIED BY %s", sqlString(s.User), sqlString(s.Password)),
		fmt.Sprintf("GRANT ALL PRIVILEGES ON %s.* TO %s@'localhost'", s.Database, sqlString(s.User)),
		fmt.Sprintf("GRANT ALL PRIVILEGES ON %s.* TO %s@'127.0.0.1'", s.Database, sqlString(s.User)),
		// The databases a script workload's cells create and drop, each
		// its own (workloads/script.Namespace).
		fmt.Sprintf("GRANT ALL PRIVILEGES ON `sqlbench\\_%%`.* TO %s@'localhost'", sqlString(s.User)),
		fmt.Sprintf("GRANT ALL PRIVILEGES ON `sqlbench\\_%%`.* TO %s@'127.0.0.1'", sqlString(s.User)),
	)...)
}

// exec runs stmts in turn; an error names the statement by its first
// words, without its arguments (a password).
func (a mariadbAdmin) exec(ctx context.Context, stmts ...string) error {
	for _, q := range stmts {
		if _, err := a.db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", firstWords(q, 3), err)
		}
	}
	return nil
}

// readGlobals sets s.Version and s.Vars: the server's version and its
// global variables of names (lower case), as MariaDB and TiDB show them.
func (a mariadbAdmin) readGlobals(ctx context.Context, s *Server, names []string) error {
	if err := a.db.QueryRowContext(ctx, "SELECT VERSION()").Scan(&s.Version); err != nil {
		return fmt.Errorf("SELECT VERSION(): %w", err)
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = sqlString(n)
	}
	rows, err := a.db.QueryContext(ctx,
		"SHOW GLOBAL VARIABLES WHERE Variable_name IN ("+strings.Join(quoted, ", ")+")")
	if err != nil {
		return fmt.Errorf("SHOW GLOBAL VARIABLES: %w", err)
	}
	defer rows.Close()
	s.Vars = map[string]string{}
	for rows.Next() {
		var n, v string
		if err := rows.Scan(&n, &v); err != nil {
			return fmt.Errorf("SHOW GLOBAL VARIABLES: %w", err)
		}
		s.Vars[strings.ToLower(n)] = v
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("SHOW GLOBAL VARIABLES: %w", err)
	}
	return nil
}

func (a mariadbAdmin) readBack(ctx context.Context, s *Server) error {
	if err := a.readGlobals(ctx, s, append(mariadbVarNames(), seedVarNames(s.Seed)...)); err != nil {
		return err
	}
	// The seed settings' values go beside what they asked for, not
	// among the profile-independent variables.
	for i, set := range s.Seed {
		if set.Variable == "" {
			continue
		}
		s.Seed[i].InForce = s.Vars[set.Variable]
		if !slices.Contains(mariadbVarNames(), set.Variable) {
			delete(s.Vars, set.Variable)
		}
	}
	return nil
}

// sqlString quotes s as a MariaDB string literal.
func sqlString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// firstWords names a statement in an error without its arguments.
func firstWords(q string, n int) string {
	f := strings.Fields(q)
	return strings.Join(f[:min(n, len(f))], " ")
}
