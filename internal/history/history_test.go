package history

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/sqlbench/sqlbench/internal/benchfile"
	"github.com/sqlbench/sqlbench/internal/changepoint"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/testenv"
)

// fileSpec is a results file to write: a session of two cells, the
// first's ns/op rising by rise from session step on.
type fileSpec struct {
	id    string
	began time.Time
	cpu   string
	scale float64
	mattn string // the mattn target's version
	ns    [2]float64
	// count is how many runs of each cell.
	count int
}

// writeFile writes spec as sqlbench does, and returns its path.
func writeFile(t *testing.T, dir string, spec fileSpec) string {
	t.Helper()
	path := filepath.Join(dir, spec.id+".txt")
	w, err := benchfile.Create(path, benchfile.Exclusive)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"goos", "linux"}, {"goarch", "amd64"}, {"cpu", spec.cpu}, {"cores", "2"},
		{"go", "go1.26.8"}, {"kernel", "6.1.0"}, {"mattn-module", "github.com/mattn/go-sqlite3 " + spec.mattn},
		{"mattn-sqlite", "3.53.4"}, {"modernc-module", "modernc.org/sqlite v1.61.1"},
		{"sqlite-journal-mode", "DELETE"}, {"postgres-version", "15.18"}} {
		w.SetConfig(kv[0], kv[1])
	}
	h := benchfile.Header{Pin: "none", TimingThread: "auto", Version: "devel", Command: "sqlbench run",
		Count: spec.count, Slices: 5, Scale: spec.scale, Warmup: 0.1, Began: spec.began, Started: spec.began,
		SessionID: spec.id}
	h.Write(w)
	if err := w.WriteUnits(); err != nil {
		t.Fatal(err)
	}
	for range spec.count {
		for i, name := range []string{"SimpleQuery/db=sqlite/driver=mattn/api=sql",
			"SimpleQuery/db=sqlite/driver=modernc/api=sql"} {
			r := &benchfmt.Result{Name: benchfmt.Name(name), Iters: 100, Values: []benchfmt.Value{
				{Value: spec.ns[i], Unit: "ns/op"}, {Value: 217, Unit: "allocs/op"}}}
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// series30 writes 30 sessions a day apart: mattn's SimpleQuery 10% slower
// from the 16th session on (index 15), modernc's the same throughout, both
// with session-to-session noise of CV 3%.
func series30(t *testing.T, dir string, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 9))
	t0 := time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC)
	var paths []string
	for i := range 30 {
		rise := 1.0
		if i >= 15 {
			rise = 1.1
		}
		began := t0.Add(time.Duration(i) * 24 * time.Hour)
		paths = append(paths, writeFile(t, dir, fileSpec{id: fmt.Sprintf("s%02d", i), began: began,
			cpu: "AMD EPYC", scale: 0.01, mattn: "v1.14.52", count: 3,
			ns: [2]float64{40000 * rise * (1 + 0.03*rng.NormFloat64()), 50000 * (1 + 0.03*rng.NormFloat64())}}))
	}
	return paths
}

// record records paths into s and returns how many were new.
func record(t *testing.T, s *Store, paths ...string) int {
	t.Helper()
	n := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		set, err := benchfile.Read(bytes.NewReader(b), p)
		if err != nil {
			t.Fatal(err)
		}
		ok, err := s.Record(context.Background(), SessionID(set, b), p, set, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			n++
		}
	}
	return n
}

