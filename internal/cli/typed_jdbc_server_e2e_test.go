package cli

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/internal/launcher"
	"github.com/sqlbench/sqlbench/internal/protocol"
	"github.com/sqlbench/sqlbench/internal/servers"
)

// typedJDBCCounts is what the server ran for one run request of a typed
// workload on a JDBC target: for each run, what it runs besides its
// operations (recreating the table, the read-back check) and the timed
// transaction's own statements; and per operation.
type typedJDBCCounts struct{ perRun, perOp map[string]int64 }

// typedJDBCWant is what TestTypedJDBCOnTheServer holds each JDBC target's
// typed workloads to, by target and by insert or query, as measured on
// MariaDB 10.11 (statement counters, SHOW GLOBAL STATUS) and PostgreSQL 15
// (the protocol messages its log_min_duration_statement=0 logs: parse,
// bind and execute of the extended protocol, by the statement's first
// word; "S" a named statement, "u" the unnamed one).
var typedJDBCWant = map[string]map[bool]typedJDBCCounts{
	// Connector/J and MariaDB Connector/J prepare on the client (the
	// text protocol; no Com_stmt_*): an insert run is one transaction of
	// n INSERT statements between SET autocommit=0 and COMMIT, SET
	// autocommit=1 after; a read is one SELECT.
	"jdbc-mysql": {
		true: {map[string]int64{"Com_drop_table": 1, "Com_create_table": 1, "Com_set_option": 2,
			"Com_commit": 1, "Com_select": 1}, map[string]int64{"Com_insert": 1}},
		false: {map[string]int64{}, map[string]int64{"Com_select": 1}},
	},
	"jdbc-mariadb": {
		true: {map[string]int64{"Com_drop_table": 1, "Com_create_table": 1, "Com_set_option": 2,
			"Com_commit": 1, "Com_select": 1}, map[string]int64{"Com_insert": 1}},
		false: {map[string]int64{}, map[string]int64{"Com_select": 1}},
	},
	// pgjdbc: a Statement's query is one parse, bind and execute of the
	// unnamed statement; the insert, and the BEGIN and COMMIT it sends
	// itself, are named statements its cache keeps prepared on the server
	// (parsed once, in the earlier runs: prepareThreshold, 5 uses), bound
	// and executed once a row (once a run).
	"jdbc-postgres": {
		true: {map[string]int64{"parse u DROP": 1, "bind u DROP": 1, "execute u DROP": 1,
			"parse u CREATE": 1, "bind u CREATE": 1, "execute u CREATE": 1,
			"bind S BEGIN": 1, "execute S BEGIN": 1, "bind S COMMIT": 1, "execute S COMMIT": 1,
			"parse u SELECT": 1, "bind u SELECT": 1, "execute u SELECT": 1},
			map[string]int64{"bind S INSERT": 1, "execute S INSERT": 1}},
		false: {map[string]int64{}, map[string]int64{"parse u SELECT": 1, "bind u SELECT": 1, "execute u SELECT": 1}},
	},
}

// TestTypedJDBCOnTheServer counts, on throwaway MariaDB and PostgreSQL
// servers, what each JDBC target's typed workloads run, the twin of the
// Go drivers' targettest.TypedOnTheServer. It drives one JDBC runner over
// the runner protocol itself, so that it knows where each run begins and
// ends. Per workload, a first run request of 20 operations takes the
// cell's setup (the query tables' fill), the connection's own statements
// and the runner's JIT warm-up (untimed whole runs repeated for a time,
// which is why two whole sessions do not compare), and four more runs of
// 20 bring the drivers' statement caches to where a session's timed runs
// find them. Then a run of 20 and one of 40 operations (no warm-up
// operations) are counted on the server right before and right after
// each request: their difference over 20 is what one operation runs, and
// must divide exactly; the run of 20 less 20 operations is what a run runs
// besides them. Both are held to typedJDBCWant. MySQL Connector/J's cells
// of the typed table fail their value check on MariaDB (docs/typed-rows.md)
// and are not counted; its wide-row cells are.
func TestTypedJDBCOnTheServer(t *testing.T) {
	needServers(t, servers.KindMariaDB, servers.KindPostgres)
	needJDK(t)
	env, _, _, cache, tmp := realEnv(t)
	ctx := context.Background()
	jb := &launcher.JarBuilder{Src: env.Dir, Cache: cache}
	jar, err := jb.Build(ctx)
	if err != nil {
		t.Fatal(err)
	}
	start := func(k servers.Kind) *servers.Server {
		srv, err := servers.Start(ctx, servers.Options{Kind: k, Profile: servers.ProfileFast, Parent: tmp})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Stop() })
		return srv
	}
	maria, pg := start(servers.KindMariaDB), start(servers.KindPostgres)
	mariaRead := mariaDBCounter(t, maria)
	pgRead := postgresLogCounter(t, pg)
	cmd := jb.Command(jar, launcher.SmokeJITWarmup)
	proc, err := launcher.Start(cmd[0], cmd[1:]...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proc.Close() })
	workloads := []string{"TypedInsert", "TypedQuery/scan=string", "TypedQuery/scan=bytes", "TypedWideInsert",
		"TypedWideQuery"}
	for i, c := range []struct {
		target, db string
		srv        *servers.Server
		read       func() map[string]int64
	}{
		{"jdbc-mariadb", "mariadb", maria, mariaRead},
		{"jdbc-mysql", "mariadb", maria, mariaRead},
		{"jdbc-postgres", "postgres", pg, pgRead},
	} {
		ep, err := c.srv.Endpoint("tcp")
		if err != nil {
			t.Fatal(err)
		}
		for j, w := range workloads {
			if c.target == "jdbc-mysql" && !strings.HasPrefix(w, "TypedWide") {
				continue // fails its check on the time's microseconds
			}
			t.Run(c.target+"/"+w, func(t *testing.T) {
				req := protocol.Request{Verb: protocol.VerbRun, Target: c.target, Workload: w, DB: c.db,
					Scope: fmt.Sprintf("jt%d%d", i, j), Location: protocol.Location{Endpoint: ep.Bench()},
					Name: w + "/" + c.target}
				defer func() {
					req.Verb = protocol.VerbClose
					if r, err := proc.Do(ctx, req, 2*time.Minute); err != nil || r.Fail != "" {
						t.Errorf("close: %v %s", err, r.Fail)
					}
				}()
				count := func(n int) map[string]int64 {
					t.Helper()
					req.N = n
					before := c.read()
					r, err := proc.Do(ctx, req, 5*time.Minute)
					if err != nil {
						t.Fatal(err)
					}
					if r.Fail != "" {
						t.Fatalf("run of %d: %s", n, r.Fail)
					}
					return diff(c.read(), before)
				}
				first := count(20)
				for range 4 {
					count(20)
				}
				d20, d40 := count(20), count(40)
				got := typedJDBCCounts{perRun: map[string]int64{}, perOp: map[string]int64{}}
				for k := range mergeKeys(d20, d40) {
					per := d40[k] - d20[k]
					if per%20 != 0 {
						t.Errorf("%s: %d in a run of 20, %d in one of 40: not the same per operation", k, d20[k],
							d40[k])
					}
					if per /= 20; per != 0 {
						got.perOp[k] = per
					}
					if r := d20[k] - 20*per; r != 0 {
						got.perRun[k] = r
					}
				}
				t.Logf("first run (setup, JIT warm-up): %v", first)
				t.Logf("a run of 20: %v; of 40: %v", d20, d40)
				t.Logf("per run %v, per operation %v", got.perRun, got.perOp)
				want := typedJDBCWant[c.target][strings.HasSuffix(w, "Insert")]
				if !maps.Equal(got.perRun, want.perRun) || !maps.Equal(got.perOp, want.perOp) {
					t.Errorf("the server ran per run %v and per operation %v, want %v and %v", got.perRun,
						got.perOp, want.perRun, want.perOp)
				}
			})
		}
	}
}

