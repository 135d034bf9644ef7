package workloads

import (
	"fmt"

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
				return "one article (100 bytes of text) and its 20 comments (40 bytes) per operation through statements prepared in a transaction, " +
					"`" + suiteInsert(d, "articles", suiteArticleCols()) + "` and `" + suiteInsert(d, "comments", suiteCommentCols()) +
					"`; every 100 articles a new user and a new transaction (200 users, 20,000 articles, 400,000 comments), last commit timed; tables recreated before each run"
			},
			Setup:    suiteNoSetup,
			Teardown: suiteDrop,
			Begin:    suiteComplexInsert,
		},
		{
			Name: "SuiteComplexQuery", Ops: 5, Unit: "queries", ScaledData: true,
			Describe: func(d bench.Dialect) string {
				return "`" + suiteJoinQuery(d) + "` reading 200 users (times --scale) × 100 articles × 20 comments in one query, each user, article and comment filed once into its slice (a map per table finds the ones seen), every row checked after the query, clock paused"
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
				row := s.row
				return bench.Run{Timer: t, Op: func(int) error {
					s.reset()
					if err := c.Query(q, row); err != nil {
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

func suiteComplexInsert(e bench.Env) (bench.Run, error) {
	if err := suiteCreate(e); err != nil {
		return bench.Run{}, err
	}
	d := e.Dialect
	qs := []string{suiteInsert(d, "users", suiteUserCols()), suiteInsert(d, "articles", suiteArticleCols()), suiteInsert(d, "comments", suiteCommentCols())}
	t, err := beginTxInsert(e.Conn, qs...)
	if err != nil {
		return bench.Run{}, err
	}
	return bench.Run{
		Op: func(i int) error {
			aid := int64(i + 1)
			if i%suiteArticlesPerUser == 0 {
				if i > 0 {
					if err := t.commit(); err != nil {
						return err
					}
					if err := t.begin(e.Conn, qs...); err != nil {
						return err
					}
				}
				uid := int64(i/suiteArticlesPerUser + 1)
				created, email, active := suiteUser(uid, suiteEmailCol, suiteEmailWidth)
				if err := t.stmts[0].Exec(uid, created, email, active); err != nil {
					return fmt.Errorf("insert user %d: %w", uid, err)
				}
			}
			created, uid, text := suiteArticle(aid)
			if err := t.stmts[1].Exec(aid, created, uid, text); err != nil {
				return fmt.Errorf("insert article %d: %w", aid, err)
			}
			for k := int64(1); k <= suiteCommentsPerArticle; k++ {
				cid := (aid-1)*suiteCommentsPerArticle + k
				created, _, text := suiteComment(cid)
				if err := t.stmts[2].Exec(cid, created, aid, text); err != nil {
					return fmt.Errorf("insert comment %d: %w", cid, err)
				}
			}
			return nil
		},
		Finish: t.commit,
		End: func() error {
			if !t.done {
				t.abort()
				return nil
			}
			articles := int64(e.Warm + e.N)
			users := (articles + suiteArticlesPerUser - 1) / suiteArticlesPerUser
			if err := suiteVerifyUsers(e, users, suiteEmailCol, suiteEmailWidth); err != nil {
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
	if err := suiteFillUsers(e, users, suiteEmailCol, suiteEmailWidth); err != nil {
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
	return suiteFill(e, "comments", suiteCommentCols(), articles*suiteCommentsPerArticle, func(b []byte, id int64) []byte {
		created, aid, text := suiteComment(id)
		return appendRow(b, id, created, aid, text)
	})
}

// suiteJoinQuery reads users, their articles and the articles' comments in
// one three-way LEFT JOIN, ordered so that comment ids come back 1, 2, 3...
func suiteJoinQuery(d bench.Dialect) string {
	return "SELECT u.id, u.created, u.email, u.active, a.id, a.created, a.text, c.id, c.created, c.text FROM " +
		d.Table("users") + " u LEFT JOIN " + d.Table("articles") + " a ON a.userId = u.id LEFT JOIN " +
		d.Table("comments") + " c ON c.articleId = a.id ORDER BY u.id, a.id, c.id"
}

// joinScan checks one read of the join against the generator: row k is
// comment k with its article and user.
type joinScan struct {
	n                            int64
	uid, ucreated, uactive       int64
	aid, acreated, cid, ccreated int64
	email, atext, ctext          string
	dest                         []any
}

func newJoinScan() *joinScan {
	s := &joinScan{}
	s.dest = []any{&s.uid, &s.ucreated, &s.email, &s.uactive, &s.aid, &s.acreated, &s.atext, &s.cid, &s.ccreated, &s.ctext}
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
	ucreated, email, uactive := suiteUser(uid, suiteEmailCol, suiteEmailWidth)
	switch {
	case s.ccreated != ccreated || s.aid != aid || s.ctext != ctext:
		return fmt.Errorf("wrong comment %d: (%d, %d, %q)", s.cid, s.ccreated, s.aid, s.ctext)
	case s.acreated != acreated || s.uid != uid || s.atext != atext:
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
