package workloads

import (
	"fmt"
	"time"

	"github.com/sqlbench/sqlbench/bench"
)

// The real test of the 2026 suite: 100 users, each with 20 articles, each
// with 20 comments, inserted a user at a time in a transaction of its own,
// every row through a statement prepared for it (the published program
// prepares, executes and closes one per row); then each user looked up by
// email with its articles and comments in one LEFT JOIN, the rows filed
// into three slices as an application does. Rows are created a second
// apart in insertion order (a user, an article, its comments, the next
// article...), and the text of every article and comment is the same
// 59-byte string.
const (
	realUsers              = 100
	realArticlesPerUser    = 20
	realCommentsPerArticle = 20
	// realRowsPerUser is the rows one user's transaction inserts.
	realRowsPerUser = 1 + realArticlesPerUser*(1+realCommentsPerArticle)
	realText        = "text text text text text text text text text text text text"
	// realEpoch is the created time of the first row, in milliseconds.
	realEpoch = 1_755_388_800_000
)

func suiteReal() []bench.Workload {
	return []bench.Workload{
		{
			Name: "SuiteRealInsert", Whole: true, Ops: realUsers, Unit: "users",
			Describe: func(d bench.Dialect) string {
				return "per operation one user, its 20 articles and their 20 comments each (421 rows) in a " +
					"transaction of its own, every row through a statement prepared, executed and closed for it (`" +
					suiteInsert(d, "comments", suiteCommentCols()) + "` and the like), commit timed; 100 users; " +
					"tables recreated before each run, on a new database file (SQLite)" + suiteTypedBindNote +
					suiteWholeInsertNote
			},
			Setup:    suiteNoSetup,
			Teardown: suiteDrop,
			Begin:    realInsert,
		},
		{
			Name: "SuiteRealQuery", Ops: realUsers, Unit: "queries",
			Describe: func(d bench.Dialect) string {
				return "`" + realQuery(d) + "` for each of the 100 users in turn, unprepared (crawshaw, zombiezen: " +
					"through the library's statement cache, as published), the rows filed into users, articles and " +
					"comments (a map per table finds the ones seen); the counts checked and the rows appended to the " +
					"run's slices in the clock, as published; 1 user, 20 articles and 400 comments checked after " +
					"each query, clock paused" + suiteWholeReadNote
			},
			Setup:    suiteSetup(realFill),
			Teardown: suiteDrop,
			Begin:    realRead,
		},
	}
}

// realEmail returns the email of user uid.
func realEmail(uid int64) string { return fmt.Sprintf("user%08d@example.com", uid) }

// realUserCreated returns the created time (ms) of user uid; article k
// (0-based) of the user was created 1+21k seconds later, its comment j
// (0-based) 1+j seconds after the article.
func realUserCreated(uid int64) int64 { return realEpoch + (uid-1)*realRowsPerUser*1000 }

func realArticleCreated(uid int64, k int) int64 {
	return realUserCreated(uid) + int64(1+k*(1+realCommentsPerArticle))*1000
}

// realArticleID returns the id of article k (0-based) of user uid;
// realCommentID that of comment j of article aid.
func realArticleID(uid int64, k int) int64 { return (uid-1)*realArticlesPerUser + int64(k) + 1 }
func realCommentID(aid int64, j int) int64 { return (aid-1)*realCommentsPerArticle + int64(j) + 1 }

