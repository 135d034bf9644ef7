// Package targets is the catalogue of every target sqlbench knows: one row
// per driver and API. The orchestrator reads it to plan runs and to say which
// targets this machine can run; the implementations live in one subpackage
// per driver and register themselves with bench.RegisterOpener under the
// same names, with the capabilities they declare (the JDBC targets in the
// JDBC runner's Target.java). Each runner's hello is the source of truth for
// what it links and implements; the orchestrator checks it against this
// catalogue.
package targets

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/floor"
)

// Spec describes one target: a driver reached through one API.
type Spec struct {
	// Name is the target's name on the command line.
	Name string
	// Base, set on a variant (the target at another version of its
	// module, or built from a local checkout: --targets mattn@v1.14.22),
	// is the catalogue target it is a variant of; its runner knows it by
	// that name (Opener). Version is the variant's release, or the local
	// checkout's absolute directory. A spin variant (SpinOf) sets Base too
	// but not Version: it runs in its base's runner, no rebuild.
	Base, Version string
	// Spin, set on a spin variant (--targets mattn+spin=50us), is the busy
	// spin its runner adds inside the clock after each operation: a
	// slowdown of known size (docs/versions.md).
	Spin time.Duration
	// Driver and API are the driver= and api= keys of its result names.
	Driver, API string
	// DB is the database family the target speaks, or the bench.Kind it
	// is a target of (the transport floor: package floor).
	DB bench.DB
	// Group is the runner binary the target is linked into; the runner is
	// built with the build tag "sqlbench_" + Group. Libraries that export the
	// same C symbols must be in different groups.
	Group string
	// Module is the Go module the driver comes from; its version is recorded.
	Module string
	// Package is the directory of the package that implements the target,
	// relative to targets/ (the transport floor's is ../floor/wire).
	Package string
	// Cgo is set when the driver needs a C compiler.
	Cgo bool
	// External names a helper program the driver needs at run time, found
	// through the environment variable ExternalEnv or on PATH;
	// ExternalHow says how to get it where it is missing.
	External, ExternalEnv, ExternalHow string
	// Unobtainable, when set, says why the target cannot be built at all.
	Unobtainable string
	// Desc says in one line what the target is and how it maps the
	// workloads' simple and prepared calls.
	Desc string
	// JVM is set for targets of the JDBC runner (jdbc/, Java): built with
	// Maven into one jar and run on a JVM, one process per Group. Module is
	// then the driver's Maven coordinates.
	JVM bool
	// Nets lists the transports to a server the target can use; nil means
	// every one.
	Nets []string
	// FreeIn lists the workload families in which the target hands each
	// call to a goroutine of its own, where a timing goroutine locked to
	// its thread would turn every such hand-over into a wake-up of another
	// thread that the published program, a plain Go program, does not make:
	// --timing-thread auto leaves those cells' timing goroutine free
	// (crawshaw in the go-sqlite-bench suite, whose sqlitex.Pool starts a
	// goroutine per Get to watch for an interrupt).
	FreeIn []string
	// Piped marks a target whose every call waits on a process of its own
	// over a pipe (sqinn: SQLite in a sqinn process), as a server's target
	// waits on its socket: a timing goroutine locked to its thread turns
	// every reply into a hand-over between two threads, which doubled the
	// runner's CPU a sqinn many/N=10 read here (docs/reproduce.md), so
	// --timing-thread auto leaves its cells' timing goroutine free.
	Piped bool
	// Caps lists the abilities beyond bench.Conn (for a kind's target,
	// beyond bench.Handle) the target has; workloads
	// that need one (bench.Workload.Needs) run only on targets that have it.
	// The target declares them itself, in its runner's hello (a Go target
	// with bench.RegisterOpener, a JDBC target in Target.java); the
	// orchestrator skips a target whose declaration differs from Caps.
	Caps []bench.Cap
	// Refuses lists, by workload ID, workloads of the target's families
	// that its driver cannot run as written, each with the reason.
	Refuses map[string]string
	// NoTLS, when set, says why the target cannot connect over TLS: a
	// session whose server endpoint asks for TLS skips it with this reason.
	NoTLS string
	// Floor marks a protocol floor (targets/pgproto, targets/mysqlproto):
	// not a driver but a minimal client of its database's wire protocol,
	// the cost under every driver of that database. A session plans it only
	// where --targets names it (by its name or an alias; not by default nor
	// by a pattern), so that it joins no driver ranking unasked.
	Floor bool
	// Only, when set, lists by ID the only workloads the target runs (a
	// protocol floor's: the calls it implements).
	Only []string
}

