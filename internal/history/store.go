// Package history keeps the sessions a user records, in an embedded SQLite
// database (modernc.org/sqlite, pure Go) or a team's PostgreSQL (pgx), and
// gives back each cell's series across them: per machine, settings, cell
// and unit, one point per session (the median of its runs), with the
// change points internal/changepoint finds. Results files go in (Record)
// and come back out in the Go benchmark format (Export).
package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"golang.org/x/perf/benchfmt"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver, pure Go

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/redact"
)

// Store is an open history database.
type Store struct {
	db *sql.DB
	// pg is set for PostgreSQL: its placeholders are $1, $2, ...
	pg bool
	// where names the database in errors, passwords masked.
	where string
}

// pgKeyword is the start of a libpq keyword/value connection string.
var pgKeyword = regexp.MustCompile(`^\s*(host|hostaddr|dbname|user|port|service)\s*=`)

// IsPostgres reports whether dsn names a PostgreSQL database (a
// postgres:// or postgresql:// URL, or keyword/value pairs starting with
// host=, dbname=, user=, port= or service=) rather than a SQLite file.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") ||
		pgKeyword.MatchString(dsn)
}

// DefaultPath is the SQLite history of a user whose environment getenv
// reads: $XDG_DATA_HOME/sqlbench/history.db, else
// $HOME/.local/share/sqlbench/history.db (the XDG default); "" when
// neither variable is set.
func DefaultPath(getenv func(string) string) string {
	if d := getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "sqlbench", "history.db")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", "sqlbench", "history.db")
	}
	return ""
}

