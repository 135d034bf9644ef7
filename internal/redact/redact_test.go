package redact

import (
	"math/rand"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

var dsnTests = []struct {
	name string
	db   bench.DB
	in   string
	want string // "" for a DSN the driver rejects
}{
	// URLs.
	{"url postgres", bench.Postgres, "postgres://user:secret@host:5432/db?sslmode=disable",
		"postgres://user:xxxxx@host:5432/db?sslmode=disable"},
	{"url no password", bench.Postgres, "postgres://user@host/db", "postgres://user@host/db"},
	{"url escaped password", bench.Postgres, "postgres://u:p%40ss%2Fw@h/db", "postgres://u:xxxxx@h/db"},
	{"url raw @ in password", bench.Postgres, "postgres://u:p@ss@h/db", "postgres://u:xxxxx@h/db"},
	{"url @ in query", bench.Postgres, "postgres://u:p@h/db?application_name=a%40b",
		"postgres://u:xxxxx@h/db?application_name=a%40b"},
	{"url raw @ in query", bench.Postgres, "postgres://h/db?user=me@corp", ""},
	{"url raw / in password", bench.Postgres, "postgresql://bench:/M0d@127.0.0.1:5432/bench", ""},
	{"url raw ? in password", bench.Postgres, "postgresql://bench:4?h-@0XbT@127.0.0.1:5432/bench", ""},
	{"url ipv6", bench.Postgres, "postgres://u:pw@[::1]:5432/db", "postgres://u:xxxxx@[::1]:5432/db"},
	{"url password param", bench.Postgres, "postgres://host/db?user=u&password=secret&sslmode=disable",
		"postgres://host/db?user=u&password=xxxxx&sslmode=disable"},
	{"url escaped password key", bench.Postgres, "postgres://host/db?user=u&pass%77ord=secret", ""},
	{"url both", bench.Postgres, "postgresql://u:a@h/db?sslpassword=b", "postgresql://u:xxxxx@h/db?sslpassword=xxxxx"},
	{"url raw space", bench.Postgres, "postgres://u:s3cr etpw@127.0.0.1/db", ""},
	{"url bad escape", bench.Postgres, "postgres://u:s3cretpw%zz@127.0.0.1/db", ""},

	// go-sql-driver/mysql: the driver's own formatting.
	{"mysql tcp", bench.MariaDB, "user:secret@tcp(127.0.0.1:3306)/db?parseTime=true",
		"user:xxxxx@tcp(127.0.0.1:3306)/db?parseTime=true"},
	{"mysql unix", bench.MariaDB, "user:secret@unix(/tmp/s.sock)/db", "user:xxxxx@unix(/tmp/s.sock)/db"},
	{"mysql no password", bench.MariaDB, "user@tcp(127.0.0.1:3306)/db", "user@tcp(127.0.0.1:3306)/db"},
	{"mysql password with colon", bench.MariaDB, "user:se:cr:et@tcp(h:3306)/db", "user:xxxxx@tcp(h:3306)/db"},
	{"mysql password with @", bench.MariaDB, "user:p@ss@w@rd@tcp(h:3306)/db", "user:xxxxx@tcp(h:3306)/db"},
	{"mysql password with /", bench.MariaDB, "user:a/b@c@tcp(h)/db?loc=UTC", "user:xxxxx@tcp(h:3306)/db"},
	{"mysql password parameter", bench.MariaDB, "u@tcp(h:1)/db?old_password=s3cret",
		"u@tcp(h:1)/db?old_password=xxxxx"},
	{"mysql default net", bench.MariaDB, "user:secret@/db", "user:xxxxx@tcp(127.0.0.1:3306)/db"},
	{"mysql unclosed (", bench.MariaDB, "bench:Canary11@tcp(127.0.0.1:3306", ""},
	{"mysql no slash before dbname", bench.MariaDB, "bench:Canary11@tcp(127.0.0.1:3306)bench", ""},
	{"mysql user:password", bench.MariaDB, "bench:Canary16", ""},
	{"mysql user:password/", bench.MariaDB, "bench:Can/ary", ""},
	{"mysql bad param", bench.MariaDB, "u:pw@tcp(h)/db?parseTime=Canary16", ""},

	// libpq keyword/value: what pgconn read, in a fixed order.
	{"kv", bench.Postgres, "host=127.0.0.1 port=5432 user=bench password=secret dbname=x sslmode=disable",
		"host=127.0.0.1 port=5432 user=bench password=xxxxx dbname=x sslmode=disable"},
	{"kv quoted", bench.Postgres, "host=/tmp port=1 user=u password='se cret' dbname='a b' sslmode=disable " +
		"application_name=x",
		"host=/tmp port=1 user=u password='xxxxx' dbname='a b' sslmode=disable application_name=x"},
	{"kv escapes", bench.Postgres, `host=h port=1 user=u password=se\ cr\'et dbname=d sslmode=disable`,
		"host=h port=1 user=u password=xxxxx dbname=d sslmode=disable"},
	{"kv spaces around =", bench.Postgres, "host=h password = s3cret dbname=d", "host=h password=xxxxx dbname=d"},
	{"kv unterminated quote", bench.Postgres, "host=h password='abc", ""},

	// File names.
	{"sqlite path", bench.SQLite, "/home/me/a:b@c/x.db", "/home/me/a:b@c/x.db"},
}

func TestDSN(t *testing.T) {
	for _, tt := range dsnTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DSN(tt.db, tt.in)
			if tt.want == "" {
				if err == nil || got != "" {
					t.Errorf("DSN(%s, %q) = %q, %v; want an error and no DSN", tt.db, tt.in, got, err)
				}
				return
			}
			if got != tt.want || err != nil {
				t.Errorf("DSN(%s, %q)\n got %q, %v\nwant %q", tt.db, tt.in, got, err, tt.want)
			}
			if again, _ := DSN(tt.db, got); again != got {
				t.Errorf("DSN(DSN(%q)) = %q, want %q", tt.in, again, got)
			}
		})
	}
}

