package crawshaw_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"crawshaw.io/sqlite"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/targettest"
)

// The published crawshaw program's tables (cvilsmeier/sqinn-go-bench at
// 8bbb4e0, utl/utl.go), for its insert loops run here beside sqlbench's.
var publishedCrawSchema = []string{
	"CREATE TABLE users (id INTEGER PRIMARY KEY NOT NULL, name VARCHAR, age INTEGER, rating REAL)",
	"CREATE TABLE profiles (id VARCHAR PRIMARY KEY NOT NULL, name VARCHAR NOT NULL, active BOOL NOT NULL)",
	"CREATE TABLE devices (id VARCHAR PRIMARY KEY NOT NULL, profileId VARCHAR NOT NULL, name VARCHAR NOT NULL, " +
		"active BOOL NOT NULL, " +
		"FOREIGN KEY (profileId) REFERENCES profiles (id))",
	"CREATE TABLE locations (id VARCHAR PRIMARY KEY NOT NULL, deviceId VARCHAR NOT NULL, name VARCHAR NOT NULL, " +
		"active BOOL NOT NULL, " +
		"FOREIGN KEY (deviceId) REFERENCES devices (id))",
}

// publishedCraw opens a crawshaw connection on a database of its own with
// the published program's tables, in one open transaction.
func publishedCraw(t *testing.T) *sqlite.Conn {
	t.Helper()
	conn, err := sqlite.OpenConn(filepath.Join(t.TempDir(), "published.db"),
		sqlite.SQLITE_OPEN_READWRITE|sqlite.SQLITE_OPEN_CREATE|sqlite.SQLITE_OPEN_NOMUTEX)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	for _, q := range append(publishedCrawSchema, "BEGIN") {
		if err := execCraw(conn, q); err != nil {
			t.Fatal(err)
		}
	}
	return conn
}

func execCraw(conn *sqlite.Conn, q string) error {
	s, _, err := conn.PrepareTransient(q)
	if err != nil {
		return err
	}
	_, err = s.Step()
	if ferr := s.Finalize(); err == nil {
		err = ferr
	}
	return err
}