// Has reports whether the target has capability c.
func (s Spec) Has(c bench.Cap) bool { return slices.Contains(s.Caps, c) }

// Runs reports whether workload w can run on the target as far as the
// catalogue knows, before any runner is built: on its database, and with
// the capability w needs if any. Which workloads the target's runner
// implements only the runner says, in its hello (protocol.Hello); the
// orchestrator plans cells from that (session.Placement.Runs).
func (s Spec) Runs(w bench.Workload) bool {
	return w.RunsOn(s.DB) && (w.Needs == "" || s.Has(w.Needs)) && s.Takes(w.ID())
}

// Takes reports whether the catalogue lets the target run the workload
// whose ID is id: it does not refuse it, and Only, if set, lists it.
func (s Spec) Takes(id string) bool {
	return s.Refuses[id] == "" && (s.Only == nil || slices.Contains(s.Only, id))
}

// RunsOver reports whether the target can connect over transport net ("tcp",
// "unix"; "" for SQLite and the kinds of target, which have no choice).
func (s Spec) RunsOver(net string) bool {
	return net == "" || s.Nets == nil || slices.Contains(s.Nets, net)
}

// Key returns the result-name keys of the target: db, driver and api.
func (s Spec) Key() string {
	return fmt.Sprintf("db=%s/driver=%s/api=%s", s.DB, s.Driver, s.API)
}

// APIs of a target.
const (
	APISQL    = "sql"
	APINative = "native"
	APIJDBC   = "jdbc"
	// APIRaw is the transport floor's: bytes on a socket, no SQL.
	APIRaw = "raw"
	// APIProto is a protocol floor's: the database's wire protocol through
	// a library's protocol layer, no driver.
	APIProto = "proto"
)

