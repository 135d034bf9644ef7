package dsn

import (
	"net/url"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/redact"
)

// shape assembles a DSN of one form from its parts; db is the database
// whose driver parses it.
type shape struct {
	name  string
	db    bench.DB
	build func(user, pw, host, tail string) string
}

// libpqQuote quotes s as a libpq value.
func libpqQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// libpqEscape escapes s as an unquoted libpq value.
func libpqEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `'`, `\'`, " ", `\ `, "\t", `\	`, "\n", "\\\n", "\r", "\\\r", "\v", "\\\v",
		"\f", "\\\f").Replace(s)
}

// shapes are the DSN forms the fuzz test assembles, well-formed and
// malformed: a user may type any of them into --dsn or $SQLBENCH_*_DSN.
var shapes = []shape{
	{"mysql user:password", bench.MariaDB, func(u, p, h, t string) string { return u + ":" + p }},
	{"mysql unclosed (", bench.MariaDB, func(u, p, h, t string) string { return u + ":" + p + "@tcp(" + h + ":3306" }},
	{"mysql no slash", bench.MariaDB,
		func(u, p, h, t string) string { return u + ":" + p + "@tcp(" + h + ":3306)" + t }},
	{"mysql", bench.MariaDB, func(u, p, h, t string) string { return u + ":" + p + "@tcp(" + h + ":3306)/" + t }},
	{"mysql unclosed ( with slash", bench.MariaDB,
		func(u, p, h, t string) string { return u + ":" + p + "@tcp(" + h + ":3306/" + t }},
	{"mysql host:port", bench.MariaDB, func(u, p, h, t string) string { return u + ":" + p + "@" + h + ":3306/" + t }},
	{"mysql unix", bench.MariaDB,
		func(u, p, h, t string) string { return u + ":" + p + "@unix(/run/" + h + ".sock)/" + t }},
	{"mysql url", bench.MariaDB,
		func(u, p, h, t string) string { return "mysql://" + u + ":" + p + "@" + h + "/" + t }},
	{"postgres url escaped", bench.Postgres, func(u, p, h, t string) string {
		return "postgres://" + url.UserPassword(u, p).String() + "@" + h + "/" + t
	}},
	{"postgres url raw", bench.Postgres,
		func(u, p, h, t string) string { return "postgresql://" + u + ":" + p + "@" + h + ":5432/" + t }},
	{"postgres url query", bench.Postgres, func(u, p, h, t string) string {
		return "postgres://" + h + "/db?user=" + u + "&password=" + url.QueryEscape(p) + "&" + t
	}},
	{"libpq quoted", bench.Postgres, func(u, p, h, t string) string {
		return "host=" + h + " user=" + u + " password=" + libpqQuote(p) + " " + t
	}},
	{"libpq escaped", bench.Postgres, func(u, p, h, t string) string {
		return "host=" + h + " user=" + u + " password = " + libpqEscape(p) + " " + t
	}},
	{"libpq unclosed quote", bench.Postgres, func(u, p, h, t string) string {
		return "host=" + h + " user=" + u + " password='" + strings.NewReplacer(`\`, "", `'`, "").Replace(p)
	}},
}

// plainName reports whether s is a user or host name that needs no
// escaping in any DSN form, so that where the password ends is not in
// question.
func plainName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// canary stands in for the password in a DSN of the same shape, to tell
// a password that leaked from one that is text the output holds anyway.
const canary = "Q7canaryQ7"

// shown returns what a user sees of dsn: its redaction and the error of
// Parse.
func shown(db bench.DB, dsn string) string {
	out, err := redact.DSN(db, dsn)
	if _, perr := Parse(db, dsn); perr != nil {
		out += "\n" + perr.Error()
	} else if err != nil {
		out += "\n" + err.Error()
	}
	return out
}

// checkHidden fails t if the password pw of a DSN assembled by each shape
// from user, pw, host and tail shows in its redaction or in Parse's error.
func checkHidden(t *testing.T, user, pw, host, tail string) {
	// DSNs are short; long inputs only slow the fuzzer down.
	if !plainName(user) || !plainName(host) || len(pw) < 4 || len(pw)+len(tail) > 256 || strings.Contains(pw, canary) {
		return
	}
	for _, sh := range shapes {
		if strings.HasSuffix(sh.name, "url") || strings.HasSuffix(sh.name, "url raw") {
			// A raw '?' or '#' in a URL starts the query or fragment:
			// where such a password ends is anybody's guess (the URL
			// shapes with escapes cover every password).
			if strings.ContainsAny(pw, "?#") {
				continue
			}
		}
		dsn := sh.build(user, pw, host, tail)
		ref := sh.build(user, canary, host, tail)
		if strings.Contains(ref, pw) {
			continue // the password is also elsewhere in the DSN
		}
		if strings.Contains(shown(sh.db, ref), pw) {
			continue // the output holds that text whatever the password
		}
		if got := shown(sh.db, dsn); strings.Contains(got, pw) {
			t.Errorf("%s: DSN %q: the password %q shows in\n%s", sh.name, dsn, pw, got)
		}
	}
}

func TestParseHidesPasswordOfMalformedDSNs(t *testing.T) {
	for _, c := range []struct {
		db  bench.DB
		dsn string
	}{
		{bench.MariaDB, "bench:Canary16"},
		{bench.MariaDB, "bench:Canary16@tcp(127.0.0.1:3306"},
		{bench.MariaDB, "bench:Canary16@tcp(127.0.0.1:3306)bench"},
		{bench.MariaDB, "bench:Canary16@tcp(127.0.0.1:3306)/"},
		{bench.MariaDB, "bench:Can/ary16%zz@tcp(127.0.0.1:3306"},
		{bench.Postgres, "postgres://bench:Canary16@127.0.0.1:x/db"},
		{bench.Postgres, "postgres://bench:Can%zzary16@127.0.0.1/db"},
		{bench.Postgres, "host=127.0.0.1 password='Canary16"},
		{bench.Postgres, "password=Canary16 port=x"},
	} {
		_, err := Parse(c.db, c.dsn)
		if err == nil {
			t.Errorf("Parse(%s, %q) accepted it", c.db, c.dsn)
			continue
		}
		if strings.Contains(err.Error(), "Canary16") || strings.Contains(err.Error(), "ary16") {
			t.Errorf("Parse(%s, %q): the error shows the password: %v", c.db, c.dsn, err)
		}
		// A DSN the driver rejects is not shown, one it reads is shown
		// with its password masked.
		if !strings.HasPrefix(err.Error(), "bad "+string(c.db)+" DSN: ") && !strings.Contains(err.Error(), "xxxxx") {
			t.Errorf("Parse(%s, %q): want the driver's reason or the redacted DSN, got %v", c.db, c.dsn, err)
		}
	}
}

func FuzzParseHidesPassword(f *testing.F) {
	f.Add("bench", "Canary16", "127.0.0.1", "bench")
	f.Add("bench", "Canary11", "localhost", "bench?parseTime=true")
	f.Add("root", "p@ss/w:rd(", "db.example.com", "")
	f.Add("bench", "//x@y", "127.0.0.1", "db?x=a@b")
	f.Add("bench", "se cret'\\", "h", "sslmode=disable")
	f.Add("u", "a%zzbcd", "h", "db?timeout=a%zzbcd")
	f.Add("u", "p?w#d@x", "h", "db?sslmode=disable&password=")
	f.Add("u", "pw)bench", "h", ")bench")
	f.Add("u", "abc'def", "h", "dbname='x")
	f.Add("u", "%41%42CD", "[::1", "db")
	f.Fuzz(checkHidden)
}
