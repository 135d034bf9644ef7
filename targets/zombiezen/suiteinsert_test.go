package zombiezen_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"zombiezen.com/go/sqlite"

	"github.com/sqlbench/sqlbench/targets/targettest"
)

// TestGoSQLiteBenchInsertsAllocateAsPublished checks that the
// go-sqlite-bench suite's simple insert on zombiezen allocates per user no
// more than the published zombie adapter's loop (cvilsmeier/go-sqlite-bench
// at 91b73d7, cmd/bench-zombie: BindInt64, BindInt64, BindText, BindBool,
// Step, Reset), run here on the same library and table. Binding through
// []any, as the suite did for every target, boxes the id, the created time
// and the email: three more allocations a user.
func TestGoSQLiteBenchInsertsAllocateAsPublished(t *testing.T) {
	const n = 2000
	conn, err := sqlite.OpenConn(filepath.Join(t.TempDir(), "published.db"), sqlite.OpenReadWrite, sqlite.OpenCreate)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{
		"CREATE TABLE users (id INTEGER PRIMARY KEY NOT NULL, created INTEGER NOT NULL, email TEXT NOT NULL, active " +
			"INTEGER NOT NULL)",
		"BEGIN",
	} {
		s, _, err := conn.PrepareTransient(q)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		if err := s.Finalize(); err != nil {
			t.Fatal(err)
		}
	}
	base := time.Date(2023, 10, 1, 10, 0, 0, 0, time.Local)
	emails := make([]string, n+1)
	for i := range emails {
		emails[i] = fmt.Sprintf("user%08d@example.com", i+1)
	}
	s := conn.Prep("INSERT INTO users(id,created,email,active) VALUES(?,?,?,?)")
	id := 0
	published := testing.AllocsPerRun(n, func() {
		s.BindInt64(1, int64(id+1))
		s.BindInt64(2, base.Add(time.Duration(id)*time.Minute).UnixMilli())
		s.BindText(3, emails[id])
		s.BindBool(4, true)
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		if err := s.Reset(); err != nil {
			t.Fatal(err)
		}
		id++
	})

	got := targettest.OpAllocs(t, "zombiezen", "SuiteSimpleInsert", n) // End reads every user back
	t.Logf("a user: %.0f allocations, the published loop %.0f", got, published)
	if got > published {
		t.Errorf("a user inserted allocates %.0f times, the published adapter's loop %.0f", got, published)
	}
}
