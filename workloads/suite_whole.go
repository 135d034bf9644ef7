package workloads

import "github.com/sqlbench/sqlbench/bench"

// The published go-sqlite-bench program's sqinn adapter
// (cmd/bench-sqinn/sqinn.go at 91b73d7) makes one sqinn request per call of
// the application: InsertUsers, InsertArticles and InsertComments are one
// Exec each, carrying every row the call is given (one row when the real
// test inserts an article or a comment), with the id, foreign key and
// active flag bound as sqinn's 32-bit int and created as its 64-bit one;
// FindUsers and FindUsersArticlesComments are one Query each, with the
// column types named (32-bit int, 64-bit int, text, 32-bit int per table),
// into slices made with room for 2,048 rows; Begin and Commit are one
// request each. Where a target has those whole calls (bench.RowsExecer,
// bench.WholeQuerier: sqinn) the suite makes them in that pattern; every
// other target keeps its row-by-row path. The published program links
// sqinn-go v2, whose Exec asks a callback for each row's values and whose
// Query hands each row to a callback as it decodes it; sqlbench's sqinn
// target is sqinn-go v1.2.0, whose Exec takes the rows' values in one slice
// and whose Query returns every row decoded before the first is handed on
// (studies.json names the difference as not reproduced).

// suiteWholeCap is the capacity the published sqinn adapter gives the
// slices a read collects into.
const suiteWholeCap = 2 * 1024

// suiteUserValues appends the values of users to dst as the published sqinn
// adapter binds them: id and active as int (sqinn's 32-bit int), created
// as int64, email as string.
func suiteUserValues(dst []any, users []userRec) []any {
	for i := range users {
		u := &users[i]
		dst = append(dst, int(u.id), u.created.UnixMilli(), u.email, int(boolInt(u.active)))
	}
	return dst
}

// suiteArticleValues and suiteCommentValues append the values of articles
// or comments as the published sqinn adapter binds them: id and the
// foreign key as int, created as int64, text as string.
func suiteArticleValues(dst []any, articles []articleRec) []any {
	for i := range articles {
		a := &articles[i]
		dst = append(dst, int(a.id), a.created.UnixMilli(), int(a.userID), a.text)
	}
	return dst
}

func suiteCommentValues(dst []any, comments []commentRec) []any {
	for i := range comments {
		c := &comments[i]
		dst = append(dst, int(c.id), c.created.UnixMilli(), int(c.articleID), c.text)
	}
	return dst
}

// suiteExecRows inserts the rows whose values are values (4 a row) with one
// whole call of rx.
func suiteExecRows(rx bench.RowsExecer, q string, values []any) error {
	return rx.ExecRows(q, 4, values)
}

// read runs one read of the users table on c and collects its rows: one
// whole-result call where c has one (the published sqinn adapter's Query,
// into a slice made with room for 2,048 rows), else a query scanned row by
// row through the library's statement cache where it has one.
func (s *userCollect) read(c bench.Conn, q string) error {
	if wq, ok := c.(bench.WholeQuerier); ok {
		s.rows = make([]userRec, 0, suiteWholeCap)
		return wq.QueryWhole(q, s.dest, s.stored)
	}
	calls := suiteCalls(c)
	if err := calls.out(); err != nil {
		return err
	}
	defer calls.in()
	return bench.QueryCached(c, q, s.rowFn)
}

// store appends the row a whole-result call just stored in the
// destinations.
func (s *userCollect) store() error {
	s.rows = append(s.rows, s.cols.rec())
	return nil
}

// joinRead runs one read of the three-way join on c, filing its rows into
// f: one whole-result call where c has one (the published sqinn adapter's
// Query, into slices made with room for 2,048 rows each), else a query
// scanned row by row (row) through the library's statement cache where it
// has one.
type joinRead struct {
	j      *joinCols
	f      *filing
	row    bench.RowFunc
	stored func() error
}

func newJoinRead(j *joinCols, f *filing, row bench.RowFunc) *joinRead {
	r := &joinRead{j: j, f: f, row: row}
	r.stored = func() error {
		f.file(j.u.rec(), j.a.article(), j.c.comment())
		return nil
	}
	return r
}

// read resets the filing and reads q with args into it.
func (r *joinRead) read(c bench.Conn, q string, args ...any) error {
	r.f.reset()
	if wq, ok := c.(bench.WholeQuerier); ok {
		r.f.users = make([]userRec, 0, suiteWholeCap)
		r.f.articles = make([]articleRec, 0, suiteWholeCap)
		r.f.comments = make([]commentRec, 0, suiteWholeCap)
		return wq.QueryWhole(q, r.j.dest, r.stored, args...)
	}
	calls := suiteCalls(c)
	if err := calls.out(); err != nil {
		return err
	}
	defer calls.in()
	return bench.QueryCached(c, q, r.row, args...)
}

// The workloads' descriptions end with what sqinn does.
const (
	suiteWholeInsertNote = "; crawshaw: its connection taken from a sqlitex.Pool and given back around each Begin, " +
		"insert call and Commit, as its published adapter" +
		"; sqinn: one Exec request per insert call of the published program (BEGIN and COMMIT one each), as its " +
		"published adapter"
	suiteWholeReadNote = "; crawshaw: its connection taken from a sqlitex.Pool and given back around each read, as " +
		"its published adapter" +
		"; sqinn: one Query request per read, as its published adapter"
)
