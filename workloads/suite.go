package workloads

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// The suite family is the published SQLite driver suite (simple, complex,
// many, large, concurrent), run on every database. Its schema:
//
//	users(id, created, email, active)
//	articles(id, created, userId REFERENCES users, text)
//	comments(id, created, articleId REFERENCES articles, text)
//
// with indexes on every created column and every foreign key, and foreign
// keys enforced (SQLite: PRAGMA foreign_keys=ON, a session setting; InnoDB
// and PostgreSQL always). Integers are INTEGER on SQLite and BIGINT on the
// servers; text is TEXT, LONGTEXT on MariaDB (whose TEXT stops at 64 KB).
// Every row is a function of its id, made as the published program makes
// it (suite_shape.go), so every read is checked row by row against it: ids
// in the order asked for, every column equal, the count right. A string
// comparison runs at memory speed, so checking a 200 KB row costs the
// harness far less than the driver's read of it.
const (
	suiteFamily = "suite"
	// The complex shape: articles per user, comments per article.
	suiteArticlesPerUser    = 100
	suiteCommentsPerArticle = 20
	// suiteSmoke is the smoke (--quick) scale of the suite's scaled
	// tables: 1,000 users, 10 and 1 large rows; suiteComplexSmoke that of
	// the complex shape: 1 of its 200 users, with 100 articles and 2,000
	// comments (a scale that rounds to whole users, so that estimates
	// from a smoke run scale right).
	suiteSmoke        = 0.001
	suiteComplexSmoke = 0.005
	// suiteRealSmoke is the real insert's: 5 of its 100 users.
	suiteRealSmoke = 0.05
)

func init() {
	for _, ws := range [][]bench.Workload{suiteSimple(), suiteReal(), suiteComplex(), suiteMany(), suiteLarge(),
		suiteConcurrent()} {
		for _, w := range ws {
			w.Family = suiteFamily
			w.NoWarmup = true // the published suite starts each test on a fresh database
			switch w.Name {
			case "SuiteSimpleInsert", "SuiteRealInsert", "SuiteComplexInsert", "SuiteLargeInsert", "SuiteLargeQuery":
				// Every run on a new file, as the program's removeDbfiles
				// before each test: an insert grows its file afresh (not
				// into a dropped table's free pages), and the large read
				// follows its own insert (suite_large.go).
				w.FreshDB = true
			}
			switch w.Name {
			case "SuiteMany", "SuiteRealQuery": // fixed table sizes
			case "SuiteComplexInsert", "SuiteComplexQuery":
				w.Smoke = suiteComplexSmoke
			case "SuiteRealInsert":
				w.Smoke = suiteRealSmoke
			default:
				w.Smoke = suiteSmoke
			}
			bench.RegisterWorkload(w)
		}
	}
}

// suiteTypes returns the integer and text column types of d.
func suiteTypes(d bench.Dialect) (integer, text string) {
	switch d.DB {
	case bench.SQLite:
		return "INTEGER", "TEXT"
	case bench.MariaDB:
		return "BIGINT", "LONGTEXT"
	default:
		return "BIGINT", "TEXT"
	}
}

// suiteSchema returns the statements that create the three tables and
// their indexes.
func suiteSchema(d bench.Dialect) []string {
	in, tx := suiteTypes(d)
	users, articles, comments := d.Table("users"), d.Table("articles"), d.Table("comments")
	engine := ""
	if d.DB == bench.MariaDB {
		engine = " ENGINE=InnoDB"
	}
	pk := in + " PRIMARY KEY NOT NULL"
	return []string{
		"CREATE TABLE " + users + " (id " + pk + ", created " + in + " NOT NULL, email " + tx + " NOT NULL, active " +
			in + " NOT NULL)" + engine,
		"CREATE INDEX " + users + "_created ON " + users + " (created)",
		"CREATE TABLE " + articles + " (id " + pk + ", created " + in + " NOT NULL, userId " + in + " NOT NULL, text " +
			tx + " NOT NULL, " +
			"FOREIGN KEY (userId) REFERENCES " + users + " (id))" + engine,
		"CREATE INDEX " + articles + "_created ON " + articles + " (created)",
		"CREATE INDEX " + articles + "_userId ON " + articles + " (userId)",
		"CREATE TABLE " + comments + " (id " + pk + ", created " + in + " NOT NULL, articleId " + in +
			" NOT NULL, text " + tx + " NOT NULL, " +
			"FOREIGN KEY (articleId) REFERENCES " + articles + " (id))" + engine,
		"CREATE INDEX " + comments + "_created ON " + comments + " (created)",
		"CREATE INDEX " + comments + "_articleId ON " + comments + " (articleId)",
	}
}

// suiteDrop drops the three tables, children first, in one transaction
// (one sync on SQLite instead of one per statement).
func suiteDrop(e bench.Env) error {
	return suiteDDL(e, nil)
}