// stepReset is the published program's per-row step and reset.
func stepReset(t *testing.T, s *sqlite.Stmt) {
	if _, err := s.Step(); err != nil {
		t.Fatal(err)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
}

// TestSqinnInsertsAllocateAsPublished checks that the Sqinn-Go suite's
// inserts on crawshaw allocate per row no more than the published crawshaw
// program's loops (cmd/bench-craw/craw.go), run here on the same library:
// the program binds each value with crawshaw's typed calls (BindInt64,
// BindText, BindFloat) and formats a parent's id once for its children;
// binding through []any boxes every value (4 more allocations a user, 3 a
// location) and formatting the parent per child 2 more a location.
func TestSqinnInsertsAllocateAsPublished(t *testing.T) {
	t.Run("SqinnSimpleInsert", func(t *testing.T) {
		const n = 2000
		conn := publishedCraw(t)
		s := conn.Prep("INSERT INTO users (id, name, age, rating) VALUES (?, ?, ?, ?)")
		id := 0
		published := testing.AllocsPerRun(n, func() {
			id++
			name := fmt.Sprintf("User_%d", id)
			s.BindInt64(1, int64(id))
			s.BindText(2, name)
			s.BindInt64(3, int64(33+id))
			s.BindFloat(4, 0.13*float64(id))
			stepReset(t, s)
		})

		got := targettest.OpAllocs(t, "crawshaw", "SqinnSimpleInsert", n) // End reads the rows back
		t.Logf("a user: %.0f allocations, the published loop %.0f", got, published)
		if got > published {
			t.Errorf("a user inserted allocates %.0f times, the published program's loop %.0f", got, published)
		}
	})
	t.Run("SqinnComplexInsert", func(t *testing.T) {
		const profiles, devices, locations = 2, 100, 10 // 2,000 locations
		conn := publishedCraw(t)
		ps := conn.Prep("INSERT INTO profiles (id, name, active) VALUES (?, ?, ?)")
		ds := conn.Prep("INSERT INTO devices (id, profileId, name, active) VALUES (?, ?, ?, ?)")
		ls := conn.Prep("INSERT INTO locations (id, deviceId, name, active) VALUES (?, ?, ?, ?)")
		published := allocs(func() {
			for p := range profiles {
				ps.BindText(1, fmt.Sprintf("profile_%d", p))
				ps.BindText(2, fmt.Sprintf("Profile %d", p))
				ps.BindInt64(3, int64(p%2))
				stepReset(t, ps)
			}
			for p := range profiles {
				profileID := fmt.Sprintf("profile_%d", p)
				for d := range devices {
					ds.BindText(1, fmt.Sprintf("device_%d_%d", p, d))
					ds.BindText(2, profileID)
					ds.BindText(3, fmt.Sprintf("Device %d %d", p, d))
					ds.BindInt64(4, int64(d%2))
					stepReset(t, ds)
				}
			}
			for p := range profiles {
				for d := range devices {
					deviceID := fmt.Sprintf("device_%d_%d", p, d)
					for l := range locations {
						ls.BindText(1, fmt.Sprintf("location_%d_%d_%d", p, d, l))
						ls.BindText(2, deviceID)
						ls.BindText(3, fmt.Sprintf("Location %d %d %d", p, d, l))
						ls.BindInt64(4, int64(l%2))
						stepReset(t, ls)
					}
				}
			}
		}) / (profiles * devices * locations)

		w, _ := bench.LookupWorkload("SqinnComplexInsert")
		e := targettest.NewEnv(t, "crawshaw", targettest.SQLite)
		n := profiles * devices * locations
		e.Warm, e.N = 0, n
		r, err := w.Begin(e)
		if err != nil {
			t.Fatal(err)
		}
		var batchErr error
		got := allocs(func() { batchErr = r.Batch(0, n) }) / float64(n)
		if batchErr != nil {
			t.Fatal(batchErr)
		}
		if err := r.End(); err != nil { // reads the rows back
			t.Fatal(err)
		}
		// Its three transactions (BEGIN, prepare, close, COMMIT), which the
		// published loops here leave out, add well under 0.1 a location.
		t.Logf("a location: %.2f allocations, the published loops %.2f", got, published)
		if got > published+0.1 {
			t.Errorf("a location inserted (with its device and profile) allocates %.2f times, the published "+
				"program's loops %.2f", got, published)
		}
	})
}

// allocs returns the heap allocations f makes, run once (f inserts rows
// that cannot be inserted twice, so testing.AllocsPerRun, which runs it
// once more first, does not fit), on one P as AllocsPerRun counts.
func allocs(f func()) float64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs - before.Mallocs)
}

// TestBoundExec checks crawshaw's prepared statement as a
// bench.BoundExecer: typed binds run with ExecBound, and a later Exec with
// fewer arguments does not run with the typed binds' leftover values.
func TestBoundExec(t *testing.T) {
	c, _ := targettest.Open(t, "crawshaw", targettest.SQLite)
	for _, q := range []string{"DROP TABLE IF EXISTS bound", "CREATE TABLE bound (a INTEGER, b TEXT, c REAL)"} {
		if err := c.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s, err := c.Prepare("INSERT INTO bound (a, b, c) VALUES (?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b, ok := s.(bench.BoundExecer)
	if !ok {
		t.Fatalf("crawshaw's prepared statement %T binds no typed values", s)
	}
	for i := range 2 {
		if err := bindAll(b.BindInt64(1, int64(i)), b.BindText(2, "x"), b.BindFloat(3, 1.5)); err != nil {
			t.Fatal(err)
		}
		if err := b.ExecBound(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Exec(7); err != nil { // b and c unbound: NULL
		t.Fatal(err)
	}
	var got []string
	err = c.Query("SELECT a, b, c FROM bound ORDER BY rowid", func(r bench.Row) error {
		var a sql.NullInt64
		var b sql.NullString
		var f sql.NullFloat64
		if err := r.Scan(&a, &b, &f); err != nil {
			return err
		}
		got = append(got, fmt.Sprint(a.Int64, b, f))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0 {x true} {1.5 true}", "1 {x true} {1.5 true}", "7 { false} {0 false}"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows %q, want %q", got, want)
	}
}

func bindAll(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