// catalog is the whole table, in display order.
func catalog() []Spec {
	const mymysqlNoTLS = "mymysql has no TLS client"
	// database/sql: a *sql.DB serves many goroutines
	pooled := []bench.Cap{bench.CapPool}
	loads := []bench.Cap{bench.CapPool, bench.CapLoad, bench.CapContext} // go-sql-driver: LOAD DATA LOCAL from a reader
	return refuseScripts([]Spec{
		{Name: "mattn", Package: "mattn", Driver: "mattn", API: APISQL, DB: bench.SQLite, Group: "mattn", Cgo: true,
			Module: "github.com/mattn/go-sqlite3",
			Desc:   "mattn/go-sqlite3 through database/sql (cgo)",
			Caps:   pooled},
		{Name: "modernc", Package: "modernc", Driver: "modernc", API: APISQL, DB: bench.SQLite, Group: "purego",
			Module: "modernc.org/sqlite",
			Desc:   "modernc.org/sqlite through database/sql (C translated to Go, no cgo)",
			Caps:   pooled},
		{Name: "zombiezen", Package: "zombiezen", Driver: "zombiezen", API: APINative, DB: bench.SQLite,
			Group:  "purego",
			Module: "zombiezen.com/go/sqlite",
			Desc: "zombiezen.com/go/sqlite native API on modernc's engine; simple = PrepareTransient+Step, " +
				"prepared = Prepare once, Reset per use"},
		{Name: "crawshaw", Package: "crawshaw", Driver: "crawshaw", API: APINative, DB: bench.SQLite, Group: "crawshaw",
			Cgo:    true,
			Module: "crawshaw.io/sqlite", FreeIn: []string{"suite"},
			Desc: "crawshaw.io/sqlite native API (cgo); simple = PrepareTransient+Step, prepared = Prepare once, " +
				"Reset per use"},
		{Name: "ncruces", Package: "ncruces", Driver: "ncruces", API: APISQL, DB: bench.SQLite, Group: "purego",
			Module: "github.com/ncruces/go-sqlite3",
			Desc: "ncruces/go-sqlite3 through database/sql (SQLite compiled to Wasm, translated to Go by wasm2go; " +
				"no cgo)",
			Caps: pooled},
		{Name: "ncruces-native", Package: "ncruces", Driver: "ncruces", API: APINative, DB: bench.SQLite,
			Group:  "purego",
			Module: "github.com/ncruces/go-sqlite3",
			Desc: "ncruces/go-sqlite3 native API; simple = Prepare+Step+Close, prepared = Prepare once, Reset per " +
				"use"},
		{Name: "eatonphil", Package: "eatonphil", Driver: "eatonphil", API: APINative, DB: bench.SQLite,
			Group: "eatonphil", Cgo: true,
			Module: "github.com/eatonphil/gosqlite",
			Desc: "eatonphil/gosqlite native API (cgo, bundles SQLite), the maintained fork of " +
				"bvinc/go-sqlite-lite; simple = Prepare+Step+Close, prepared = Prepare once, Reset per use"},
		{Name: "bvinc", Package: "bvinc", Driver: "bvinc", API: APINative, DB: bench.SQLite, Group: "bvinc", Cgo: true,
			Module: "github.com/bvinc/go-sqlite-lite",
			Desc: "bvinc/go-sqlite-lite native API (cgo, bundles SQLite), the original gosqlite; simple = " +
				"Prepare+Step+Close, prepared = Prepare once, Reset per use",
			Refuses: map[string]string{
				"BulkInsert/shape=16x32/path=multirow/args=bytes":  bvincParams,
				"BulkInsert/shape=16x32/path=multirow/args=string": bvincParams,
			}},
		{Name: "sqinn", Package: "sqinn", Driver: "sqinn", API: APINative, DB: bench.SQLite, Group: "sqinn",
			Module: "github.com/cvilsmeier/sqinn-go", External: "sqinn", ExternalEnv: "SQINN_PATH", Piped: true,
			ExternalHow: "scripts/sqinn in a clone builds it: docs/targets.md",
			Desc: "cvilsmeier/sqinn-go: SQLite in a separate sqinn process over stdin/stdout; simple = one Exec " +
				"request; a query = one whole-result Query request once its text's column types are known (its " +
				"first use: Prepare, Bind, Step, Column per value, Finalize requests); prepared = kept compiled " +
				"in sqinn while no other statement runs (sqinn holds one statement at a time), Reset per use, " +
				"rows read per Step and Column; " +
				"the Sqinn-Go suite uses sqinn-go's whole calls as its published program does: one Exec for all the " +
				"rows, one Query per read"},
		{Name: "mysql", Driver: "go-sql-driver", API: APISQL, DB: bench.MariaDB, Group: "mysql", Package: "mysql",
			Module: "github.com/go-sql-driver/mysql",
			Desc:   "go-sql-driver/mysql through database/sql; arguments go through server-side prepared statements",
			Caps:   append(slices.Clone(loads), bench.CapMultiStmt)},
		{Name: "mysql-interp", Driver: "go-sql-driver-interp", API: APISQL, DB: bench.MariaDB, Group: "mysql",
			Package: "mysql",
			Module:  "github.com/go-sql-driver/mysql",
			Desc: "go-sql-driver/mysql with interpolateParams=true: arguments interpolated client-side, no server " +
				"prepare",
			Caps: loads},
		{Name: "mymysql", Driver: "mymysql", API: APISQL, DB: bench.MariaDB, Group: "mysql", Package: "mymysql",
			Module: "github.com/ziutek/mymysql",
			Desc:   "ziutek/mymysql through database/sql (godrv)",
			Caps:   pooled, NoTLS: mymysqlNoTLS},
		{Name: "mymysql-native", Driver: "mymysql", API: APINative, DB: bench.MariaDB, Group: "mysql",
			Package: "mymysql",
			Module:  "github.com/ziutek/mymysql",
			Desc: "ziutek/mymysql native API; simple = Start + ScanRow (with arguments: Prepare, Run, Delete), " +
				"prepared = Prepare once, Run per use",
			NoTLS: mymysqlNoTLS},
		{Name: "go-mysql", Driver: "go-mysql", API: APINative, DB: bench.MariaDB, Group: "mysql", Package: "gomysql",
			Module: "github.com/go-mysql-org/go-mysql",
			Desc: "go-mysql-org/go-mysql client.Conn native API; simple = conn.Execute, text protocol, arguments " +
				"interpolated as SQL literals by sqlbench; " +
				"prepared = conn.Prepare once, stmt.Execute per use, binary protocol; Query streams rows " +
				"(ExecuteSelectStreaming)",
			Caps: pooled, Refuses: refuseAll(poolWorkloads(), goMySQLPool)},
		{Name: "pq", Driver: "pq", API: APISQL, DB: bench.Postgres, Group: "postgres", Package: "pq",
			Module: "github.com/lib/pq",
			Desc:   "lib/pq through database/sql",
			Caps:   []bench.Cap{bench.CapPool, bench.CapCopy, bench.CapContext}},
		{Name: "pgx", Driver: "pgx", API: APISQL, DB: bench.Postgres, Group: "postgres", Package: "pgx",
			Module: "github.com/jackc/pgx/v5",
			Desc:   "jackc/pgx v5 through database/sql (pgx/v5/stdlib)",
			Caps:   []bench.Cap{bench.CapPool, bench.CapContext}},
		{Name: "pgx-native", Driver: "pgx", API: APINative, DB: bench.Postgres, Group: "postgres", Package: "pgx",
			Module: "github.com/jackc/pgx/v5",
			Desc: "jackc/pgx v5 native pgx.Conn; simple = conn.Query (pgx's default statement cache), prepared = " +
				"conn.Prepare once, run by name",
			Caps: []bench.Cap{bench.CapCopy, bench.CapContext, bench.CapSendBatch, bench.CapPipeline}},
		{Name: "pgxpool", Driver: "pgxpool", API: APINative, DB: bench.Postgres, Group: "postgres", Package: "pgx",
			Module: "github.com/jackc/pgx/v5", Caps: []bench.Cap{bench.CapPool}, Only: poolWorkloads(),
			Desc: "jackc/pgx v5 native pool pgxpool.Pool (MaxConns = the workload's pool size): pool.QueryRow per " +
				"query, " +
				"pgx's statement cache on each connection; the pool family only (docs/pools.md)"},
		// The protocol floors: classic calls as the bare wire protocol,
		// through the protocol layers of pgx and go-mysql, in the runner
		// groups that already link them; named only on purpose (Floor).
		{Name: "pgproto", Driver: "pgproto3", API: APIProto, DB: bench.Postgres, Group: "postgres", Package: "pgproto",
			Module: "github.com/jackc/pgx/v5", Floor: true,
			Only: append(protoFloorWorkloads(), "AutoQueryRow", "PreparedQuery", "PreparedQueryRow", "PreparedExec"),
			Desc: "protocol floor: a minimal client on pgx's pgproto3 (startup by pgconn, then hijacked): simple = " +
				"one " +
				"Query message, with arguments = Parse (unnamed), Bind, Execute, Sync; prepared = Parse once, Bind, " +
				"Execute, " +
				"Sync per use; messages read to ReadyForQuery, text values converted with strconv; no driver " +
				"(docs/protocol-floor.md)"},
		{Name: "mysqlproto", Driver: "go-mysql-packet", API: APIProto, DB: bench.MariaDB, Group: "mysql",
			Package: "mysqlproto", Module: "github.com/go-mysql-org/go-mysql", Floor: true,
			Only: append(protoFloorWorkloads(), "PreparedQuery", "PreparedQueryRow", "PreparedExec", "PreparedDo"),
			Desc: "protocol floor: a minimal client on go-mysql's packet layer (handshake by its client.Connect): " +
				"one COM_QUERY packet per call, the response read to its last EOF/OK, text values converted with " +
				"strconv; no driver, no arguments unprepared; prepared = go-mysql's COM_STMT_PREPARE once, " +
				"COM_STMT_EXECUTE per use, binary rows streamed (docs/protocol-floor.md)"},
		// The JDBC baseline: one JVM per target, so that no driver's code
		// shares a call site (and its JIT profile) with another's.
		{Name: "jdbc-mysql", Driver: "connectorj", API: APIJDBC, DB: bench.MariaDB, Group: "jdbc-mysql", JVM: true,
			Caps:   []bench.Cap{bench.CapLoad, bench.CapBatch, bench.CapRewrite, bench.CapContext},
			Module: "com.mysql:mysql-connector-j",
			Desc: "MySQL Connector/J (Java, JDBC runner), driver defaults: prepared statements client-side; unix " +
				"socket through junixsocket's socket factory"},
		{Name: "jdbc-mariadb", Driver: "mariadb-java", API: APIJDBC, DB: bench.MariaDB, Group: "jdbc-mariadb",
			JVM:    true,
			Caps:   []bench.Cap{bench.CapLoad, bench.CapBatch, bench.CapContext},
			Module: "org.mariadb.jdbc:mariadb-java-client",
			Desc: "MariaDB Connector/J (Java, JDBC runner), driver defaults: prepared statements client-side; unix " +
				"socket through its localSocket option"},
		{Name: "jdbc-postgres", Driver: "pgjdbc", API: APIJDBC, DB: bench.Postgres, Group: "jdbc-postgres", JVM: true,
			Caps: []bench.Cap{bench.CapCopy, bench.CapBatch, bench.CapRewrite, bench.CapContext},
			Refuses: map[string]string{
				"BulkInsert/shape=16x32/path=prepared/args=bytes": pgjdbcBytes,
				"BulkInsert/shape=16x32/path=multirow/args=bytes": pgjdbcBytes,
				"BulkInsert/shape=3x8/path=prepared/args=bytes":   pgjdbcBytes,
				"BulkInsert/shape=3x8/path=multirow/args=bytes":   pgjdbcBytes,
			},
			Module: "org.postgresql:postgresql",
			Desc: "pgjdbc (Java, JDBC runner), driver defaults: extended protocol, server-side prepare from the " +
				"5th use; unix socket through junixsocket's socket factory"},
		{Name: "jdbc-pg-hikari", Driver: "pgjdbc-hikari", API: APIJDBC, DB: bench.Postgres,
			Group: "jdbc-pg-hikari", JVM: true, Caps: []bench.Cap{bench.CapPool}, Only: poolWorkloads(),
			Module: "com.zaxxer:HikariCP",
			Desc: "pgjdbc under HikariCP (Java, JDBC runner): a HikariDataSource of the workload's pool size " +
				"(maximumPoolSize, other settings HikariCP's defaults) over pgjdbc's connections; getConnection, " +
				"prepareStatement, executeQuery, close per query; the pool family only (docs/pools.md)"},
		{Name: "jdbc-mariadb-hikari", Driver: "mariadb-java-hikari", API: APIJDBC, DB: bench.MariaDB,
			Group: "jdbc-mariadb-hikari", JVM: true, Caps: []bench.Cap{bench.CapPool}, Only: poolWorkloads(),
			Module: "com.zaxxer:HikariCP",
			Desc: "MariaDB Connector/J under HikariCP (Java, JDBC runner): a HikariDataSource of the workload's pool " +
				"size (maximumPoolSize, other settings HikariCP's defaults) over MariaDB Connector/J's connections; " +
				"getConnection, prepareStatement, executeQuery, close per query; the pool family only (docs/pools.md)"},
		{Name: "jdbc-sqlite", Driver: "xerial", API: APIJDBC, DB: bench.SQLite, Group: "jdbc-sqlite", JVM: true,
			Caps:   []bench.Cap{bench.CapBatch},
			Module: "org.xerial:sqlite-jdbc",
			Desc:   "xerial sqlite-jdbc (Java, JDBC runner; SQLite bundled as a JNI library)"},
		// The transport floor: a kind of target of its own (package floor),
		// no database, no driver module (the standard library's net and
		// net/http), sinks started inside the runner.
		{Name: "tcp", Driver: "tcp", API: APIRaw, DB: floor.Loopback, Group: "purego", Package: "../floor/wire",
			Desc: "transport floor: raw TCP on 127.0.0.1 to a sink in the runner process (messages written and " +
				"flushed, unanswered, as the published TCP benchmark; an echo for round trips); no SQL",
			Caps: []bench.Cap{floor.CapWire}},
		{Name: "http", Driver: "http", API: APIRaw, DB: floor.Loopback, Group: "purego", Package: "../floor/wire",
			Desc: "transport floor: net/http client POSTs (the default transport's settings, as the published " +
				"benchmark) on a kept-alive HTTP/1.1 connection to a net/http server in the runner process on " +
				"127.0.0.1 that reads each body with io.ReadAll and answers 200; no SQL",
			Caps: []bench.Cap{floor.CapHTTP}},
	})
}