// printable is every printable ASCII character, space included.
const printable = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"

// shapes assemble DSNs, well-formed and malformed, around a password.
var shapes = []struct {
	name  string
	db    bench.DB
	build func(pw string) string
	// quoted is set for a shape that holds pw where no password goes:
	// only the driver's reason for rejecting it must hide pw.
	quoted bool
}{
	{"url escaped", bench.Postgres, func(pw string) string {
		return "postgres://" + url.UserPassword("bench", pw).String() + "@127.0.0.1:5432/bench?sslmode=disable"
	}, false},
	{"url raw", bench.Postgres, func(pw string) string { return "postgresql://bench:" + pw + "@127.0.0.1:5432/bench" },
		false},
	{"url query", bench.Postgres, func(pw string) string {
		return "postgres://127.0.0.1/bench?user=bench&password=" + url.QueryEscape(pw) + "&sslmode=disable"
	}, false},
	{"libpq quoted", bench.Postgres, func(pw string) string {
		return "host=127.0.0.1 user=bench password='" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(pw) +
			"' dbname=bench"
	}, false},
	{"libpq raw", bench.Postgres,
		func(pw string) string { return "host=127.0.0.1 user=bench password=" + pw + " dbname=bench" }, false},
	{"mysql tcp", bench.MariaDB,
		func(pw string) string { return "bench:" + pw + "@tcp(127.0.0.1:3306)/bench?parseTime=true" }, false},
	{"mysql unix", bench.MariaDB,
		func(pw string) string { return "root:" + pw + "@unix(/run/mysqld/mysqld.sock)/bench" }, false},
	{"mysql user:password", bench.MariaDB, func(pw string) string { return "bench:" + pw }, false},
	{"mysql unclosed (", bench.MariaDB, func(pw string) string { return "bench:" + pw + "@tcp(127.0.0.1:3306" }, false},
	{"mysql in a parameter", bench.MariaDB, func(pw string) string {
		return "bench:pw@tcp(127.0.0.1:3306)/bench?" +
			"parseTime=" + pw
	}, true},
	{"mysql in the dbname", bench.MariaDB, func(pw string) string { return "bench:pw@tcp(127.0.0.1:3306)/" + pw },
		true},
	{"postgres in a parameter", bench.Postgres, func(pw string) string {
		return "postgres://bench:pw@127.0.0.1/bench?" +
			"connect_timeout=" + pw
	}, true},
}

// checkHidden fails t if pw shows in what DSN gives for the DSN of shape i
// around pw, its redaction or its error.
func checkHidden(t *testing.T, i int, pw string) {
	sh := shapes[i]
	dsn := sh.build(pw)
	if len(pw) < 3 || strings.Contains(Mask, pw) || strings.Count(dsn, pw) > 1 ||
		strings.Contains(sh.build("\x00"), pw) {
		return // too short to tell, or also elsewhere in the DSN
	}
	got, err := shown(sh.db, dsn)
	if err == nil && sh.quoted {
		return
	}
	for _, canary := range []string{"Q7canaryQ7", `Q7 c'a"n\a%zz Q7`, "Q7/c?a#n@a:r(y)Q7"} {
		if ref, _ := shown(sh.db, sh.build(canary)); strings.Contains(ref, pw) {
			return // the driver's own words, whatever the password
		}
	}
	if leaks(got, pw) {
		t.Errorf("%s: DSN(%q) shows the password: %q", sh.name, dsn, got)
	}
}