// suiteCreate drops and creates the schema, empty, in one transaction
// (MariaDB commits at each statement of DDL instead; that is harmless here).
func suiteCreate(e bench.Env) error {
	return suiteDDL(e, suiteSchema(e.Dialect))
}

// suiteSetup returns the Setup of a workload that reads the suite's tables:
// it creates them, then fills them with fill.
func suiteSetup(fill func(e bench.Env) error) func(bench.Env) error {
	return func(e bench.Env) error {
		if err := suiteCreate(e); err != nil {
			return err
		}
		return fill(e)
	}
}

// suiteNoSetup is the Setup of workloads whose Begin creates the tables.
func suiteNoSetup(bench.Env) error { return nil }

// suiteDDL drops the suite's tables and runs create, in one transaction.
func suiteDDL(e bench.Env, create []string) error {
	return recreateTables(e, []string{"comments", "articles", "users"}, create...)
}

// recreateTables drops tables (children first) and runs create, in one
// transaction, stopping when the session is cancelled.
func recreateTables(e bench.Env, drop []string, create ...string) error {
	tx, err := bench.Begin(e.Conn)
	if err != nil {
		return err
	}
	var qs []string
	for _, base := range drop {
		qs = append(qs, "DROP TABLE IF EXISTS "+e.Dialect.Table(base))
	}
	for _, q := range append(qs, create...) {
		if err := e.Ctx.Err(); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Exec(q); err != nil {
			tx.Rollback()
			return fmt.Errorf("schema: %s: %w", q, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("schema: commit: %w", err)
	}
	return nil
}

// suiteArticle returns the columns of the complex test's article id:
// created id minutes after the base, 100 articles a user.
func suiteArticle(id int64) (created, userID int64, text string) {
	return suiteBase + id*suiteMinute, (id-1)/suiteArticlesPerUser + 1, complexArticleText
}

// suiteComment returns the columns of the complex test's comment id:
// created id minutes after the base, 20 comments an article.
func suiteComment(id int64) (created, articleID int64, text string) {
	return suiteBase + id*suiteMinute, (id-1)/suiteCommentsPerArticle + 1, complexCommentText
}

// Column lists and insert statements, written as the published program
// writes them.
func suiteUserCols() string    { return "id,created,email,active" }
func suiteArticleCols() string { return "id,created,userId,text" }
func suiteCommentCols() string { return "id,created,articleId,text" }

func suiteInsert(d bench.Dialect, base, cols string) string {
	return "INSERT INTO " + d.Table(base) + "(" + cols + ") VALUES(" + d.Param(1) + "," + d.Param(2) + "," +
		d.Param(3) + "," + d.Param(4) + ")"
}

// suiteFillMaxRows and suiteFillMaxBytes bound one statement of a fill:
// under MariaDB's default max_allowed_packet (16 MiB) with room to spare.
const (
	suiteFillMaxRows  = 500
	suiteFillMaxBytes = 1 << 20
)

// suiteFill inserts rows ids 1..n of a table untimed, as multi-row INSERTs
// with literal values (the suite's text has no quotes, so it needs no
// escaping) inside one transaction: a fast way to set up large tables
// through any target. row appends the parenthesised values of one row.
func suiteFill(e bench.Env, base, cols string, n int, row func(b []byte, id int64) []byte) error {
	tx, err := bench.Begin(e.Conn)
	if err != nil {
		return err
	}
	head := "INSERT INTO " + e.Dialect.Table(base) + " (" + cols + ") VALUES "
	b := make([]byte, 0, suiteFillMaxBytes+64<<10)
	for id := 1; id <= n; {
		if err := e.Ctx.Err(); err != nil {
			tx.Rollback()
			return err
		}
		b = append(b[:0], head...)
		for k := 0; id <= n && k < suiteFillMaxRows && len(b) < suiteFillMaxBytes; k, id = k+1, id+1 {
			if k > 0 {
				b = append(b, ',')
			}
			b = row(b, int64(id))
		}
		if err := tx.Exec(string(b)); err != nil {
			tx.Rollback()
			return fmt.Errorf("fill %s: %w", e.Dialect.Table(base), err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("fill %s: commit: %w", e.Dialect.Table(base), err)
	}
	return nil
}

// appendRow appends "(a, b, c, 'text')" to dst.
func appendRow(dst []byte, a, b, c int64, text string) []byte {
	dst = append(dst, '(')
	dst = strconv.AppendInt(dst, a, 10)
	dst = append(dst, ", "...)
	dst = strconv.AppendInt(dst, b, 10)
	dst = append(dst, ", "...)
	dst = strconv.AppendInt(dst, c, 10)
	dst = append(dst, ", '"...)
	dst = append(dst, text...)
	return append(dst, "')"...)
}

// suiteFillUsers inserts users 1..n of shape.
func suiteFillUsers(e bench.Env, n int, shape userShape) error {
	// appendRow writes the text last: the column list follows it.
	return suiteFill(e, "users", "id, created, active, email", n, func(b []byte, id int64) []byte {
		created, email, active := shape.user(id)
		return appendRow(b, id, created, boolInt(active), email)
	})
}

// suiteUsersQuery reads the whole users table in id order.
func suiteUsersQuery(d bench.Dialect) string {
	return "SELECT " + suiteUserCols() + " FROM " + d.Table("users") + " ORDER BY id"
}

// userScan checks one read of the users table, in id order from 1, against
// the generator.
type userScan struct {
	shape   userShape
	id, n   int64
	created int64
	active  int64
	email   string
	dest    []any // built once: a fresh variadic slice would escape
}

func newUserScan(shape userShape) *userScan {
	s := &userScan{shape: shape}
	s.dest = []any{&s.id, &s.created, &s.email, &s.active}
	return s
}

func (s *userScan) row(r bench.Row) error {
	if err := r.Scan(s.dest...); err != nil {
		return err
	}
	s.n++
	if s.id != s.n {
		return fmt.Errorf("row %d has id %d: out of order or missing", s.n, s.id)
	}
	created, email, active := s.shape.user(s.id)
	if s.created != created || s.active != boolInt(active) || s.email != email {
		return fmt.Errorf("wrong user %d: (%d, %q, %d), want (%d, %q, %v)", s.id, s.created, clip(s.email), s.active,
			created, clip(email), active)
	}
	return nil
}

// check ends one read: it passes err through or checks the count, and
// resets the scan.
func (s *userScan) check(err error, want int64) error {
	n := s.n
	s.n = 0
	if err != nil {
		return err
	}
	if n != want {
		return fmt.Errorf("read %d users, want %d", n, want)
	}
	return nil
}

// clip shortens a value for an error message.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:40] + "..." + strconv.Itoa(len(s)) + " bytes"
}

// suiteCount returns the row count of a table.
func suiteCount(e bench.Env, base string) (int64, error) {
	var n int64
	err := e.Conn.QueryRow("SELECT COUNT(*) FROM "+e.Dialect.Table(base), func(r bench.Row) error { return r.Scan(&n) })
	if err != nil {
		return 0, fmt.Errorf("count %s: %w", e.Dialect.Table(base), err)
	}
	return n, nil
}

// suiteVerifyUsers reads the users table back and checks it holds exactly
// users 1..n of shape.
func suiteVerifyUsers(e bench.Env, n int64, shape userShape) error {
	s := newUserScan(shape)
	if err := s.check(e.Conn.Query(suiteUsersQuery(e.Dialect), s.row), n); err != nil {
		return fmt.Errorf("verify %s: %w", e.Dialect.Table("users"), err)
	}
	return nil
}

// suiteTxInsert is an insert run inside one transaction: statements
// prepared on the transaction, committed by Finish (timed), rolled back by
// End if the run failed before. For the go-sqlite-bench suite (calls set
// by suiteCalls) its begin, its insert call (the statements' prepare to
// their close) and its commit are three calls of the published adapter
// (Begin, Insert*, Commit), each with the connection taken from its pool
// where the target's adapter does so.
type suiteTxInsert struct {
	calls adapterCalls
	tx    bench.Tx
	stmts []bench.Stmt
	done  bool
}

func beginTxInsert(c bench.Conn, queries ...string) (*suiteTxInsert, error) {
	t := &suiteTxInsert{}
	return t, t.begin(c, queries...)
}

func (t *suiteTxInsert) begin(c bench.Conn, queries ...string) error {
	tx, err := t.calls.begin(c)
	if err != nil {
		return err
	}
	t.tx, t.stmts, t.done = tx, t.stmts[:0], false
	if len(queries) == 0 {
		return nil
	}
	if err := t.calls.out(); err != nil { // the insert call, until commit
		t.abort()
		return err
	}
	for _, q := range queries {
		s, err := tx.Prepare(q)
		if err != nil {
			t.abort()
			return fmt.Errorf("prepare %s: %w", q, err)
		}
		t.stmts = append(t.stmts, s)
	}
	return nil
}

// commit closes the statements, which ends the insert call, and commits.
func (t *suiteTxInsert) commit() error {
	for _, s := range t.stmts {
		if err := s.Close(); err != nil {
			return fmt.Errorf("close statement: %w", err)
		}
	}
	t.stmts = t.stmts[:0]
	t.calls.in()
	if err := t.calls.commit(t.tx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	t.done = true
	return nil
}

// abort closes the statements and rolls back, unless committed.
func (t *suiteTxInsert) abort() {
	if t.done || t.tx == nil {
		return
	}
	for _, s := range t.stmts {
		s.Close()
	}
	t.stmts = t.stmts[:0]
	t.calls.in()
	t.tx.Rollback()
	t.done = true
}

// describeTypes says how the schema's types map on d, for descriptions.
func describeTypes(d bench.Dialect) string {
	in, tx := suiteTypes(d)
	return strings.ToLower(in) + "/" + strings.ToLower(tx) + " columns"
}