// realInsert begins a run that recreates the tables and inserts one user
// with its articles and comments per operation.
func realInsert(e bench.Env) (bench.Run, error) {
	if err := suiteCreate(e); err != nil {
		return bench.Run{}, err
	}
	d := e.Dialect
	qUser, qArticle, qComment := suiteInsert(d, "users", suiteUserCols()),
		suiteInsert(d, "articles", suiteArticleCols()), suiteInsert(d, "comments", suiteCommentCols())
	// The emails are made before the clock starts, as the published
	// program makes them; the rows themselves are built in the loop.
	total := e.Warm + e.N
	emails := make([]string, total)
	for i := range emails {
		emails[i] = realEmail(int64(i + 1))
	}
	var (
		tx        bench.Tx
		committed = true
	)
	// Each row is inserted through a statement prepared for it in the
	// transaction and closed after it (prepare, then done); where the
	// target has a whole call, it is one call of one row, as the published
	// sqinn adapter inserts each (suite_whole.go).
	rx, isWhole := e.Conn.(bench.RowsExecer)
	values := make([]any, 0, 4)
	// Each insert, as Begin and Commit, is a call of the published
	// adapter.
	calls := suiteCalls(e.Conn)
	prepare := func(q string) (suiteInserter, error) {
		if err := calls.out(); err != nil {
			return suiteInserter{}, err
		}
		s, err := tx.Prepare(q)
		if err != nil {
			calls.in()
			return suiteInserter{}, fmt.Errorf("prepare: %w", err)
		}
		return newSuiteInserter(s, d), nil
	}
	done := func(in suiteInserter, err error) error {
		if cerr := in.s.Close(); err == nil {
			err = cerr
		}
		calls.in()
		return err
	}
	// The ids bind as sqinn's 32-bit int (an int here), active too.
	insertUser := func(id, created int64, email string) error {
		if isWhole {
			return suiteExecRows(rx, qUser, append(values[:0], int(id), created, email, 1))
		}
		in, err := prepare(qUser)
		if err != nil {
			return err
		}
		return done(in, in.user(id, created, email, true))
	}
	insertChild := func(q string, id, created, parent int64) error {
		if isWhole {
			return suiteExecRows(rx, q, append(values[:0], int(id), created, int(parent), realText))
		}
		in, err := prepare(q)
		if err != nil {
			return err
		}
		return done(in, in.child(id, created, parent, realText))
	}
	return bench.Run{
		Op: func(i int) error {
			var err error
			if tx, err = calls.begin(e.Conn); err != nil {
				return err
			}
			committed = false
			uid := int64(i + 1)
			created := time.UnixMilli(realUserCreated(uid))
			if err := insertUser(uid, created.UnixMilli(), emails[i]); err != nil {
				return fmt.Errorf("insert user %d: %w", uid, err)
			}
			for k := range realArticlesPerUser {
				aid := realArticleID(uid, k)
				created = created.Add(time.Second)
				if err := insertChild(qArticle, aid, created.UnixMilli(), uid); err != nil {
					return fmt.Errorf("insert article %d: %w", aid, err)
				}
				for j := range realCommentsPerArticle {
					cid := realCommentID(aid, j)
					created = created.Add(time.Second)
					if err := insertChild(qComment, cid, created.UnixMilli(), aid); err != nil {
						return fmt.Errorf("insert comment %d: %w", cid, err)
					}
				}
			}
			if err := calls.commit(tx); err != nil {
				return fmt.Errorf("commit user %d: %w", uid, err)
			}
			committed = true
			return nil
		},
		End: func() error {
			if !committed {
				tx.Rollback()
				return nil // the run failed already
			}
			return realVerifyAll(e, int64(total))
		},
	}, nil
}

// realFill inserts the 100 users with their articles and comments, untimed.
func realFill(e bench.Env) error {
	if err := suiteFill(e, "users", "id, created, active, email", realUsers, func(b []byte, uid int64) []byte {
		return appendRow(b, uid, realUserCreated(uid), 1, realEmail(uid))
	}); err != nil {
		return err
	}
	if err := suiteFill(e, "articles", suiteArticleCols(), realUsers*realArticlesPerUser,
		func(b []byte, aid int64) []byte {
			uid, k := (aid-1)/realArticlesPerUser+1, int((aid-1)%realArticlesPerUser)
			return appendRow(b, aid, realArticleCreated(uid, k), uid, realText)
		}); err != nil {
		return err
	}
	return suiteFill(e, "comments", suiteCommentCols(), realUsers*realArticlesPerUser*realCommentsPerArticle,
		func(b []byte, cid int64) []byte {
			aid, j := (cid-1)/realCommentsPerArticle+1, int((cid-1)%realCommentsPerArticle)
			uid, k := (aid-1)/realArticlesPerUser+1, int((aid-1)%realArticlesPerUser)
			return appendRow(b, cid, realArticleCreated(uid, k)+int64(1+j)*1000, aid, realText)
		})
}

// realQuery is the lookup of one user by email with its articles and
// their comments, written as published.
func realQuery(d bench.Dialect) string {
	return suiteJoinSelect(d) + " WHERE " + d.Table("users") + ".email = " + d.Param(1) + " ORDER BY " +
		suiteJoinOrder(d, " ")
}