// leaks reports whether pw shows in got other than across a Mask (a
// password "x  " is not shown by "password=xxxxx  ").
func leaks(got, pw string) bool {
	masked := make([]bool, len(got))
	for i := strings.Index(got, Mask); i >= 0; i = nextIndex(got, Mask, i) {
		for k := range len(Mask) {
			masked[i+k] = true
		}
	}
	for i := strings.Index(got, pw); i >= 0; i = nextIndex(got, pw, i) {
		if !slices.Contains(masked[i:i+len(pw)], true) {
			return true
		}
	}
	return false
}

// nextIndex is the index of the next s in text after the one at i, or -1.
func nextIndex(text, s string, i int) int {
	if j := strings.Index(text[i+1:], s); j >= 0 {
		return i + 1 + j
	}
	return -1
}

// shown is what the user sees of dsn: its redaction or the error.
func shown(db bench.DB, dsn string) (string, error) {
	got, err := DSN(db, dsn)
	if err != nil {
		return err.Error(), err
	}
	return got, nil
}

func TestDSNHidesRandomPasswords(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := range shapes {
		for range 2000 {
			b := make([]byte, 4+r.Intn(20))
			for j := range b {
				b[j] = printable[r.Intn(len(printable))]
			}
			checkHidden(t, i, string(b))
		}
	}
}

func FuzzDSN(f *testing.F) {
	for i := range shapes {
		f.Add(i, "Canary16")
		f.Add(i, `a"b\c'd e`)
	}
	f.Fuzz(func(t *testing.T, i int, pw string) {
		if i >= 0 && i < len(shapes) && len(pw) <= 64 {
			checkHidden(t, i, pw)
		}
	})
}

func TestReasonHidesQuotedParts(t *testing.T) {
	for _, c := range []struct{ err, dsn, want string }{
		{`invalid dbname "s3cr\"et": bad`, `u:p@tcp(h)/s3cr"et`, "invalid dbname xxxxx: bad"},
		{"invalid bool value: s3cret", "u:p@tcp(h)/db?x=s3cret", "invalid bool value: xxxxx"},
		{"default addr for network 'x' unknown", "u:p@x(h)/db", "default addr for network xxxxx unknown"},
		{"invalid DSN: missing the slash separating the database name", "bench:Canary16",
			"invalid DSN: missing the slash separating the database name"},
	} {
		if got := Reason(errorString(c.err), c.dsn).Error(); got != c.want {
			t.Errorf("Reason(%q, %q) = %q, want %q", c.err, c.dsn, got, c.want)
		}
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

func TestText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"sqlbench run --db postgres --dsn postgres=postgres://bench:hunter2secret@127.0.0.1:5432/bench",
			"sqlbench run --db postgres --dsn postgres=postgres://bench:xxxxx@127.0.0.1:5432/bench"},
		{"run --dsn=mariadb=u:pw@tcp(127.0.0.1:3306)/db -o x.txt",
			"run --dsn=mariadb=u:xxxxx@tcp(127.0.0.1:3306)/db -o x.txt"},
		{"host=h password=pw dbname=d", "host=h password=xxxxx dbname=d"},
		{"host=h password='se cr et' dbname=d", "host=h password='xxxxx' dbname=d"},
		{`host=h password='it\' s' dbname=d`, "host=h password='xxxxx' dbname=d"},
		{"host=h password='x' dbname=d", "host=h password='xxxxx' dbname=d"},
		{"host=h password='unterminated dbname=d", "host=h password='xxxxx"},
		{"Intel(R) Xeon(R) CPU @ 2.20GHz", "Intel(R) Xeon(R) CPU @ 2.20GHz"},
		{"/home/me/a:b@c/x.db results/x/bench.db", "/home/me/a:b@c/x.db results/x/bench.db"},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// FuzzDSNSettles: what DSN shows is a DSN its driver reads back to the
// same thing (the mask for a password), so showing is idempotent.
func FuzzDSNSettles(f *testing.F) {
	for _, tt := range dsnTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, db := range []bench.DB{bench.MariaDB, bench.Postgres} {
			if got, err := DSN(db, s); err == nil {
				if again, err := DSN(db, got); again != got || err != nil {
					t.Errorf("%s: DSN(%q) = %q, and again %q, %v", db, s, got, again, err)
				}
			}
		}
	})
}

// TestDSNWithThePasswordInTheEnvironment: pgconn takes a DSN without a
// password from $PGPASSWORD; that the DSN's text holds the same word (the
// user postgres, say) is no password left unmasked.
func TestDSNWithThePasswordInTheEnvironment(t *testing.T) {
	t.Setenv("PGPASSWORD", "postgres")
	const in = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	if got, err := DSN(bench.Postgres, in); got != in || err != nil {
		t.Errorf("DSN(%q) with $PGPASSWORD = %q, %v; want it as given", in, got, err)
	}
}