// Opener is the name the target's runner registered it under: the
// catalogue target's own name, also for a variant of it.
func (s Spec) Opener() string {
	if s.Base != "" {
		return s.Base
	}
	return s.Name
}

// VariantOf returns base at another version of its module: version is a
// release (v1.14.22) or a local checkout's absolute directory, and label
// names it in the target's name and driver= key (the release, or
// "local-" and the directory's base name). The variant has a runner of its
// own (its Group is base's and the label), built against that version.
func VariantOf(base Spec, version, label string) Spec {
	v := base
	v.Base, v.Version = base.Name, version
	v.Name = base.Name + "@" + label
	v.Driver = base.Driver + "@" + label
	v.Group = base.Group + "@" + label
	return v
}

// SpinSuffix begins the part of a target's name that makes it a spin
// variant: mattn+spin=50us.
const SpinSuffix = "+spin="

// SpinOf returns base (a catalogue target or a version variant of one)
// slowed down by a busy spin of d after each operation, named by label
// (d as written in the name: "50us"). It runs in base's runner (same
// Group), which registered it under base's Opener.
func SpinOf(base Spec, d time.Duration, label string) Spec {
	v := base
	v.Base, v.Spin = base.Opener(), d
	v.Name = base.Name + SpinSuffix + label
	v.Driver = base.Driver + SpinSuffix + label
	return v
}

