package workloads

import (
	"fmt"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// The complex test: 200 users, each with 100 articles, each with 20
// comments (20,000 articles, 400,000 comments), written in transactions and
// read back in one three-way join.
const suiteComplexUsers = 200

func suiteComplex() []bench.Workload {
	return []bench.Workload{
		{
			Name: "SuiteComplexInsert", Whole: true, Ops: suiteComplexUsers * suiteArticlesPerUser, Unit: "articles",
			Describe: func(d bench.Dialect) string {
				return "200 users (every other one active), then 20,000 articles ('article text'), then 400,000 " +
					"comments ('comment text'), created a minute apart by id, as published, each table in a " +
					"transaction of its own through one prepared statement " +
					"(`" + suiteInsert(d, "articles", suiteArticleCols()) + "` and the like), rows generated before " +
					"the clock starts; one operation is one article (its 20 comments and a user every 100 articles " +
					"included), commits timed; tables recreated before each run, on a new database file (SQLite)" +
					suiteTypedBindNote +
					suiteWholeInsertNote
			},
			Setup:    suiteNoSetup,
			Teardown: suiteDrop,
			Begin:    suiteComplexInsert,
		},
		{
			Name: "SuiteComplexQuery", Ops: 5, Unit: "queries", ScaledData: true,
			Describe: func(d bench.Dialect) string {
				return "`" + suiteJoinQuery(d) + "` reading 200 users (times --scale) × 100 articles × 20 comments " +
					"in one query, each user, article and comment filed once into its slice (a map per table finds " +
					"the ones seen), every row checked after the query, clock paused" + suiteWholeReadNote
			},
			Setup: suiteSetup(func(e bench.Env) error {
				return suiteFillComplex(e, e.Scaled(suiteComplexUsers))
			}),
			Teardown: suiteDrop,
			Begin: func(e bench.Env) (bench.Run, error) {
				c, q := e.Conn, suiteJoinQuery(e.Dialect)
				want := int64(e.Scaled(suiteComplexUsers)) * suiteArticlesPerUser * suiteCommentsPerArticle
				users := int64(e.Scaled(suiteComplexUsers))
				s, t := newJoinCollect(), &bench.Timer{}
				read := newJoinRead(s.joinCols, &s.filing, s.row)
				return bench.Run{Timer: t, Op: func(int) error {
					if err := read.read(c, q); err != nil {
						return err
					}
					t.Stop()
					defer t.Start()
					if n := int64(len(s.comments)); n != want {
						return fmt.Errorf("read %d joined rows, want %d", n, want)
					}
					return s.verify(users)
				}}, nil
			},
		},
	}
}

// suiteComplexInsert begins a run of the published complex insert: users,
// then articles, then comments, each table in a transaction of its own
// through one prepared statement, from rows generated before the clock
// starts. A run of n articles (one Batch) inserts the users they belong to
// that are not in yet, the n articles and their 20 comments each.
func suiteComplexInsert(e bench.Env) (bench.Run, error) {
	if err := suiteCreate(e); err != nil {
		return bench.Run{}, err
	}
	d := e.Dialect
	total := e.Warm + e.N
	nUsers := (total + suiteArticlesPerUser - 1) / suiteArticlesPerUser
	users := suiteUserRecs(nUsers, complexUsers())
	articles := make([]articleRec, total)
	comments := make([]commentRec, total*suiteCommentsPerArticle)
	for i := range articles {
		id := int64(i + 1)
		created, uid, text := suiteArticle(id)
		articles[i] = articleRec{id: id, userID: uid, created: time.UnixMilli(created), text: text}
	}
	for i := range comments {
		id := int64(i + 1)
		created, aid, text := suiteComment(id)
		comments[i] = commentRec{id: id, articleID: aid, created: time.UnixMilli(created), text: text}
	}
	usersIn := 0 // users inserted by earlier batches
	t := &suiteTxInsert{done: true, calls: suiteCalls(e.Conn)}
	// table inserts rows [from, to) of one table in a transaction of its own.
	table := func(q string, from, to int, exec func(in suiteInserter, k int) error) error {
		if err := t.begin(e.Conn, q); err != nil {
			return err
		}
		in := newSuiteInserter(t.stmts[0], d)
		for k := from; k < to; k++ {
			if err := exec(in, k); err != nil {
				return err
			}
		}
		return t.commit()
	}
	qUsers, qArticles, qComments := suiteInsert(d, "users", suiteUserCols()),
		suiteInsert(d, "articles", suiteArticleCols()), suiteInsert(d, "comments", suiteCommentCols())
	// whole inserts rows with one whole call in a transaction of its own,
	// as the published sqinn adapter does (suite_whole.go).
	rx, isWhole := e.Conn.(bench.RowsExecer)
	var values []any
	whole := func(q string, rows func([]any) []any) error {
		if err := t.begin(e.Conn); err != nil {
			return err
		}
		values = rows(values[:0])
		if err := suiteExecRows(rx, q, values); err != nil {
			return err
		}
		return t.commit()
	}
	batch := func(first, n int) error {
		lastUser := (first + n + suiteArticlesPerUser - 1) / suiteArticlesPerUser
		if err := whole(qUsers,
			func(v []any) []any { return suiteUserValues(v, users[usersIn:lastUser]) }); err != nil {
			return fmt.Errorf("insert users: %w", err)
		}
		usersIn = lastUser
		if err := whole(qArticles,
			func(v []any) []any { return suiteArticleValues(v, articles[first:first+n]) }); err != nil {
			return fmt.Errorf("insert articles: %w", err)
		}
		err := whole(qComments, func(v []any) []any {
			return suiteCommentValues(v, comments[first*suiteCommentsPerArticle:(first+n)*suiteCommentsPerArticle])
		})
		if err != nil {
			return fmt.Errorf("insert comments: %w", err)
		}
		return nil
	}
	if !isWhole {
		batch = func(first, n int) error {
			lastUser := (first + n + suiteArticlesPerUser - 1) / suiteArticlesPerUser
			err := table(qUsers, usersIn, lastUser, func(in suiteInserter, k int) error {
				u := &users[k]
				if err := in.user(u.id, u.created.UnixMilli(), u.email, u.active); err != nil {
					return fmt.Errorf("insert user %d: %w", u.id, err)
				}
				return nil
			})
			if err != nil {
				return err
			}
			usersIn = lastUser
			err = table(qArticles, first, first+n, func(in suiteInserter, k int) error {
				a := &articles[k]
				if err := in.child(a.id, a.created.UnixMilli(), a.userID, a.text); err != nil {
					return fmt.Errorf("insert article %d: %w", a.id, err)
				}
				return nil
			})
			if err != nil {
				return err
			}
			return table(qComments, first*suiteCommentsPerArticle, (first+n)*suiteCommentsPerArticle,
				func(in suiteInserter, k int) error {
					c := &comments[k]
					if err := in.child(c.id, c.created.UnixMilli(), c.articleID, c.text); err != nil {
						return fmt.Errorf("insert comment %d: %w", c.id, err)
					}
					return nil
				})
		}
	}
	return bench.Run{
		Batch: batch,
		End: func() error {
			if !t.done {
				t.abort()
				return nil
			}
			articles := int64(e.Warm + e.N)
			users := (articles + suiteArticlesPerUser - 1) / suiteArticlesPerUser
			if err := suiteVerifyUsers(e, users, complexUsers()); err != nil {
				return err
			}
			for _, t := range []struct {
				base string
				want int64
			}{{"articles", articles}, {"comments", articles * suiteCommentsPerArticle}} {
				n, err := suiteCount(e, t.base)
				if err != nil {
					return err
				}
				if n != t.want {
					return errRows(e.Dialect.Table(t.base), n, t.want)
				}
			}
			// The join reads every article and comment back; with the counts
			// right, it finds every row where it belongs.
			s := newJoinScan()
			if err := s.check(e.Conn.Query(suiteJoinQuery(e.Dialect), s.row), -1); err != nil {
				return fmt.Errorf("verify: %w", err)
			}
			return nil
		},
	}, nil
}

// suiteFillComplex inserts users 1..users with all their articles and
// comments.
func suiteFillComplex(e bench.Env, users int) error {
	if err := suiteFillUsers(e, users, complexUsers()); err != nil {
		return err
	}
	articles := users * suiteArticlesPerUser
	err := suiteFill(e, "articles", suiteArticleCols(), articles, func(b []byte, id int64) []byte {
		created, uid, text := suiteArticle(id)
		return appendRow(b, id, created, uid, text)
	})
	if err != nil {
		return err
	}
	return suiteFill(e, "comments", suiteCommentCols(), articles*suiteCommentsPerArticle,
		func(b []byte, id int64) []byte {
			created, aid, text := suiteComment(id)
			return appendRow(b, id, created, aid, text)
		})
}

// suiteJoinQuery reads users, their articles and the articles' comments in
// one three-way LEFT JOIN, every column of the three tables, ordered by the
// created columns, written as published (created grows with the id, so
// comment ids come back 1, 2, 3...; SQLite sorts the joined rows for it).
func suiteJoinQuery(d bench.Dialect) string {
	return suiteJoinSelect(d) + " ORDER BY " + suiteJoinOrder(d, "  ")
}

// suiteJoinSelect is the published join's SELECT and FROM: the columns
// named by table, the tables by name.
func suiteJoinSelect(d bench.Dialect) string {
	u, a, c := d.Table("users"), d.Table("articles"), d.Table("comments")
	return "SELECT " + u + ".id, " + u + ".created, " + u + ".email, " + u + ".active, " +
		a + ".id, " + a + ".created, " + a + ".userId, " + a + ".text, " +
		c + ".id, " + c + ".created, " + c + ".articleId, " + c + ".text FROM " + u +
		" LEFT JOIN " + a + " ON " + a + ".userId = " + u + ".id LEFT JOIN " + c + " ON " + c + ".articleId = " + a +
		".id"
}

// suiteJoinOrder is the published join's ORDER BY list; sep follows its
// first comma (the complex test's query has two spaces there).
func suiteJoinOrder(d bench.Dialect, sep string) string {
	return d.Table("users") + ".created," + sep + d.Table("articles") + ".created, " + d.Table("comments") + ".created"
}

// joinScan checks one read of the join against the generator: row k is
// comment k with its article and user.
type joinScan struct {
	n                      int64
	uid, ucreated, uactive int64
	aid, acreated, auid    int64
	cid, ccreated, caid    int64
	email, atext, ctext    string
	dest                   []any
}

func newJoinScan() *joinScan {
	s := &joinScan{}
	s.dest = []any{&s.uid, &s.ucreated, &s.email, &s.uactive, &s.aid, &s.acreated, &s.auid, &s.atext, &s.cid,
		&s.ccreated, &s.caid, &s.ctext}
	return s
}

func (s *joinScan) row(r bench.Row) error {
	if err := r.Scan(s.dest...); err != nil {
		return err
	}
	s.n++
	if s.cid != s.n {
		return fmt.Errorf("row %d has comment %d: out of order or missing", s.n, s.cid)
	}
	ccreated, aid, ctext := suiteComment(s.cid)
	acreated, uid, atext := suiteArticle(aid)
	ucreated, email, active := complexUsers().user(uid)
	uactive := boolInt(active)
	switch {
	case s.ccreated != ccreated || s.aid != aid || s.caid != aid || s.ctext != ctext:
		return fmt.Errorf("wrong comment %d: (%d, %d, %q)", s.cid, s.ccreated, s.aid, s.ctext)
	case s.acreated != acreated || s.uid != uid || s.auid != uid || s.atext != atext:
		return fmt.Errorf("wrong article %d with comment %d: (%d, %d, %q)", s.aid, s.cid, s.acreated, s.uid, s.atext)
	case s.ucreated != ucreated || s.uactive != uactive || s.email != email:
		return fmt.Errorf("wrong user %d with comment %d: (%d, %q, %d)", s.uid, s.cid, s.ucreated, s.email, s.uactive)
	}
	return nil
}

// check ends one read: it passes err through or checks the count (want < 0:
// any count), and resets the scan.
func (s *joinScan) check(err error, want int64) error {
	n := s.n
	s.n = 0
	if err != nil {
		return err
	}
	if want >= 0 && n != want {
		return fmt.Errorf("read %d joined rows, want %d", n, want)
	}
	return nil
}
