// Package redact keeps passwords out of what sqlbench prints and records.
//
// A DSN is read with its driver's own parser (go-sql-driver/mysql, pgx's
// pgconn) and shown as the driver read it, its password replaced by Mask. A
// DSN the driver rejects is never shown: only the driver's reason, with
// whatever it quotes of the DSN hidden.
package redact

import (
	"errors"
	"maps"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlbench/sqlbench/bench"
)

// Mask is the text that replaces a password.
const Mask = "xxxxx"

// DSN returns dsn, a DSN for db's driver, as that driver reads it with its
// password replaced by Mask (see mysqlDSN, pgURL and pgKeywords). Other
// databases take file names, returned as they are. A DSN the driver
// rejects gives an error with the driver's reason only (see Reason), as
// does one the driver may read otherwise than its writer meant: a MariaDB
// network other than tcp and unix or address other than host:port, a URL
// with '@' after its user information or with a '#' (a password's raw '/',
// '?' or '#' ends it).
func DSN(db bench.DB, dsn string) (string, error) {
	switch db {
	case bench.MariaDB:
		cfg, err := mysql.ParseDSN(dsn)
		if err != nil {
			return "", Reason(err, dsn)
		}
		return mysqlDSN(cfg)
	case bench.Postgres:
		cfg, err := pgconn.ParseConfig(dsn)
		if err != nil {
			return "", Reason(err, dsn)
		}
		if !isURL(dsn) {
			return pgKeywords(cfg), nil
		}
		u, err := url.Parse(dsn)
		if err != nil {
			return "", Reason(err, dsn)
		}
		return pgURL(u, dsn)
	}
	return dsn, nil
}

// mysqlDSN is go-sql-driver/mysql's own formatting of cfg, its password
// and any system variable named *password masked.
func mysqlDSN(cfg *mysql.Config) (string, error) {
	if cfg.Net != "tcp" && cfg.Net != "unix" {
		return "", errors.New("the network is neither tcp nor unix (check the part before the '/')")
	} else if _, _, err := net.SplitHostPort(cfg.Addr); err != nil && cfg.Net == "tcp" {
		return "", errors.New("the address is not host:port")
	}
	if cfg.Passwd != "" {
		cfg.Passwd = Mask
	}
	for k := range cfg.Params { // system variables, passed on as given
		if strings.HasSuffix(strings.ToLower(k), "password") {
			cfg.Params[k] = Mask
		}
	}
	return cfg.FormatDSN(), nil
}

// pgURL is u, the URL dsn, with the password of its user information and
// of its password and sslpassword parameters masked.
func pgURL(u *url.URL, dsn string) (string, error) {
	if strings.Contains(u.Path+u.RawQuery, "@") || strings.Contains(dsn, "#") {
		// Most likely a password with a raw '/', '?' or '#'.
		return "", errors.New("an '@' or '#' outside the user information (escape them as %40 and %23)")
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), Mask)
	}
	if q := u.Query(); q.Has("password") || q.Has("sslpassword") {
		for _, k := range []string{"password", "sslpassword"} {
			if q.Has(k) {
				q.Set(k, Mask)
			}
		}
		u.RawQuery = q.Encode()
	}
	s := u.String()
	if !strings.HasPrefix(s, u.Scheme+"://") { // no host, user or path: the "//" pgconn wants is dropped
		s = u.Scheme + "://" + strings.TrimPrefix(s, u.Scheme+":")
	}
	return s, nil
}

// pgKeywords is cfg as a keyword/value DSN: the hosts and ports, user,
// password (masked), dbname and run-time parameters pgconn read, and
// sslmode=disable when it tries no TLS.
func pgKeywords(cfg *pgconn.Config) string {
	hosts, ports, tls := []string{cfg.Host}, []string{strconv.Itoa(int(cfg.Port))}, cfg.TLSConfig != nil
	for _, fb := range cfg.Fallbacks { // more hosts, and each one's TLS and plain tries
		tls = tls || fb.TLSConfig != nil
		if h, p := fb.Host, strconv.Itoa(int(fb.Port)); h != hosts[len(hosts)-1] || p != ports[len(ports)-1] {
			hosts, ports = append(hosts, h), append(ports, p)
		}
	}
	kv := []string{"host=" + quote(strings.Join(hosts, ",")), "port=" + strings.Join(ports, ",")}
	if cfg.User != "" {
		kv = append(kv, "user="+quote(cfg.User))
	}
	if cfg.Password != "" {
		kv = append(kv, "password="+Mask)
	}
	if cfg.Database != "" {
		kv = append(kv, "dbname="+quote(cfg.Database))
	}
	for _, k := range slices.Sorted(maps.Keys(cfg.RuntimeParams)) {
		kv = append(kv, k+"="+quote(cfg.RuntimeParams[k]))
	}
	if !tls {
		kv = append(kv, "sslmode=disable")
	}
	return strings.Join(kv, " ")
}

