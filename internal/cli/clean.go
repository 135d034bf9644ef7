package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/session"
)

// cleanCmd drops the tables one session left in a user's database (a run
// killed with no chance to clean up): sqlbench clean --db DB --dsn DSN
// (--session ID | RESULTS-FILE). Only that session's tables are dropped,
// and each is named.
func cleanCmd(ctx context.Context, args []string, env Env) error {
	fs := newFlags("clean")
	dbName := fs.String("db", "", "the database: mariadb or postgres")
	dsnFlag := fs.String("dsn", "", "the server's DSN (default $SQLBENCH_MYSQL_DSN or $SQLBENCH_POSTGRES_DSN)")
	id := fs.String("session", "", "the session id (the session-id line of its results file)")
	allowRemote := fs.Bool("allow-remote", false, "allow a DSN whose server is not on this machine")
	files, err := parseWithFiles(fs, args, env)
	if err != nil {
		return err
	}
	db, err := bench.ParseDB(*dbName)
	if err != nil || !db.Server() {
		return usagef("clean: --db must be mariadb or postgres")
	}
	d := *dsnFlag
	if d == "" {
		d = env.Getenv(session.DSNEnv(db))
	}
	if d == "" {
		return usagef("clean: --dsn (or $%s) names the database to clean", session.DSNEnv(db))
	}
	switch {
	case len(files) > 1 || (len(files) == 1) == (*id != ""):
		return usagef("clean: name the session: --session ID or one results file")
	case len(files) == 1:
		if *id, err = sessionID(files[0]); err != nil {
			return err
		}
	}
	names, err := session.DropTables(ctx, db, d, *id, *allowRemote)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		fmt.Fprintf(env.Stdout, "no table of session %s in the %s database\n", *id, db)
		return nil
	}
	fmt.Fprintf(env.Stdout, "dropped %d table(s) of session %s: %s\n", len(names), *id, strings.Join(names, ", "))
	return nil
}

// sessionID reads the session-id line of a results file; the header is
// enough (a session interrupted before its first result has only that).
func sessionID(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", usagef("clean: results file %s: %v", path, err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "session-id:"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", usagef("clean: %s has no session-id line", path)
}