// realRead begins a run whose operation i looks up user i%100+1. As
// published, inside the clock, it checks the counts of each lookup
// (MustBeEqual) and appends its users, articles and comments to slices
// of the whole run, made when the clock starts with room for 100 users,
// 2,000 articles and 100 comments.
func realRead(e bench.Env) (bench.Run, error) {
	c, q := e.Conn, realQuery(e.Dialect)
	emails := make([]string, realUsers)
	for i := range emails {
		emails[i] = realEmail(int64(i + 1))
	}
	s, t := newRealCollect(), &bench.Timer{}
	read := newJoinRead(s.joinCols, &s.filing, s.row)
	var all filing
	return bench.Run{Timer: t,
		Start: func() error {
			all.users = make([]userRec, 0, realUsers)
			all.articles = make([]articleRec, 0, realUsers*realArticlesPerUser)
			all.comments = make([]commentRec, 0, realUsers)
			return nil
		},
		Op: func(i int) error {
			uid := int64(i%realUsers + 1)
			if err := read.read(c, q, emails[uid-1]); err != nil {
				return err
			}
			err := suiteMustEqual(1, len(s.users))
			if err == nil {
				err = suiteMustEqual(realArticlesPerUser, len(s.articles))
			}
			if err == nil {
				err = suiteMustEqual(realArticlesPerUser*realCommentsPerArticle, len(s.comments))
			}
			if err != nil {
				return fmt.Errorf("user %d: %w", uid, err)
			}
			all.users = append(all.users, s.users...)
			all.articles = append(all.articles, s.articles...)
			all.comments = append(all.comments, s.comments...)
			t.Stop()
			defer t.Start()
			return s.verify(uid)
		},
		Finish: func() error { all = filing{}; return nil },
	}, nil
}

// realVerifyAll reads every user back through the lookup and checks it.
func realVerifyAll(e bench.Env, users int64) error {
	n, err := suiteCount(e, "users")
	if err != nil {
		return err
	}
	if n != users {
		return errRows(e.Dialect.Table("users"), n, users)
	}
	s, q := newRealCollect(), realQuery(e.Dialect)
	for uid := int64(1); uid <= users; uid++ {
		s.reset()
		if err := e.Conn.Query(q, s.row, realEmail(uid)); err != nil {
			return fmt.Errorf("verify user %d: %w", uid, err)
		}
		if err := s.verify(uid); err != nil {
			return fmt.Errorf("verify: %w", err)
		}
	}
	return nil
}

// realCollect collects one lookup: every column of the three tables,
// each user, article and comment filed once under its id.
type realCollect struct {
	*joinCols
	filing
}

func newRealCollect() *realCollect {
	s := &realCollect{joinCols: newJoinCols()}
	s.reset()
	return s
}

// row reads one joined row and files its user, article and comment.
func (s *realCollect) row(r bench.Row) error {
	u, a, c, err := s.read(r)
	if err != nil {
		return fmt.Errorf("joined row %d: %w", len(s.comments)+1, err)
	}
	s.file(u, a, c)
	return nil
}

// verify checks a lookup of user uid against what was inserted, in order.
func (s *realCollect) verify(uid int64) error {
	if len(s.users) != 1 {
		return fmt.Errorf("lookup of user %d found %d users", uid, len(s.users))
	}
	if u := s.users[0]; u.id != uid || u.created.UnixMilli() != realUserCreated(uid) || u.email != realEmail(uid) ||
		!u.active {
		return fmt.Errorf("wrong user %d: (%d, %d, %q, %v)", uid, u.id, u.created.UnixMilli(), u.email, u.active)
	}
	if len(s.articles) != realArticlesPerUser || len(s.comments) != realArticlesPerUser*realCommentsPerArticle {
		return fmt.Errorf("user %d: %d articles and %d comments, want %d and %d", uid, len(s.articles), len(s.comments),
			realArticlesPerUser, realArticlesPerUser*realCommentsPerArticle)
	}
	for k, a := range s.articles {
		created := realArticleCreated(uid, k)
		if a.id != realArticleID(uid, k) || a.userID != uid || a.created.UnixMilli() != created || a.text != realText {
			return fmt.Errorf("wrong article %d of user %d: (%d, %d, %d, %q)", k, uid, a.id, a.userID,
				a.created.UnixMilli(), a.text)
		}
		for j := range realCommentsPerArticle {
			c := s.comments[k*realCommentsPerArticle+j]
			if c.id != realCommentID(a.id, j) || c.articleID != a.id ||
				c.created.UnixMilli() != created+int64(1+j)*1000 || c.text != realText {
				return fmt.Errorf("wrong comment %d: (%d, %d, %q)", c.id, c.articleID, c.created.UnixMilli(), c.text)
			}
		}
	}
	return nil
}