// isURL reports whether pgconn reads dsn as a URL.
func isURL(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// quote quotes a libpq keyword/value when it needs it.
func quote(v string) string {
	if v != "" && !strings.ContainsAny(v, " '=\\\t\n\r\v\f") {
		return v
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

// Reason returns err, a driver's error for dsn, with Mask for every part of
// it that may quote dsn: the DSN pgconn quotes first, each quoted span
// ("...", `...`, '...') and each run of 3 or more characters, starting and
// ending at a word's edge, found so in dsn.
func Reason(err error, dsn string) error {
	msg := err.Error()
	if pe := (*pgconn.ParseConfigError)(nil); errors.As(err, &pe) {
		_, msg, _ = strings.Cut(msg, "`: ") // "cannot parse `DSN`: reason"
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		n, c := 0, msg[i]
		quoted := c == '"' || c == '`' || c == '\'' && (i == 0 || msg[i-1] == ' ')
		if quoted {
			for n = 1; i+n < len(msg) && msg[i+n] != c; n++ {
				if msg[i+n] == '\\' {
					n++
				}
			}
			n = min(n+1, len(msg)-i)
		}
		for !quoted && edge(msg, i) && i+n < len(msg) && strings.Contains(dsn, msg[i:i+n+1]) {
			n++
		}
		for !quoted && n > 0 && !(edge(msg, i+n) && inWords(dsn, msg[i:i+n])) {
			n--
		}
		if !quoted && n < 3 {
			b.WriteByte(c)
			i++
			continue
		}
		b.WriteString(Mask)
		i += n
	}
	return errors.New(b.String())
}

// edge reports whether s[i] starts or s[i-1] ends a word (or neither is
// a letter or digit).
func edge(s string, i int) bool {
	return i == 0 || i == len(s) || !alnum(s[i-1]) || !alnum(s[i])
}

// inWords reports whether w is in s where a word starts and one ends.
func inWords(s, w string) bool {
	for off := 0; ; off++ {
		j := strings.Index(s[off:], w)
		if j < 0 {
			return false
		}
		if off += j; edge(s, off) && edge(s, off+len(w)) {
			return true
		}
	}
}

// alnum reports whether c is an ASCII letter or digit.
func alnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// Text returns s, text that may hold DSNs (a configuration line of a
// results file sqlbench did not write, say), with Mask for the value of
// each space-separated field PASSWORD=VALUE (a value in '...' up to its
// closing quote, whatever fields it spans) and for the password of each
// field, or part after the '=' of a field NAME=VALUE, that
// go-sql-driver/mysql or (as a postgres:// URL) pgconn reads as a DSN with
// a password. Text no driver reads is kept: the drivers say what is a DSN.
func Text(s string) string {
	var out []string
	fields := strings.Split(s, " ")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		name, val, ok := strings.Cut(f, "=")
		switch m := masked(f); {
		case ok && strings.HasSuffix(strings.ToLower(name), "password") && val != "":
			for open := val[0] == '\'' && !closes(val[1:]); open && i+1 < len(fields); open = !closes(val) {
				i++
				val = fields[i]
			}
			out = append(out, name+"="+Mask)
		case m != f || !ok:
			out = append(out, m)
		default:
			out = append(out, name+"="+masked(val))
		}
	}
	return strings.Join(out, " ")
}

// closes reports whether a libpq value ends with a quote no backslash
// escapes.
func closes(v string) bool {
	body, ok := strings.CutSuffix(v, "'")
	return ok && (len(body)-len(strings.TrimRight(body, `\`)))%2 == 0
}

// masked returns s redacted if go-sql-driver/mysql or, for a postgres://
// URL, pgconn reads it as a DSN with a password, else s.
func masked(s string) string {
	for _, db := range []bench.DB{bench.MariaDB, bench.Postgres} {
		if db == bench.Postgres && !isURL(s) {
			continue
		}
		if shown, err := DSN(db, s); err == nil && strings.Contains(shown, Mask) {
			return shown
		}
	}
	return s
}
