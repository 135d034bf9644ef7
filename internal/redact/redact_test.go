package redact

import (
	"math/rand"
	"net/url"
	"slices"
	"strings"
	"testing"
)

var dsnTests = []struct {
	name, in, want string
}{
	// URLs.
	{"url postgres", "postgres://user:secret@host:5432/db?sslmode=disable", "postgres://user:xxxxx@host:5432/db?sslmode=disable"},
	{"url mysql", "mysql://u:p@h/db", "mysql://u:xxxxx@h/db"},
	{"url no password", "postgres://user@host/db", "postgres://user@host/db"},
	{"url empty password", "postgres://user:@host/db", "postgres://user:@host/db"},
	{"url no userinfo", "postgres://host:5432/db?sslmode=disable", "postgres://host:5432/db?sslmode=disable"},
	{"url only password", "redis://:secret@host:6379/0", "redis://:xxxxx@host:6379/0"},
	{"url escaped password", "postgres://u:p%40ss%2Fw@h/db", "postgres://u:xxxxx@h/db"},
	{"url raw @ in password", "postgres://u:p@ss@h/db", "postgres://u:xxxxx@h/db"},
	{"url raw / and # in password", "postgres://u:a/b#c@h:1/db?x=1", "postgres://u:xxxxx@h:1/db?x=1"},
	{"url raw ? in password", "postgres://u:a?b@h/db?sslmode=disable", "postgres://u:xxxxx@h/db?sslmode=disable"},
	{"url @ in query", "postgres://u:p@h/db?application_name=a@b", "postgres://u:xxxxx@h/db?application_name=a@b"},
	{"url port then query with @", "postgres://localhost:5432?user=me@corp", "postgres://localhost:5432?user=me@corp"},
	{"url ipv6", "postgres://u:pw@[::1]:5432/db", "postgres://u:xxxxx@[::1]:5432/db"},
	{"url password param", "postgres://host/db?user=u&password=secret&sslmode=disable", "postgres://host/db?user=u&password=xxxxx&sslmode=disable"},
	{"url password param first", "postgres://host/db?password=secret", "postgres://host/db?password=xxxxx"},
	{"url password param with &", "postgres://host/db?password=a&b&sslmode=disable", "postgres://host/db?password=xxxxx&sslmode=disable"},
	{"url password param upper", "sqlserver://h?database=d&Password=s3", "sqlserver://h?database=d&Password=xxxxx"},
	{"url password param empty", "postgres://host/db?password=&x=1", "postgres://host/db?password=&x=1"},
	{"url both", "postgres://u:a@h/db?sslpassword=b", "postgres://u:xxxxx@h/db?sslpassword=xxxxx"},
	{"url file", "file:///tmp/bench.db?mode=rwc", "file:///tmp/bench.db?mode=rwc"},
	{"url leading space", " postgres://u:p@h/db", " postgres://u:xxxxx@h/db"},

	// go-sql-driver/mysql.
	{"mysql tcp", "user:secret@tcp(127.0.0.1:3306)/db?parseTime=true", "user:xxxxx@tcp(127.0.0.1:3306)/db?parseTime=true"},
	{"mysql unix", "user:secret@unix(/tmp/s.sock)/db", "user:xxxxx@unix(/tmp/s.sock)/db"},
	{"mysql no password", "user@tcp(127.0.0.1:3306)/db", "user@tcp(127.0.0.1:3306)/db"},
	{"mysql empty password", "user:@tcp(127.0.0.1:3306)/db", "user:@tcp(127.0.0.1:3306)/db"},
	{"mysql password with colon", "user:se:cr:et@tcp(h:3306)/db", "user:xxxxx@tcp(h:3306)/db"},
	{"mysql password with @", "user:p@ss@w@rd@tcp(h:3306)/db", "user:xxxxx@tcp(h:3306)/db"},
	{"mysql password with /", "user:a/b@c@tcp(h)/db?loc=UTC", "user:xxxxx@tcp(h)/db?loc=UTC"},
	{"mysql password starting //", "user://x@tcp(h)/db", "user:xxxxx@tcp(h)/db"},
	{"mysql default net", "user:secret@/db", "user:xxxxx@/db"},
	{"mysql net without addr", "user:secret@tcp/db", "user:xxxxx@tcp/db"},
	{"mysql host without net", "user:secret@localhost:3306/db", "user:xxxxx@localhost:3306/db"},
	{"mysql no slash", "user:secret@tcp(h:3306)", "user:xxxxx@tcp(h:3306)"},
	{"mysql password param", "user@tcp(h)/db?password=s&x=1", "user@tcp(h)/db?password=xxxxx&x=1"},
	{"mysql anonymous", "tcp(127.0.0.1:3306)/db", "tcp(127.0.0.1:3306)/db"},
	{"mysql unclosed (", "bench:Canary11@tcp(127.0.0.1:3306", "bench:xxxxx@tcp(127.0.0.1:3306"},
	{"mysql no slash before dbname", "bench:Canary11@tcp(127.0.0.1:3306)bench", "bench:xxxxx@tcp(127.0.0.1:3306)bench"},
	{"mysql unclosed ( with slash", "bench:Canary11@tcp(127.0.0.1:3306/bench", "bench:xxxxx@tcp(127.0.0.1:3306/bench"},

	// libpq key/value.
	{"kv", "host=127.0.0.1 user=bench password=secret dbname=x", "host=127.0.0.1 user=bench password=xxxxx dbname=x"},
	{"kv quoted", "host=h password='se cret' dbname=x", "host=h password=xxxxx dbname=x"},
	{"kv quoted escapes", `password='it\'s a \\ test' user=u`, `password=xxxxx user=u`},
	{"kv unquoted escapes", `user=u password=se\ cret dbname=x`, `user=u password=xxxxx dbname=x`},
	{"kv spaces around =", "host=h password = secret dbname=x", "host=h password = xxxxx dbname=x"},
	{"kv space after =", "host=h password= secret", "host=h password= xxxxx"},
	{"kv space before =", "host=h password =secret", "host=h password =xxxxx"},
	{"kv tabs", "host=h\tpassword\t=\tsecret\tdbname=x", "host=h\tpassword\t=\txxxxx\tdbname=x"},
	{"kv first", "password=secret host=h", "password=xxxxx host=h"},
	{"kv empty password", "host=h password='' dbname=x", "host=h password=xxxxx dbname=x"},
	{"kv no password", "host=/tmp user=bench dbname=x sslmode=disable", "host=/tmp user=bench dbname=x sslmode=disable"},
	{"kv password in other quoted value", "host=h options='-c password=x'", "host=h options='-c password=x'"},
	{"kv unterminated quote", "host=h password='abc", "host=h password=xxxxx"},
	{"kv sslpassword", "sslkey=/k sslpassword=s", "sslkey=/k sslpassword=xxxxx"},
	{"kv name=mysql pair", "mariadb=user:pw@tcp(127.0.0.1:3306)/db", "mariadb=user:xxxxx@tcp(127.0.0.1:3306)/db"},
	{"kv name=url pair", "pg=postgres://u:pw@h/db", "pg=postgres://u:xxxxx@h/db"},
	{"kv name=kv pair", "pg=password=pw host=h", "pg=password=xxxxx host=h"},
	{"ado", "server=h;user id=u;password=s3;database=d", "server=h;user id=u;password=xxxxx;database=d"},

	// mymysql.
	{"mymysql", "tcp:127.0.0.1:3306*dbname/user/password", "tcp:127.0.0.1:3306*dbname/user/xxxxx"},
	{"mymysql unix", "unix:/var/run/mysqld/mysqld.sock*db/u/p", "unix:/var/run/mysqld/mysqld.sock*db/u/xxxxx"},
	{"mymysql options", "tcp:h:3306,old_passwords*db/u/p", "tcp:h:3306,old_passwords*db/u/xxxxx"},
	{"mymysql slash in password", "tcp:h:3306*db/u/a/b", "tcp:h:3306*db/u/xxxxx"},
	{"mymysql no password", "tcp:h:3306*db/u/", "tcp:h:3306*db/u/"},

	// Not DSNs with passwords.
	{"empty", "", ""},
	{"sqlite path", "/tmp/sqlbench/bench.db", "/tmp/sqlbench/bench.db"},
	{"sqlite relative path", "results/x/bench.db", "results/x/bench.db"},
	{"sqlite memory", ":memory:", ":memory:"},
	{"sqlite uri", "file:bench.db?cache=shared&mode=memory", "file:bench.db?cache=shared&mode=memory"},
	{"sqlite path with @", "/home/me/bench@2/x.db", "/home/me/bench@2/x.db"},
	{"sqlite path with : and @", "/data/a:b@c/x.db", "/data/a:b@c/x.db"},
	{"word", "sqlite", "sqlite"},
	{"mask", Mask, Mask},
}