// diff returns after less before, without the zeros.
func diff(after, before map[string]int64) map[string]int64 {
	d := map[string]int64{}
	for k, v := range after {
		if v != before[k] {
			d[k] = v - before[k]
		}
	}
	for k, v := range before {
		if _, ok := after[k]; !ok && v != 0 {
			d[k] = -v
		}
	}
	return d
}

// mergeKeys returns the keys of both maps.
func mergeKeys(a, b map[string]int64) map[string]bool {
	k := map[string]bool{}
	for x := range a {
		k[x] = true
	}
	for x := range b {
		k[x] = true
	}
	return k
}

// mariaDBCounter returns a reader of the server's statement counters
// (SHOW GLOBAL STATUS, the Com_* ones, which count every session's
// statements as they run), less Com_show_status, the reading's own.
func mariaDBCounter(t *testing.T, srv *servers.Server) func() map[string]int64 {
	t.Helper()
	db, err := sql.Open("mysql", srv.DSN("tcp"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return func() map[string]int64 {
		t.Helper()
		rows, err := db.Query(`SHOW GLOBAL STATUS LIKE 'Com\_%'`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]int64{}
		for rows.Next() {
			var k string
			var v int64
			if err := rows.Scan(&k, &v); err != nil {
				t.Fatal(err)
			}
			if k != "Com_show_status" {
				out[k] = v
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
}

// pgLogLine is one protocol message log_min_duration_statement logs: its
// kind, the statement's name and its text's first word.
var pgLogLine = regexp.MustCompile(`LOG:  duration: [0-9.]+ ms  (?:(parse|bind|execute) ([^:]+)|(statement)): ` +
	`\s*([A-Za-z]+)`)

// postgresLogCounter sets log_min_duration_statement to 0 for the bench
// role (as the superuser, through the server's socket), so that its
// sessions log every simple query and every parse, bind and execute
// message, and returns a reader of the counts in the server's log, by
// message, statement (u for the unnamed, S for a named one) and first
// word, since the test started. A backend writes its line before it
// answers, so a count read after a reply holds what the reply answered.
func postgresLogCounter(t *testing.T, srv *servers.Server) func() map[string]int64 {
	t.Helper()
	adm, err := sql.Open("pgx", fmt.Sprintf("host=%s port=%d user=postgres dbname=postgres sslmode=disable",
		srv.Dir, srv.Port))
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	role := `"` + strings.ReplaceAll(srv.User, `"`, `""`) + `"`
	if _, err := adm.Exec("ALTER ROLE " + role + " SET log_min_duration_statement = 0"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(srv.Dir, "server.log")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	from := fi.Size()
	return func() map[string]int64 {
		t.Helper()
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.Seek(from, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		text, err := io.ReadAll(f)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int64{}
		for _, m := range pgLogLine.FindAllStringSubmatch(string(text), -1) {
			kind, name := m[1], "u"
			if m[3] != "" {
				kind, name = "statement", "-"
			} else if m[2] != "<unnamed>" {
				name = "S"
			}
			out[kind+" "+name+" "+strings.ToUpper(m[4])]++
		}
		return out
	}
}