// BuildGroup is the runner group a target's binary is built as: its Group,
// less a variant's label.
func (s Spec) BuildGroup() string {
	g, _, _ := strings.Cut(s.Group, "@")
	return g
}

// All returns every target in display order.
func All() []Spec { return catalog() }

// Lookup returns the target called name, or one of its Aliases.
func Lookup(name string) (Spec, bool) {
	all := catalog()
	for _, s := range all {
		if s.Name == name {
			return s, true
		}
	}
	for _, s := range all {
		if slices.Contains(s.aliases(all), name) {
			return s, true
		}
	}
	return Spec{}, false
}

// Aliases returns the other names a user sees for the target and may type
// for it: its driver key where that names no other target (xerial for
// jdbc-sqlite, go-sql-driver for mysql), and its driver and API keys as a
// result name writes them (driver=xerial/api=jdbc) and shortened
// (xerial/jdbc).
func (s Spec) Aliases() []string { return s.aliases(catalog()) }

func (s Spec) aliases(all []Spec) []string {
	var out []string
	if s.Driver != s.Name && !slices.ContainsFunc(all, func(o Spec) bool {
		return o.Name == s.Driver || (o.Driver == s.Driver && o.Name != s.Name)
	}) {
		out = append(out, s.Driver)
	}
	return append(out, s.Driver+"/"+s.API, "driver="+s.Driver+"/api="+s.API)
}