func TestDSN(t *testing.T) {
	for _, tt := range dsnTests {
		t.Run(tt.name, func(t *testing.T) {
			got := DSN(tt.in)
			if got != tt.want {
				t.Errorf("DSN(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := DSN(got); again != got {
				t.Errorf("DSN(DSN(%q)) = %q, want %q", tt.in, again, got)
			}
		})
	}
}

// randomPassword returns a password of 8 to 23 characters drawn from chars.
func randomPassword(r *rand.Rand, chars string) string {
	b := make([]byte, 8+r.Intn(16))
	for i := range b {
		b[i] = chars[r.Intn(len(chars))]
	}
	return string(b)
}

// printable is every printable ASCII character, space included.
const printable = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"

// without returns chars with the characters of drop removed.
func without(chars, drop string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(drop, r) {
			return -1
		}
		return r
	}, chars)
}

// libpqQuote quotes s as a libpq value.
func libpqQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// libpqEscape escapes s as an unquoted libpq value.
func libpqEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `'`, `\'`, " ", `\ `).Replace(s)
}

func TestDSNHidesRandomPasswords(t *testing.T) {
	forms := []struct {
		name  string
		chars string
		// build returns a DSN holding pw and the forms of pw that must not
		// appear in the redacted DSN.
		build func(pw string) (string, []string)
	}{
		{"url escaped", printable, func(pw string) (string, []string) {
			u := url.UserPassword("bench", pw).String()
			_, enc, _ := strings.Cut(u, ":")
			return "postgres://" + u + "@127.0.0.1:5432/bench?sslmode=disable", []string{pw, enc}
		}},
		{"url raw", without(printable, " ?"), func(pw string) (string, []string) {
			return "mysql://bench:" + pw + "@db.example.com:3306/bench", []string{pw}
		}},
		{"url query", without(printable, " "), func(pw string) (string, []string) {
			enc := url.QueryEscape(pw)
			return "postgres://127.0.0.1/bench?user=bench&password=" + enc + "&sslmode=disable", []string{pw, enc}
		}},
		{"mysql tcp", printable, func(pw string) (string, []string) {
			return "bench:" + pw + "@tcp(127.0.0.1:3306)/bench?parseTime=true", []string{pw}
		}},
		{"mysql unix", printable, func(pw string) (string, []string) {
			return "root:" + pw + "@unix(/run/mysqld/mysqld.sock)/bench", []string{pw}
		}},
		{"libpq quoted", printable, func(pw string) (string, []string) {
			q := libpqQuote(pw)
			return "host=127.0.0.1 port=5432 user=bench password=" + q + " dbname=bench", []string{pw, q}
		}},
		{"libpq escaped", printable, func(pw string) (string, []string) {
			e := libpqEscape(pw)
			if strings.HasPrefix(e, `\'`) || !strings.HasPrefix(e, "'") {
				return "user=bench password = " + e + " sslmode=disable", []string{pw, e}
			}
			return "user=bench password = " + libpqQuote(pw) + " sslmode=disable", []string{pw}
		}},
		{"mymysql", printable, func(pw string) (string, []string) {
			return "tcp:127.0.0.1:3306*bench/bench/" + pw, []string{pw}
		}},
		{"name=mysql pair", printable, func(pw string) (string, []string) {
			return "mariadb=bench:" + pw + "@tcp(127.0.0.1:3306)/bench", []string{pw}
		}},
	}
	r := rand.New(rand.NewSource(1))
	for _, f := range forms {
		for range 2000 {
			pw := randomPassword(r, f.chars)
			dsn, secrets := f.build(pw)
			got := DSN(dsn)
			for _, s := range secrets {
				if strings.Contains(got, s) {
					t.Errorf("%s: DSN(%q) = %q still holds %q", f.name, dsn, got, s)
				}
			}
			if !strings.Contains(got, Mask) {
				t.Errorf("%s: DSN(%q) = %q has no mask", f.name, dsn, got)
			}
		}
	}
}