// checkStore records 30 sessions and checks what comes back: a session
// recorded twice is skipped, the planted step is the one change point of
// mattn's series and modernc's has none, a session on another machine or
// at another scale is a series of its own, and the export reads back as
// the runs recorded.
func checkStore(t *testing.T, s *Store) {
	ctx := context.Background()
	dir := t.TempDir()
	paths := series30(t, dir, 1)
	if n := record(t, s, paths...); n != 30 {
		t.Fatalf("recorded %d of 30 sessions", n)
	}
	if n := record(t, s, paths[3], paths[29]); n != 0 {
		t.Fatalf("recorded %d sessions again", n)
	}
	other := writeFile(t, dir, fileSpec{id: "other-cpu", began: time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC),
		cpu: "Intel Xeon", scale: 0.01, mattn: "v1.14.52", count: 3, ns: [2]float64{90000, 90000}})
	scaled := writeFile(t, dir, fileSpec{id: "other-scale", began: time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC),
		cpu: "AMD EPYC", scale: 0.1, mattn: "v1.14.52", count: 3, ns: [2]float64{90000, 90000}})
	if n := record(t, s, other, scaled); n != 2 {
		t.Fatalf("recorded %d of 2 sessions", n)
	}
	if n, err := s.Sessions(ctx); err != nil || n != 32 {
		t.Fatalf("Sessions = %d, %v; want 32", n, err)
	}

	ss, err := s.Series(ctx, Filter{Workload: "SimpleQuery"}, "ns/op", changepoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 6 {
		t.Fatalf("%d series, want 6 (2 cells × 3 machines or settings)", len(ss))
	}
	var long []Series
	for _, sr := range ss {
		if len(sr.Points) == 1 {
			if len(sr.Changes) != 0 {
				t.Errorf("%s: a change point in one session", sr.Name)
			}
			continue
		}
		long = append(long, sr)
		if len(sr.Points) != 30 || sr.Points[0].Session != "s00" || sr.Points[29].Session != "s29" {
			t.Fatalf("%s: %d points, want s00 to s29", sr.Name, len(sr.Points))
		}
		if sr.Points[0].Runs != 3 || !strings.Contains(sr.Machine, "cpu: AMD EPYC") ||
			!strings.Contains(sr.Settings, "scale: 0.01") || strings.Contains(sr.Settings, "postgres") {
			t.Errorf("%s: runs %d, machine %q, settings %q", sr.Name, sr.Points[0].Runs, sr.Machine, sr.Settings)
		}
	}
	if len(long) != 2 {
		t.Fatalf("%d series of 30 sessions, want 2", len(long))
	}
	for _, sr := range long {
		var at []int
		for _, c := range sr.Changes {
			at = append(at, c.Index)
		}
		want := []int(nil)
		if strings.Contains(sr.Name, "mattn") {
			want = []int{15}
			if !strings.Contains(sr.Points[0].Target, "v1.14.52") {
				t.Errorf("mattn's target %q", sr.Points[0].Target)
			}
		}
		if !slices.Equal(at, want) {
			t.Errorf("%s: change points at %v, want %v", sr.Name, at, want)
		}
	}
	var text strings.Builder
	if err := WriteText(&text, long, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"SimpleQuery/db=sqlite/driver=mattn/api=sql  sec/op  30 sessions, 2026-10-01 to 2026-10-30\n" +
			"  machine: linux/amd64, AMD EPYC, 2 cores\n",
		"  s00 to s14 (15 sessions): median ", "  change at s15 (2026-10-16): +",
		"% (worse), p = 0.005\n  s15 to s29 (15 sessions): median ",
		"SimpleQuery/db=sqlite/driver=modernc/api=sql  sec/op", "  s00 to s29 (30 sessions): median ",
		"no change point",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("WriteText: no %q in\n%s", want, text.String())
		}
	}
	var page strings.Builder
	if err := WriteHTML(&page, long); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(page.String(), "<svg"); n != 2 || !strings.Contains(page.String(), "change at s15") {
		t.Errorf("WriteHTML: %d charts, want 2, and the change at s15", n)
	}
	ms, err := s.Series(ctx, Filter{Target: "modernc"}, "allocs/op", changepoint.Options{})
	if err != nil || len(ms) != 3 || !strings.Contains(ms[0].Name, "modernc") {
		t.Fatalf("modernc's allocs/op: %d series, %v", len(ms), err)
	}

	var out bytes.Buffer
	n, err := s.Export(ctx, Filter{Target: "mattn"}, &out)
	if err != nil || n != 32 {
		t.Fatalf("Export: %d sessions, %v", n, err)
	}
	exported := out.String()
	back, err := benchfile.Read(&out, "export")
	if err != nil {
		t.Fatal(err)
	}
	orig, err := benchfile.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Results) != 32*3 {
		t.Fatalf("export: %d results, want %d", len(back.Results), 32*3)
	}
	got, want := back.Results[0], orig.Results[0]
	if got.Name.String() != want.Name.String() || got.Iters != want.Iters || !slices.Equal(got.Values, want.Values) {
		t.Errorf("export: first result %s %d %v, want %s %d %v", got.Name, got.Iters, got.Values, want.Name, want.Iters,
			want.Values)
	}
	for _, key := range []string{"cpu", "mattn-module", "scale", "count", "goos"} {
		if got.GetConfig(key) != want.GetConfig(key) {
			t.Errorf("export: %s %q, want %q", key, got.GetConfig(key), want.GetConfig(key))
		}
	}
	if c := strings.Count(exported, "# session-id: "); c != 32 {
		t.Errorf("export: %d session-id lines, want 32", c)
	}
}

func TestSQLiteStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "history.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkStore(t, s)
	s.Close()
	// Reopened, it holds what it held.
	s2, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if n, err := s2.Sessions(context.Background()); err != nil || n != 32 {
		t.Fatalf("reopened: %d sessions, %v", n, err)
	}
}

func TestPostgresStore(t *testing.T) {
	testenv.Need(t, "a postgres server", servers.Installed(servers.KindPostgres))
	srv, err := servers.Start(context.Background(), servers.Options{Kind: servers.KindPostgres,
		Profile: servers.ProfileFast})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	// Over the unix socket, a keyword/value DSN: its password masked too.
	if s, err := Open(context.Background(), srv.DSN("unix")); err != nil {
		t.Fatal(err)
	} else if strings.Contains(s.Where(), srv.Password) || !strings.Contains(s.Where(), "host=") {
		t.Errorf("Where %q shows the password or no host", s.Where())
	} else {
		s.Close()
	}
	dsn := srv.DSN("tcp")
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if strings.Contains(s.Where(), srv.Password) || !strings.Contains(s.Where(), "127.0.0.1") {
		t.Errorf("Where %q shows the password or no host", s.Where())
	}
	checkStore(t, s)

	// A wrong password: an error without it.
	bad := strings.Replace(dsn, srv.Password, "wrong-"+srv.Password, 1)
	if _, err := Open(context.Background(), bad); err == nil {
		t.Error("a wrong password was accepted")
	} else if t.Logf("a wrong password: %v", err); strings.Contains(err.Error(), srv.Password) {
		t.Errorf("the error carries the password: %v", err)
	}
}

func TestFilter(t *testing.T) {
	for _, c := range []struct {
		f                Filter
		workload, driver string
		want             bool
	}{
		{Filter{}, "SimpleQuery", "mattn", true},
		{Filter{Target: "mattn"}, "SimpleQuery", "mattn@v1.14.22", true},
		{Filter{Target: "mattn"}, "SimpleQuery", "mattn+spin=2us", true},
		{Filter{Target: "mattn@v1.14.22"}, "SimpleQuery", "mattn", false},
		{Filter{Target: "mattn"}, "SimpleQuery", "modernc", false},
		{Filter{Target: "pgx*"}, "SimpleQuery", "pgx", true},
		{Filter{Workload: "Simple*"}, "SimpleQueryRow", "mattn", true},
		{Filter{Workload: "SimpleQuery"}, "SimpleQueryRow", "mattn", false},
	} {
		if got := c.f.takes(c.workload, c.driver); got != c.want {
			t.Errorf("%+v takes %s %s = %v, want %v", c.f, c.workload, c.driver, got, c.want)
		}
	}
	if err := (Filter{Target: "["}).Check(); err == nil || !strings.Contains(err.Error(), "--target") {
		t.Errorf("Check of a bad glob: %v", err)
	}
}

func TestIsPostgres(t *testing.T) {
	for dsn, want := range map[string]bool{
		"postgres://u@h/db": true, "postgresql://h/db": true, "host=/tmp dbname=x": true, "dbname=x": true,
		"/home/u/.local/share/sqlbench/history.db": false, "history.db": false, "team=a.db": false,
	} {
		if got := IsPostgres(dsn); got != want {
			t.Errorf("IsPostgres(%q) = %v", dsn, got)
		}
	}
}

func TestDefaultPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if got := DefaultPath(
		env(map[string]string{"XDG_DATA_HOME": "/d", "HOME": "/h"})); got != "/d/sqlbench/history.db" {
		t.Errorf("with XDG_DATA_HOME: %s", got)
	}
	if got := DefaultPath(env(map[string]string{"HOME": "/h"})); got != "/h/.local/share/sqlbench/history.db" {
		t.Errorf("with HOME: %s", got)
	}
	if got := DefaultPath(env(nil)); got != "" {
		t.Errorf("with neither: %s", got)
	}
}
