package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/journal"
	"github.com/sqlbench/sqlbench/internal/link"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/session"
)

// cleanCommand is sqlbench clean: it drops the tables one session left in
// a user's database (a run killed with no chance to clean up).
func cleanCommand(ctx context.Context, env Env) *cobra.Command {
	c := &cobra.Command{
		Use:   "clean [--db DB [--dsn DSN] (--session ID | RESULTS-FILE | JOURNAL)]",
		Short: "drop the tables a killed session left in your database; end its proxies and servers",
		Long: `Clean drops the tables one session left in your database when it was killed
with no chance to clean up. Only that session's tables are dropped, and each
is named.

Every clean, with no arguments too, first ends the link proxies (run --link)
and the throwaway servers and clusters of sqlbench processes that are gone,
and removes their records and directories; a live session's are left alone.`,
		Example: `  sqlbench clean --db postgres --dsn postgres://u:pw@127.0.0.1/bench results/sqlbench-1.txt
  sqlbench clean --db postgres results/sqlbench-1.journal   # the DSN from $SQLBENCH_POSTGRES_DSN
  sqlbench clean --db mariadb --dsn 'user:pw@tcp(127.0.0.1:3306)/bench' --session k7q2zz
  sqlbench clean                                   # only what killed sessions left running`,
	}
	fs := c.Flags()
	dbName := fs.String("db", "", "the database: mariadb or postgres")
	dsnFlag := fs.String("dsn", "", "the server's DSN (default $SQLBENCH_MYSQL_DSN or $SQLBENCH_POSTGRES_DSN)")
	id := fs.String("session", "", "the session id (the session-id line of its results file)")
	allowRemote := fs.Bool("allow-remote", false, "allow a DSN whose server is not on this machine")
	complete(c, "db", func() []string { return []string{"mariadb", "postgres"} })
	c.RunE = func(_ *cobra.Command, files []string) error {
		return clean(ctx, files, *dbName, *dsnFlag, *id, *allowRemote, env)
	}
	return c
}

// clean drops the tables of one session: the session id, or the one in
// the results file files names.
func clean(ctx context.Context, files []string, dbName, dsnFlag, id string, allowRemote bool, env Env) error {
	n, err := link.Sweep(env.Stdout)
	if err != nil {
		fmt.Fprintln(env.Stderr, "sqlbench:", oneLine(err.Error()))
	}
	// The throwaway servers and clusters of killed sessions: their
	// processes, directories and shared memory.
	gone, serr := servers.Sweep(env.Stdout)
	if serr != nil {
		fmt.Fprintln(env.Stderr, "sqlbench:", oneLine(serr.Error()))
		err = cmp.Or(err, serr)
	}
	if dbName == "" && dsnFlag == "" && id == "" && len(files) == 0 {
		if n == 0 && len(gone) == 0 && err == nil {
			fmt.Fprintln(env.Stdout, "no link proxy or throwaway server of a killed session to end")
		}
		return err
	}
	db, err := bench.ParseDB(dbName)
	if err != nil || !db.Server() {
		return usagef("clean: --db must be mariadb or postgres")
	}
	d := dsnFlag
	if d == "" {
		d = env.Getenv(session.DSNEnv(db))
	}
	if d == "" {
		return usagef("clean: --dsn (or $%s) names the database to clean", session.DSNEnv(db))
	}
	switch {
	case len(files) > 1 || (len(files) == 1) == (id != ""):
		return usagef("clean: name the session: --session ID or one results file or journal")
	case len(files) == 1:
		if id, err = sessionID(files[0]); err != nil {
			return err
		}
	}
	names, err := session.DropTables(ctx, db, d, id, allowRemote)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		fmt.Fprintf(env.Stdout, "no table of session %s in the %s database\n", id, db)
		return nil
	}
	fmt.Fprintf(env.Stdout, "dropped %d table(s) of session %s: %s\n", len(names), id, strings.Join(names, ", "))
	return nil
}

// sessionID returns the session id of a results file or journal: the
// results file's session-id line, else the session of the journal at path
// or beside it (a session killed before its first result has a results
// file of only its header, and its journal).
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
		// "# session-id: ..." (a session fact, benchfile.IsSessionFact)
		// or, in files of earlier versions, "session-id: ...".
		if v, ok := strings.CutPrefix(strings.TrimPrefix(line, "# "), "session-id:"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	for _, j := range []string{path, session.JournalPath(path)} {
		if h, _, err := journal.Read(j); err == nil {
			return h.Session, nil
		}
	}
	return "", usagef("clean: %s has no session-id line, and no journal of a session is at %s", path,
		session.JournalPath(path))
}
