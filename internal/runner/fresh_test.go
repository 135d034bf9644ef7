package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/protocol"
)

// freshConn is the fresh probe's SQL connection: it does nothing but
// record.
type freshConn struct{}

func (freshConn) Exec(string, ...any) error                    { return nil }
func (freshConn) Query(string, bench.RowFunc, ...any) error    { return nil }
func (freshConn) QueryRow(string, bench.RowFunc, ...any) error { return nil }
func (freshConn) Prepare(string) (bench.Stmt, error)           { return nil, errors.New("no statements") }
func (freshConn) Close() error                                 { freshCalls.add("close")(); return nil }

// freshCalls records the fresh probes' opens (whether the database file
// was there), setups and runs.
var freshCalls carryCalls

// init registers the probe target, which opens a "database" as SQLite
// does (the file and a journal beside it created when missing), and two
// workloads, one FreshDB, once, so that the test runs again under -count.
func init() {
	bench.RegisterOpener("fresh-probe", func(_ context.Context, cfg bench.Config) (bench.Conn, error) {
		state := "new"
		if _, err := os.Stat(cfg.DSN); err == nil {
			state = "existing"
		}
		freshCalls.add("open:" + state)()
		for _, f := range []string{cfg.DSN, cfg.DSN + "-journal"} {
			if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
				return nil, err
			}
		}
		return freshConn{}, nil
	})
	for _, fresh := range []bool{true, false} {
		bench.RegisterWorkload(bench.Workload{
			Name: fmt.Sprintf("FreshProbe%v", fresh), Family: "test", Ops: 1, Unit: "ops",
			Only: []bench.DB{bench.SQLite}, FreshDB: fresh,
			Describe: func(bench.Dialect) string { return "records its cell's opens" },
			Setup:    func(bench.Env) error { freshCalls.add("setup")(); return nil },
			Begin: func(bench.Env) (bench.Run, error) {
				return bench.Run{Op: func(int) error { freshCalls.add("op")(); return nil }}, nil
			},
			Teardown: func(bench.Env) error { return nil },
		})
	}
}

// TestAFreshDBRunStartsOnANewDatabaseFile: every run of a FreshDB workload
// on SQLite opens its cell again on a removed file (its journal removed
// too) and sets it up again, outside the clock, as go-sqlite-bench removes
// its database files before each test, and its files are removed after
// the run; a workload without FreshDB keeps its cell's file and setup from
// run to run.
func TestAFreshDBRunStartsOnANewDatabaseFile(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		fresh bool
		want  string
	}{
		{true, "open:new close open:new setup op close open:new setup op close"},
		{false, "open:new setup op op close"},
	} {
		w := fmt.Sprintf("FreshProbe%v", c.fresh)
		dsn := filepath.Join(dir, w+".db")
		var in strings.Builder
		for run := 1; run <= 2; run++ {
			req := protocol.Request{Verb: protocol.VerbRun, Target: "fresh-probe", Workload: w, DB: "sqlite",
				Location: protocol.Location{DSN: dsn}, Scope: "c0", Name: w + "/db=sqlite", N: 1, Run: run, Slice: 1,
				Slices: 1}
			in.WriteString(req.Encode() + "\n")
		}
		in.WriteString("close target=fresh-probe&scope=c0\n")
		var out, log bytes.Buffer
		s := &Loop{In: strings.NewReader(in.String()), Out: &out, Log: &log}
		freshCalls.take()
		if err := s.Serve(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if ok, fail := protocol.ParseStatus(line); ok && fail != "" {
				t.Fatalf("%s: %s\n%s", w, fail, log.String())
			}
		}
		if got := freshCalls.take(); got != c.want {
			t.Errorf("%s: calls\n%s\nwant\n%s", w, got, c.want)
		}
		// A FreshDB cell's files go after each run (the next run makes
		// new ones), as the program keeps one test's file at a time.
		for _, f := range []string{dsn, dsn + "-journal"} {
			if _, err := os.Stat(f); errors.Is(err, fs.ErrNotExist) != c.fresh {
				t.Errorf("%s: after the runs, %s: %v", w, filepath.Base(f), err)
			}
		}
	}
	// The removal of a database's files.
	db := filepath.Join(dir, "x.db")
	for _, f := range []string{db, db + "-journal", db + "-wal", db + "-shm"} {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := removeDBFiles(db); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{db, db + "-journal", db + "-wal", db + "-shm"} {
		if _, err := os.Stat(f); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is there after removeDBFiles (%v)", f, err)
		}
	}
	if err := removeDBFiles(db); err != nil {
		t.Errorf("removing missing files: %v", err)
	}
}
