// Package redact keeps passwords out of what sqlbench prints and records.
//
// Secrets and Writer mask known secrets (the passwords of a session's
// databases) in text and in streams of text, whatever splits them. A DSN
// is read by its driver's own parser (go-sql-driver/mysql, pgconn) and
// shown with Mask for its password; one the driver rejects is never shown,
// only the driver's reason with what it quotes of the DSN hidden.
package redact

import (
	"errors"
	"net"
	"os"
	"regexp"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlbench/sqlbench/bench"
)

// passwordField is a field NAME=VALUE whose name ends in "password", its
// value read as libpq reads it: in '...' up to the closing quote (kept
// around the mask), or up to a space, a backslash escaping what follows.
var passwordField = regexp.MustCompile(`(?is)(\S*password)\s*=\s*(?:(')(?:[^'\\]|\\.)*('?)|(?:[^\s\\]|\\.?)+)`)

// pgURL is the start of a DSN pgconn reads as a URL.
var pgURL = regexp.MustCompile(`^postgres(ql)?://`)

// urlPassword is the password of a URL's user information (up to the last
// '@' before its path), or of its password or sslpassword parameter.
var urlPassword = regexp.MustCompile(`^(postgres(?:ql)?://[^:@/?#]*:)[^/?#]*(@)|([?&](?:ssl)?password=)[^&]*`)

// DSN returns dsn, a DSN for db's driver, with Mask for its passwords:
// go-sql-driver/mysql's own formatting of what it read, or as given with
// the password fields pgconn reads masked. Other databases take file names,
// returned as they are. A DSN the driver rejects gives its reason only (see
// Reason), as does one it may read otherwise than its writer meant: a
// MariaDB address other than tcp host:port or unix, a URL with '@' after
// its user information or with a '#'.
func DSN(db bench.DB, dsn string) (string, error) {
	if db == bench.MariaDB {
		cfg, err := mysql.ParseDSN(dsn)
		if err != nil {
			return "", Reason(err, dsn)
		} else if _, _, err := net.SplitHostPort(cfg.Addr); cfg.Net != "unix" && (cfg.Net != "tcp" || err != nil) {
			return "", errors.New("the network is not tcp or unix, or the address not host:port")
		}
		cfg.Passwd = strings.Repeat(Mask, min(len(cfg.Passwd), 1)) // and a system variable *password:
		return passwordField.ReplaceAllString(cfg.FormatDSN(), "${1}=${2}"+Mask+"${3}"), nil
	} else if db != bench.Postgres {
		return dsn, nil
	}
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return "", Reason(err, dsn)
	}
	shown := passwordField.ReplaceAllString(dsn, "${1}=${2}"+Mask+"${3}")
	if _, rest, _ := strings.Cut(dsn, "://"); pgURL.MatchString(dsn) {
		if i := strings.IndexAny(rest, "/?#"); i >= 0 && strings.ContainsAny(rest[i:], "@#") {
			return "", errors.New("an '@' or '#' outside the user information (escape them as %40 and %23)")
		}
		shown = urlPassword.ReplaceAllString(dsn, "${1}${3}"+Mask+"${2}")
	}
	// A password where no rule above looks (not one from $PGPASSWORD).
	if p := cfg.Password; len(p) >= 3 && p != os.Getenv("PGPASSWORD") && Secrets(shown, p) != shown {
		return "", errors.New("the password is written where sqlbench cannot mask it")
	}
	return shown, nil
}

// Reason returns err, a driver's error for dsn, with Mask for every part of
// it that may quote dsn: the DSN pgconn quotes first, each quoted span
// ("...", `...`, '...') and each run of 3 or more characters found in dsn
// from a word's start to a word's end.
func Reason(err error, dsn string) error {
	msg := err.Error()
	if pe := (*pgconn.ParseConfigError)(nil); errors.As(err, &pe) {
		_, msg, _ = strings.Cut(msg, "`: ") // "cannot parse `DSN`: reason"
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		c, n := msg[i], 0
		if strings.IndexByte("\"`'", c) >= 0 && (c != '\'' || i == 0 || msg[i-1] == ' ') {
			for n = 1; i+n < len(msg) && msg[i+n] != c; n++ { // to the closing quote
				n += strings.Count(msg[i+n:i+n+1], "\\") // an escaped quote does not close
			}
			n = max(3, n+1)
		} else if edge(msg, i) { // from a word's start to a word's end, so in dsn too
			for i+n < len(msg) && strings.Contains(dsn, msg[i:i+n+1]) {
				n++
			}
			for n > 0 && !(edge(msg, i+n) && inWords(dsn, msg[i:i+n])) {
				n--
			}
		}
		if n < 3 {
			n, _ = 1, b.WriteByte(c)
		} else {
			b.WriteString(Mask)
		}
		i += n
	}
	return errors.New(b.String())
}

// inWords reports whether w is in s from a word's start to a word's end.
func inWords(s, w string) bool {
	for i := 0; i <= len(s)-len(w); i++ {
		if strings.HasPrefix(s[i:], w) && edge(s, i) && edge(s, i+len(w)) {
			return true
		}
	}
	return false
}

// edge reports whether a word starts or ends at s[i] (letters and digits).
func edge(s string, i int) bool {
	alnum := func(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }
	return i == 0 || i == len(s) || !alnum(s[i-1]) || !alnum(s[i])
}

// Text returns s (a configuration line of a results file sqlbench did not
// write, say) with Mask for the value of each field PASSWORD=VALUE and for
// the password of each space-separated field, or part after a field's '=',
// that go-sql-driver/mysql or (a postgres:// URL) pgconn reads as a DSN.
func Text(s string) string {
	masked := func(s string) string {
		db := map[bool]bench.DB{false: bench.MariaDB, true: bench.Postgres}[pgURL.MatchString(s)]
		if shown, err := DSN(db, s); err == nil && strings.Contains(shown, Mask) {
			return shown
		}
		return s
	}
	fields := strings.Split(passwordField.ReplaceAllString(s, "${1}=${2}"+Mask+"${3}"), " ")
	for i, f := range fields {
		name, val, ok := strings.Cut(f, "=")
		if fields[i] = masked(f); fields[i] == f && ok {
			fields[i] = name + "=" + masked(val)
		}
	}
	return strings.Join(fields, " ")
}
