package workloads

import (
	"database/sql"
	"fmt"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// A suite read does what the published suite's application code does,
// inside the clock: it scans every row into a struct, turns the created
// column into a time.Time, and appends the struct to a slice grown from
// empty for each query (the join also files each row's user, article and
// comment under their ids, once each). The rows are checked against the
// generator after the query with the run's clock paused (bench.Timer), as
// the published suite checks them after its timer stops.

// userRec is a user as the application holds it.
type userRec struct {
	id      int64
	created time.Time
	email   string
	active  bool
}

// articleRec is an article as the application holds it.
type articleRec struct {
	id, userID int64
	created    time.Time
	text       string
}

// commentRec is a comment as the application holds it.
type commentRec struct {
	id, articleID int64
	created       time.Time
	text          string
}

// The published program's database/sql adapter scans every column into a
// sql.Null type: ids (and the foreign keys beside them) into sql.NullInt32,
// created into sql.NullInt64, text into sql.NullString and active into
// sql.NullBool; a database/sql driver converts each through the type's Scan
// method (the int64 to int32 of an id by formatting and parsing it), which
// costs the database/sql drivers more than *int64 and *string would. The
// suite's reads scan into the same types.
//
// The published native adapters (crawshaw's and zombiezen's) read each
// column with the library's typed call (ColumnInt, ColumnInt64,
// ColumnText) and ask nothing else of it. A row of a native target is a
// bench.Columns, and the suite reads it the same way (userAt, articleAt,
// commentAt): one typed call a column, no NULL check, no column count,
// straight into the application's struct. Scanning it into
// the sql.Null types instead (bench.ScanColumns) asked the library for the
// column's type wherever the value read as zero (every other user is
// inactive here, every user active in the published data) and for the
// column count every row: on zombiezen 10-15% more time a many/N=1000
// query than the published adapter (docs/reproduce.md).

// userCols is the scan destination of a users row.
type userCols struct {
	id      sql.NullInt32
	created sql.NullInt64
	email   sql.NullString
	active  sql.NullBool
}

func (c *userCols) dest() []any { return []any{&c.id, &c.created, &c.email, &c.active} }

func (c *userCols) rec() userRec {
	return userRec{id: int64(c.id.Int32), created: time.UnixMilli(c.created.Int64), email: c.email.String,
		active: c.active.Bool}
}

// userAt reads a users row from column at of a native row into the
// application's struct, as the published native adapters build theirs.
func userAt(r bench.Columns, at int) userRec {
	return userRec{id: r.ColumnInt64(at), created: time.UnixMilli(r.ColumnInt64(at + 1)), email: r.ColumnText(at + 2),
		active: r.ColumnInt64(at+3) != 0}
}

// childCols is the scan destination of an articles or a comments row: its
// id, created, the id of its parent (the article's user, the comment's
// article) and text, as the two tables have them.
type childCols struct {
	id      sql.NullInt32
	created sql.NullInt64
	parent  sql.NullInt32
	text    sql.NullString
}

func (c *childCols) dest() []any { return []any{&c.id, &c.created, &c.parent, &c.text} }

func (c *childCols) article() articleRec {
	return articleRec{id: int64(c.id.Int32), userID: int64(c.parent.Int32), created: time.UnixMilli(c.created.Int64),
		text: c.text.String}
}

func (c *childCols) comment() commentRec {
	return commentRec{id: int64(c.id.Int32), articleID: int64(c.parent.Int32), created: time.UnixMilli(c.created.Int64),
		text: c.text.String}
}

// articleAt and commentAt read an articles or a comments row from column
// at of a native row.
func articleAt(r bench.Columns, at int) articleRec {
	return articleRec{id: r.ColumnInt64(at), created: time.UnixMilli(r.ColumnInt64(at + 1)),
		userID: r.ColumnInt64(at + 2), text: r.ColumnText(at + 3)}
}

func commentAt(r bench.Columns, at int) commentRec {
	return commentRec{id: r.ColumnInt64(at), created: time.UnixMilli(r.ColumnInt64(at + 1)),
		articleID: r.ColumnInt64(at + 2), text: r.ColumnText(at + 3)}
}

// joinCols is the scan destination of a row of the three-way join: the
// user's, the article's and the comment's columns, in that order.
type joinCols struct {
	u    userCols
	a    childCols // the article's
	c    childCols // the comment's
	dest []any     // built once: a fresh variadic slice would escape
}

func newJoinCols() *joinCols {
	j := &joinCols{}
	j.dest = append(append(j.u.dest(), j.a.dest()...), j.c.dest()...)
	return j
}

// read reads one joined row, a native row through its typed columns, any
// other through Scan.
func (j *joinCols) read(r bench.Row) (userRec, articleRec, commentRec, error) {
	if c, ok := r.(bench.Columns); ok {
		return userAt(c, 0), articleAt(c, 4), commentAt(c, 8), nil
	}
	err := r.Scan(j.dest...)
	return j.u.rec(), j.a.article(), j.c.comment(), err
}

// userCollect collects one read of the users table.
type userCollect struct {
	cols userCols
	dest []any // built once: a fresh variadic slice would escape
	rows []userRec
	// rowFn and stored are s.row and s.store, made once (suite_whole.go).
	rowFn  bench.RowFunc
	stored func() error
}

func newUserCollect() *userCollect {
	s := &userCollect{}
	s.dest = s.cols.dest()
	s.rowFn, s.stored = s.row, s.store
	return s
}

// row reads one row (a native row through its typed columns, any other
// through Scan) and appends it. A value its Scan destination refuses (an
// active of 7 is no sql.NullBool) fails the scan, named by its row.
func (s *userCollect) row(r bench.Row) error {
	if c, ok := r.(bench.Columns); ok {
		// Built inside the append, as the published adapters build theirs:
		// userAt, not inlined, returned the struct through two copies on
		// the stack, one a stalled load, 3% of a many/N=1000 read on
		// zombiezen (docs/reproduce.md).
		s.rows = append(s.rows, userRec{id: c.ColumnInt64(0), created: time.UnixMilli(c.ColumnInt64(1)),
			email: c.ColumnText(2), active: c.ColumnInt64(3) != 0})
		return nil
	}
	if err := r.Scan(s.dest...); err != nil {
		return fmt.Errorf("row %d: %w", len(s.rows)+1, err)
	}
	s.rows = append(s.rows, s.cols.rec())
	return nil
}

// take returns the rows collected and starts a new, empty collection.
func (s *userCollect) take() []userRec {
	rows := s.rows
	s.rows = nil
	return rows
}

// verifyUserRecs checks that rows are users 1..want of shape in id order.
func verifyUserRecs(rows []userRec, want int64, shape userShape) error {
	for i, u := range rows {
		if u.id != int64(i+1) {
			return fmt.Errorf("row %d has id %d: out of order or missing", i+1, u.id)
		}
		created, email, active := shape.user(u.id)
		if u.created.UnixMilli() != created || u.active != active || u.email != email {
			return fmt.Errorf("wrong user %d: (%d, %q, %v), want (%d, %q, %v)", u.id, u.created.UnixMilli(),
				clip(u.email), u.active, created, clip(email), active)
		}
	}
	if int64(len(rows)) != want {
		return fmt.Errorf("read %d users, want %d", len(rows), want)
	}
	return nil
}

// joinCollect collects one read of the three-way join, filing each user,
// article and comment once under its id.
type joinCollect struct {
	*joinCols
	filing
}

// filing is the users, articles and comments of joined rows, each filed
// once in the order first seen (through a map per table, as the published
// program's FindUsersArticlesComments does).
type filing struct {
	users                        []userRec
	articles                     []articleRec
	comments                     []commentRec
	userAt, articleAt, commentAt map[int64]int
}

// reset starts a new, empty filing: fresh slices and maps.
func (f *filing) reset() {
	f.users, f.articles, f.comments = nil, nil, nil
	f.userAt, f.articleAt, f.commentAt = map[int64]int{}, map[int64]int{}, map[int64]int{}
}

// file files the user, article and comment of one joined row, each unless
// it is there already.
func (f *filing) file(u userRec, a articleRec, c commentRec) {
	if _, ok := f.userAt[u.id]; !ok {
		f.userAt[u.id] = len(f.users)
		f.users = append(f.users, u)
	}
	if _, ok := f.articleAt[a.id]; !ok {
		f.articleAt[a.id] = len(f.articles)
		f.articles = append(f.articles, a)
	}
	if _, ok := f.commentAt[c.id]; !ok {
		f.commentAt[c.id] = len(f.comments)
		f.comments = append(f.comments, c)
	}
}

func newJoinCollect() *joinCollect {
	s := &joinCollect{joinCols: newJoinCols()}
	s.reset()
	return s
}

// row reads one joined row and files its user, article and comment.
func (s *joinCollect) row(r bench.Row) error {
	u, a, c, err := s.read(r)
	if err != nil {
		return fmt.Errorf("joined row %d: %w", len(s.comments)+1, err)
	}
	s.file(u, a, c)
	return nil
}

// verify checks the collection against the generator: users 1..users,
// their articles and the articles' comments, in id order (users < 0: any
// number of whole users).
func (s *joinCollect) verify(users int64) error {
	for i, c := range s.comments {
		if c.id != int64(i+1) {
			return fmt.Errorf("comment %d has id %d: out of order or missing", i+1, c.id)
		}
		created, aid, text := suiteComment(c.id)
		if c.created.UnixMilli() != created || c.articleID != aid || c.text != text {
			return fmt.Errorf("wrong comment %d: (%d, %d, %q)", c.id, c.created.UnixMilli(), c.articleID, clip(c.text))
		}
	}
	for i, a := range s.articles {
		if a.id != int64(i+1) {
			return fmt.Errorf("article %d has id %d: out of order or missing", i+1, a.id)
		}
		created, uid, text := suiteArticle(a.id)
		if a.created.UnixMilli() != created || a.userID != uid || a.text != text {
			return fmt.Errorf("wrong article %d: (%d, %d, %q)", a.id, a.created.UnixMilli(), a.userID, clip(a.text))
		}
	}
	if users < 0 {
		users = int64(len(s.users))
	}
	if err := verifyUserRecs(s.users, users, complexUsers()); err != nil {
		return err
	}
	if n, want := int64(len(s.articles)), users*suiteArticlesPerUser; n != want {
		return fmt.Errorf("read %d articles, want %d", n, want)
	}
	if n, want := int64(len(s.comments)), users*suiteArticlesPerUser*suiteCommentsPerArticle; n != want {
		return fmt.Errorf("read %d comments, want %d", n, want)
	}
	return nil
}