func TestServerDSN(t *testing.T) {
	tests := []struct{ in, want string }{
		// The malformed shapes of the issue.
		{"bench:Canary16", "bench:xxxxx"},
		{"bench:Canary11@tcp(127.0.0.1:3306", "bench:xxxxx@tcp(127.0.0.1:3306"},
		{"bench:Canary11@tcp(127.0.0.1:3306)bench", "bench:xxxxx@tcp(127.0.0.1:3306)bench"},
		// A password holding '/' and '@' where the DSN has no /dbname.
		{"bench:a@b/c@tcp(127.0.0.1:3306", "bench:xxxxx@tcp(127.0.0.1:3306"},
		// A password starting with "//" is no URL.
		{"bench://x@tcp(127.0.0.1:3306", "bench:xxxxx@tcp(127.0.0.1:3306"},
		{"bench:Can/ary", "bench:xxxxx"},
		// Well-formed DSNs are redacted as DSN does.
		{"bench:pw@tcp(127.0.0.1:3306)/bench?x=a@b", "bench:xxxxx@tcp(127.0.0.1:3306)/bench?x=a@b"},
		{"postgres://u:pw@h/db?sslmode=disable", "postgres://u:xxxxx@h/db?sslmode=disable"},
		{"host=h password='pw", "host=h password=xxxxx"},
		{"tcp:h:3306*db/u/pw", "tcp:h:3306*db/u/xxxxx"},
		// Nothing to hide.
		{"tcp(127.0.0.1:3306)/bench", "tcp(127.0.0.1:3306)/bench"},
		{"bench@tcp(127.0.0.1:3306", "bench@tcp(127.0.0.1:3306"},
		{"bench", "bench"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := ServerDSN(tt.in); got != tt.want {
			t.Errorf("ServerDSN(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := ServerDSN(tt.want); got != tt.want {
			t.Errorf("ServerDSN(%q) = %q, want it unchanged", tt.want, got)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		s       string
		secrets []string
		want    string
	}{
		{"dial: password secret rejected", []string{"secret"}, "dial: password xxxxx rejected"},
		{"a secret, another secret", []string{"secret"}, "a xxxxx, another xxxxx"},
		{"no secrets here", nil, "no secrets here"},
		{"empty secret is ignored", []string{""}, "empty secret is ignored"},
		{"abcdef then abc", []string{"abc", "abcdef"}, "xxxxx then xxxxx"},
		{"u:p%40ss@h", []string{"p@ss"}, "u:xxxxx@h"},
		{"x and y", []string{"x", "y"}, "xxxxx and xxxxx"},
	}
	for _, tt := range tests {
		if got := String(tt.s, tt.secrets...); got != tt.want {
			t.Errorf("String(%q, %q) = %q, want %q", tt.s, tt.secrets, got, tt.want)
		}
	}
}

func TestArgs(t *testing.T) {
	tests := []struct {
		name     string
		in, want []string
	}{
		{"nil", nil, nil},
		{
			"dsn separate",
			[]string{"sqlbench", "run", "--dsn", "user:pw@tcp(127.0.0.1:3306)/db", "-db", "mariadb"},
			[]string{"sqlbench", "run", "--dsn", "user:xxxxx@tcp(127.0.0.1:3306)/db", "-db", "mariadb"},
		},
		{
			"dsn equals",
			[]string{"run", "--dsn=postgres://u:pw@h/db", "-dsn=user:pw@/db"},
			[]string{"run", "--dsn=postgres://u:xxxxx@h/db", "-dsn=user:xxxxx@/db"},
		},
		{
			"dsn pairs",
			[]string{"run", "-dsn", "mariadb=user:pw@tcp(127.0.0.1:3306)/db", "--dsn=postgres=host=h password=pw dbname=d"},
			[]string{"run", "-dsn", "mariadb=user:xxxxx@tcp(127.0.0.1:3306)/db", "--dsn=postgres=host=h password=xxxxx dbname=d"},
		},
		{
			"dsn pair libpq first key",
			[]string{"--dsn", "pg=password=pw host=h"},
			[]string{"--dsn", "pg=password=xxxxx host=h"},
		},
		{
			"dsn value starting with dash",
			[]string{"--dsn", "-weird:pw@tcp(h)/db"},
			[]string{"--dsn", "-weird:xxxxx@tcp(h)/db"},
		},
		{
			"other dsn flag",
			[]string{"--pg-dsn", "postgres://u:pw@h/db"},
			[]string{"--pg-dsn", "postgres://u:xxxxx@h/db"},
		},
		{
			"positional dsn",
			[]string{"connect", "postgres://u:pw@h/db", "host=h password=pw"},
			[]string{"connect", "postgres://u:xxxxx@h/db", "host=h password=xxxxx"},
		},
		{
			"other flag value",
			[]string{"-target=mysql://u:pw@h/db", "-count=5", "-o", "results/out.txt"},
			[]string{"-target=mysql://u:xxxxx@h/db", "-count=5", "-o", "results/out.txt"},
		},
		{
			"after terminator",
			[]string{"--", "--dsn=u:pw@tcp(h)/db"},
			[]string{"--", "--dsn=u:xxxxx@tcp(h)/db"},
		},
		{
			"nothing to hide",
			[]string{"sqlbench", "run", "-db", "sqlite", "-quick", "-workloads", "insert,select", "/tmp/x.db", "-"},
			[]string{"sqlbench", "run", "-db", "sqlite", "-quick", "-workloads", "insert,select", "/tmp/x.db", "-"},
		},
		{"dangling dsn flag", []string{"--dsn"}, []string{"--dsn"}},
		{
			"malformed dsn values",
			[]string{"--dsn", "mariadb=bench:s3cret", "--dsn=mariadb=bench:s3cret@tcp(127.0.0.1:3306"},
			[]string{"--dsn", "mariadb=bench:xxxxx", "--dsn=mariadb=bench:xxxxx@tcp(127.0.0.1:3306"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.in)
			got := Args(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Args(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if !slices.Equal(tt.in, in) {
				t.Errorf("Args modified its argument: %q", tt.in)
			}
		})
	}
}

func TestArgsCopies(t *testing.T) {
	in := []string{"run", "-db", "sqlite"}
	out := Args(in)
	out[0] = "changed"
	if in[0] != "run" {
		t.Errorf("Args returned its argument, not a copy")
	}
}

func FuzzDSN(f *testing.F) {
	for _, tt := range dsnTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := DSN(s)
		// The passes must settle rather than fall back to masking
		// everything.
		settled := false
		for x, i := s, 0; i < maxPasses && !settled; i++ {
			next := redactOnce(x, 0)
			settled = next == x
			x = next
		}
		if !settled {
			t.Errorf("redaction of %q does not settle", s)
		}
		if again := DSN(got); again != got {
			t.Errorf("DSN not idempotent:\n   in %q\n  got %q\nagain %q", s, got, again)
		}
	})
}