// Names returns every target name, sorted.
func Names() []string {
	var names []string
	for _, s := range catalog() {
		names = append(names, s.Name)
	}
	sort.Strings(names)
	return names
}

// Select returns the targets named in list (comma-separated names) that speak
// one of dbs, or every target of dbs but the protocol floors (Floor) when
// list is empty. An unknown name is an error that lists the valid ones.
func Select(list string, dbs []bench.DB) ([]Spec, error) {
	wantDB := map[bench.DB]bool{}
	for _, d := range dbs {
		wantDB[d] = true
	}
	var out []Spec
	if strings.TrimSpace(list) == "" {
		for _, s := range catalog() {
			if wantDB[s.DB] && !s.Floor {
				out = append(out, s)
			}
		}
		return out, nil
	}
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		s, ok := Lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown target %q (valid: %s)", name, strings.Join(Names(), ", "))
		}
		if !wantDB[s.DB] {
			return nil, fmt.Errorf("target %q speaks %s, which is not among the selected databases", name, s.DB)
		}
		if !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// protoFloorWorkloads are the workloads the protocol floors run: the
// classic family's calls of SQL text without arguments (SimpleDo on
// MariaDB only).
func protoFloorWorkloads() []string {
	return []string{"SimpleQuery", "SimpleQueryRow", "SimpleExec", "SimpleDo"}
}

// poolWorkloads lists the pool family's workloads (workloads/pool.go), the
// only ones the pgxpool target runs: its pool has no statement prepared
// across connections, and the other families measure pgx through pgx.Conn.
func poolWorkloads() []string {
	var ids []string
	for _, size := range []int{4, 64} {
		for _, n := range []int{1, 4, 16, 64} {
			ids = append(ids, fmt.Sprintf("PoolQuery/pool=%d/clients=%d", size, n))
		}
	}
	return ids
}

// refuseAll refuses every workload of ids for reason.
func refuseAll(ids []string, reason string) map[string]string {
	m := make(map[string]string, len(ids))
	for _, id := range ids {
		m[id] = reason
	}
	return m
}

// Reasons the catalogue gives for refusing workloads.
const (
	goMySQLPool = "its pool is sqlbench's own fixed set of connections, not go-mysql's client.Pool: no pool of the " +
		"driver's to measure"
	bvincParams = "its SQLite 3.28 allows 999 parameters a statement (32766 since 3.32); 100 rows of 16 columns are " +
		"1,600"
	pgjdbcBytes = "pgjdbc binds a byte[] (setBytes) as bytea, which PostgreSQL refuses for the TEXT columns"
)