// Open opens the history at dsn, a PostgreSQL URL or a SQLite file's path
// (made, with its directory, when missing), and creates its tables when
// they are not there. An error never carries a password.
func Open(ctx context.Context, dsn string) (*Store, error) {
	s := &Store{pg: IsPostgres(dsn), where: dsn}
	var err error
	if s.pg {
		if s.where, err = redact.DSN(bench.Postgres, dsn); err != nil {
			return nil, fmt.Errorf("history database: %w", err)
		}
		s.db, err = sql.Open("pgx", dsn)
	} else {
		if err := os.MkdirAll(filepath.Dir(dsn), 0o755); err != nil {
			return nil, fmt.Errorf("history database %s: %w", dsn, errors.Unwrap(err))
		}
		s.db, err = sql.Open("sqlite", "file:"+dsn+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(wal)")
	}
	if err == nil {
		err = s.db.PingContext(ctx)
	}
	if err == nil {
		err = s.createTables(ctx)
	}
	if err != nil {
		if s.db != nil {
			s.db.Close()
		}
		if s.pg {
			err = redact.Reason(err, dsn)
		}
		return nil, fmt.Errorf("history database %s: %w", s.where, err)
	}
	return s, nil
}

// Where names the database, its password masked.
func (s *Store) Where() string { return s.where }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// schema is the history's tables, in SQL both SQLite and PostgreSQL take.
// A session is a results file recorded; a run is one of its result lines,
// filed by the ids of its machine's, settings' and configuration's texts
// (kept once each in history_texts); vals is its values, "value unit ...".
func schema() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS history_sessions (
			id TEXT PRIMARY KEY,
			began TEXT NOT NULL,
			source TEXT NOT NULL,
			recorded TEXT NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS history_texts (
			id TEXT PRIMARY KEY,
			body TEXT NOT NULL)`,
		`CREATE TABLE IF NOT EXISTS history_runs (
			session TEXT NOT NULL REFERENCES history_sessions (id),
			seq INTEGER NOT NULL,
			machine TEXT NOT NULL,
			settings TEXT NOT NULL,
			config TEXT NOT NULL,
			name TEXT NOT NULL,
			workload TEXT NOT NULL,
			driver TEXT NOT NULL,
			target TEXT NOT NULL,
			env TEXT NOT NULL,
			iters BIGINT NOT NULL,
			vals TEXT NOT NULL,
			PRIMARY KEY (session, seq))`,
		`CREATE INDEX IF NOT EXISTS history_runs_cell ON history_runs (workload, driver)`,
	}
}

func (s *Store) createTables(ctx context.Context) error {
	for _, q := range schema() {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("create tables: %w", err)
		}
	}
	return nil
}

// q returns query with PostgreSQL's placeholders for a PostgreSQL store.
func (s *Store) q(query string) string {
	if !s.pg {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SessionID returns the id a results file is recorded under: its
// session-id line, or, for a file without one (go test -bench output),
// "file-" and a hash of its content.
func SessionID(set *benchfile.Set, content []byte) string {
	for _, r := range set.Results {
		if id := r.GetConfig(benchfile.KeySessionID); id != "" {
			return id
		}
	}
	return "file-" + hashOf(string(content))[:12]
}

// Record stores the results of one session, read from source, under id
// (SessionID). It returns false, storing nothing, when a session of that
// id is recorded already.
func (s *Store) Record(ctx context.Context, id, source string, set *benchfile.Set, now time.Time) (bool, error) {
	if len(set.Results) == 0 {
		return false, fmt.Errorf("%s holds no results", source)
	}
	h, err := benchfile.ParseHeader(set.Results[0].Config)
	if err != nil {
		return false, fmt.Errorf("%s: %w", source, err)
	}
	began := h.Began
	if began.IsZero() {
		began = h.Started
	}
	if began.IsZero() {
		began = now
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("record %s: %w", source, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, s.q(`INSERT INTO history_sessions (id, began, source, recorded) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`), id, stamp(began), source, stamp(now))
	if err != nil {
		return false, fmt.Errorf("record %s: %w", source, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return false, fmt.Errorf("record %s: %w", source, err)
	} else if n == 0 {
		return false, nil
	}
	texts := map[string]bool{}
	text := func(body string) (string, error) {
		id := hashOf(body)
		if !texts[id] {
			texts[id] = true
			if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO history_texts (id, body) VALUES (?, ?)
				ON CONFLICT (id) DO NOTHING`), id, body); err != nil {
				return "", err
			}
		}
		return id, nil
	}
	for i, r := range set.Results {
		k := keyOf(r)
		var ids [3]string
		for j, body := range []string{k.Machine, k.Settings, configText(r)} {
			if ids[j], err = text(body); err != nil {
				return false, fmt.Errorf("record %s: %w", source, err)
			}
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO history_runs (session, seq, machine, settings, config,
			name, workload, driver, target, env, iters, vals) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			id, i, ids[0], ids[1], ids[2], k.Name, k.Workload, k.Driver, k.Target, k.Env, r.Iters,
			valuesText(r.Values)); err != nil {
			return false, fmt.Errorf("record %s: %w", source, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("record %s: %w", source, err)
	}
	return true, nil
}

// stamp is how the store writes a time: RFC 3339 in UTC to the
// millisecond, which sorts as text.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// configText is a result's file configuration, one "key: value" line
// each, in order.
func configText(r *benchfmt.Result) string {
	var b strings.Builder
	for _, c := range r.Config {
		if c.File {
			fmt.Fprintf(&b, "%s: %s\n", c.Key, c.Value)
		}
	}
	return b.String()
}

// parseConfig reads configText back.
func parseConfig(text string) []benchfmt.Config {
	var out []benchfmt.Config
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok {
			out = append(out, benchfmt.Config{Key: k, Value: []byte(v), File: true})
		}
	}
	return out
}

// valuesText is values as "value unit value unit ...", each value exact
// and in the unit the file wrote (ns/op, which benchfmt reads as sec/op).
func valuesText(vs []benchfmt.Value) string {
	parts := make([]string, 0, 2*len(vs))
	for _, v := range vs {
		if v.OrigUnit != "" {
			parts = append(parts, strconv.FormatFloat(v.OrigValue, 'g', -1, 64), v.OrigUnit)
			continue
		}
		parts = append(parts, strconv.FormatFloat(v.Value, 'g', -1, 64), v.Unit)
	}
	return strings.Join(parts, " ")
}

// parseValues reads valuesText back.
func parseValues(text string) ([]benchfmt.Value, error) {
	f := strings.Fields(text)
	if len(f)%2 != 0 {
		return nil, fmt.Errorf("values %q: not value-unit pairs", text)
	}
	out := make([]benchfmt.Value, 0, len(f)/2)
	for i := 0; i < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return nil, fmt.Errorf("values %q: %w", text, err)
		}
		out = append(out, benchfmt.Value{Value: v, Unit: f[i+1]})
	}
	return out, nil
}
