// Package redact hides passwords in database DSNs and command lines so that
// they never appear in results, reports, logs or error messages.
//
// DSN understands the DSN forms used by the Go SQL drivers that sqlbench
// benchmarks: URLs (postgres://, mysql://, ...), the go-sql-driver/mysql form
// user:password@net(addr)/dbname, libpq key/value strings, and the mymysql
// form tcp:addr*dbname/user/password. Anything else, such as a SQLite file
// path, is returned unchanged unless it contains a password=value pair.
//
// Redaction errs on the side of hiding too much: when a DSN is malformed the
// replaced span may be longer than the password, but the password is never
// kept.
package redact

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// Mask is the text that replaces a password.
const Mask = "xxxxx"

const (
	// maxPasses bounds how often DSN reapplies redaction while looking for a
	// fixed point.
	maxPasses = 8
	// maxDepth bounds recursion into the values of key/value DSNs.
	maxDepth = 4
)

var (
	// urlScheme matches the scheme of a URL DSN, allowing leading spaces.
	urlScheme = regexp.MustCompile(`^\s*[A-Za-z][A-Za-z0-9+.-]*://`)
	// keyValueStart matches the first key of a libpq key/value DSN.
	keyValueStart = regexp.MustCompile(`^\s*[A-Za-z_][A-Za-z0-9_.-]*\s*=`)
	// myMySQLPrefix matches the protocol part of a mymysql DSN.
	myMySQLPrefix = regexp.MustCompile(`^(?:tcp|unix):[^*]*\*`)
	// mysqlNetAddr matches net(addr) in a go-sql-driver/mysql DSN.
	mysqlNetAddr = regexp.MustCompile(`^[A-Za-z0-9_]*\(.*\)$`)
	// mysqlNet matches the net part of a go-sql-driver/mysql DSN that has
	// no '/': net, net(addr), and the malformed net(addr with no ')' and
	// net(addr)dbname, which the driver rejects but a user may type.
	mysqlNet = regexp.MustCompile(`^[A-Za-z0-9_]*(?:\(.*)?$`)
	// mysqlAnonymous matches the start of a go-sql-driver/mysql DSN with no
	// user information: net(.
	mysqlAnonymous = regexp.MustCompile(`^[A-Za-z0-9_]*\(`)
	// mysqlNetStart matches what follows the user information of a
	// go-sql-driver/mysql DSN, malformed or not: a net, net(addr) or
	// host:port, up to a '(' or '/' or the end.
	mysqlNetStart = regexp.MustCompile(`^[A-Za-z0-9_.:\[\]-]*(?:[(/]|$)`)
	// serverURLScheme matches the schemes of URL DSNs that server drivers
	// take; "user://..." is otherwise a go-sql-driver/mysql DSN whose
	// password starts with "//".
	serverURLScheme = regexp.MustCompile(`(?i)^\s*(?:postgres|postgresql|mysql|mariadb)://`)
	// secretPair finds a password key followed by '=' anywhere in a string.
	secretPair = regexp.MustCompile(`(?i)(?:^|[\s;&?,])(?:[a-z0-9_.-]*password|passwd|pwd|pass)\s*=\s*`)
)

// DSN returns dsn with every password it contains replaced by Mask.
//
// It handles URLs (user:password@ in the authority and password= query
// parameters), go-sql-driver/mysql DSNs (the password runs from the first ':'
// to the last '@' before the last '/', as the driver parses it), libpq
// key/value strings (quoted or not, with spaces around '='), mymysql DSNs
// (everything after the second '/' following the '*'), and password=value
// pairs in any other string. Values of key/value pairs such as
// "mariadb=user:pw@tcp(host)/db" are redacted as DSNs too. A DSN without a
// password, such as a SQLite file path, is returned unchanged.
//
// DSN is idempotent: DSN(DSN(s)) == DSN(s). If redaction does not settle, the
// whole DSN is replaced by Mask.
func DSN(dsn string) string {
	s := dsn
	for range maxPasses {
		next := redactOnce(s, 0)
		if next == s {
			return s
		}
		s = next
	}
	return Mask
}

// ServerDSN returns dsn, which is known to be the DSN of a database server
// (the value of --dsn or of $SQLBENCH_MYSQL_DSN, say), with its password
// hidden whatever its shape, malformed ones included.
//
// A libpq key/value string, a mymysql DSN, a postgres://, postgresql://,
// mysql:// or mariadb:// URL, and a well-formed go-sql-driver/mysql DSN
// (user:password@net(addr)/dbname) are redacted as DSN does. Anything else is
// taken for a go-sql-driver/mysql DSN the driver may reject, and everything
// that could be its password is hidden: from the first ':' to the last '@'
// followed by a net, net(addr) or host:port or, when there is no such '@'
// (as in "user:password"), from the first ':' to the end, unless the ':' belongs to a net(addr) with no user information
// before it. This hides too much of some malformed DSNs, never too little
// of the shapes above; a DSN without a password is returned unchanged.
func ServerDSN(dsn string) string {
	switch {
	case keyValueStart.MatchString(dsn), myMySQLPrefix.MatchString(dsn):
		return DSN(dsn)
	case serverURLScheme.MatchString(dsn):
		// "user:@..." with a later '@': a raw password starting with
		// '@' that the URL rules, reading a raw '?' as the query, took
		// for empty. Hide up to the last '@'.
		loc := serverURLScheme.FindStringIndex(dsn)
		rest := dsn[loc[1]:]
		if c := strings.IndexByte(rest, ':'); c >= 0 && c+1 < len(rest) && rest[c+1] == '@' && !strings.Contains(rest[:c], "/") {
			if last := strings.LastIndexByte(rest, '@'); last > c+1 {
				return DSN(replace(dsn, loc[1]+c+1, loc[1]+last))
			}
		}
		return DSN(dsn)
	}
	if _, ok := redactMySQL(dsn, true); ok {
		return DSN(dsn)
	}
	if at := userinfoAt(dsn); at >= 0 {
		if colon := strings.IndexByte(dsn[:at], ':'); colon >= 0 {
			if colon+1 == at {
				// "user:@x": an empty password, or one that starts
				// with '@'; hide all of it.
				return replace(dsn, colon+1, len(dsn))
			}
			return DSN(replace(dsn, colon+1, at))
		}
		return DSN(dsn)
	}
	if colon := strings.IndexByte(dsn, ':'); colon >= 0 && !mysqlAnonymous.MatchString(dsn[:colon]) {
		return replace(dsn, colon+1, len(dsn))
	}
	return DSN(dsn)
}

// userinfoAt returns the index of the last '@' in s that a net, net(addr)
// or host:port follows (up to a '(' or '/' or the end), or -1 if there is
// none: the '@' that ends the user information of a malformed
// go-sql-driver/mysql DSN.
func userinfoAt(s string) int {
	for at := strings.LastIndexByte(s, '@'); at >= 0; at = strings.LastIndexByte(s[:at], '@') {
		if mysqlNetStart.MatchString(s[at+1:]) {
			return at
		}
	}
	return -1
}

// String returns s with every occurrence of each non-empty secret replaced
// by Mask. Percent-encoded forms of the secrets, as they appear in URLs, are
// replaced as well. Longer secrets are replaced first, so a secret that
// contains another is hidden completely.
func String(s string, secrets ...string) string {
	seen := make(map[string]bool)
	var olds []string
	for _, sec := range secrets {
		if sec == "" {
			continue
		}
		for _, v := range []string{sec, url.QueryEscape(sec), url.PathEscape(sec)} {
			if !seen[v] {
				seen[v] = true
				olds = append(olds, v)
			}
		}
	}
	if len(olds) == 0 {
		return s
	}
	sort.SliceStable(olds, func(i, j int) bool { return len(olds[i]) > len(olds[j]) })
	pairs := make([]string, 0, 2*len(olds))
	for _, o := range olds {
		pairs = append(pairs, o, Mask)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// Args returns a copy of a command line with the DSNs in it redacted.
//
// The value of a DSN flag (-dsn or --dsn, or any flag whose name ends in
// "dsn", given as "-dsn X" or "-dsn=X") is always treated as a DSN; a value
// of the form name=DSN, such as mariadb=user:pw@tcp(host)/db, has its DSN
// part redacted. Every other argument and flag value is redacted when it
// looks like a DSN that contains a password. Flag names are kept.
func Args(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	dsnNext := false
	onlyValues := false
	for i, a := range args {
		switch {
		case dsnNext:
			dsnNext = false
			out[i] = dsnValue(a)
		case onlyValues:
			out[i] = value(a)
		case a == "--":
			onlyValues = true
			out[i] = a
		case len(a) > 1 && a[0] == '-':
			body := strings.TrimPrefix(a[1:], "-")
			dashes := a[:len(a)-len(body)]
			name, val, hasValue := strings.Cut(body, "=")
			switch {
			case hasValue && isDSNFlag(name):
				out[i] = dashes + name + "=" + dsnValue(val)
			case hasValue:
				out[i] = dashes + name + "=" + value(val)
			case isDSNFlag(name):
				dsnNext = true
				out[i] = a
			default:
				out[i] = a
			}
		default:
			out[i] = value(a)
		}
	}
	return out
}

// isDSNFlag reports whether a flag name denotes a DSN.
func isDSNFlag(name string) bool {
	return strings.HasSuffix(strings.ToLower(name), "dsn")
}

// value redacts a command-line value that may be a DSN or a name=DSN pair.
func value(v string) string {
	if name, rest, ok := strings.Cut(v, "="); ok && isName(name) && !isSecretKey(name) {
		v = name + "=" + DSN(rest)
	}
	return DSN(v)
}

// dsnValue redacts the value of a DSN flag, a server DSN or a name=DSN pair
// such as mariadb=user:pw@tcp(host)/db (see ServerDSN).
func dsnValue(v string) string {
	if name, rest, ok := strings.Cut(v, "="); ok && isName(name) && !isSecretKey(name) {
		return name + "=" + ServerDSN(rest)
	}
	return ServerDSN(v)
}

// isName reports whether s is a plain identifier such as a database name.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isAlnum(c) || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// redactOnce applies one round of redaction to s. depth counts recursion
// into key/value values.
func redactOnce(s string, depth int) string {
	if keyValueStart.MatchString(s) {
		// A name=DSN pair whose DSN may hold spaces in its password, such
		// as mariadb=user:p w@tcp(host)/db, is redacted as a whole first.
		if name, rest, _ := strings.Cut(s, "="); isName(name) && !isSecretKey(name) {
			if out, ok := redactSpaced(rest); ok {
				s = name + "=" + out
			}
		}
		return redactKeyValue(s, depth)
	}
	if out, ok := redactMyMySQL(s); ok {
		return out
	}
	// A net(addr) part is unambiguous, so the mysql form is tried before
	// URLs: a password may itself start with "//".
	if out, ok := redactMySQL(s, true); ok {
		return redactPairs(out)
	}
	if out, ok := redactURL(s); ok {
		return redactPairs(out)
	}
	if out, ok := redactMySQL(s, false); ok {
		return redactPairs(out)
	}
	return redactPairs(s)
}

// redactSpaced redacts s if it has one of the DSN forms that do not use
// spaces as separators, so that a space belongs to the password: mymysql,
// go-sql-driver/mysql with net(addr), or a URL. It reports whether s has one
// of those forms.
func redactSpaced(s string) (string, bool) {
	if out, ok := redactMyMySQL(s); ok {
		return out, true
	}
	if out, ok := redactMySQL(s, true); ok {
		return out, true
	}
	return redactURL(s)
}

// isSecretKey reports whether a parameter name holds a password.
func isSecretKey(key string) bool {
	k := strings.ToLower(strings.TrimSpace(key))
	switch k {
	case "pass", "passwd", "pwd":
		return true
	}
	return strings.HasSuffix(k, "password")
}

// redactMyMySQL redacts a mymysql DSN, [tcp:addr*|unix:path*]dbname/user/password.
// Like the driver it takes everything after the second '/' as the password.
// It reports whether s has that form.
func redactMyMySQL(s string) (string, bool) {
	loc := myMySQLPrefix.FindStringIndex(s)
	if loc == nil {
		return s, false
	}
	rest := s[loc[1]:]
	db, afterDB, ok := strings.Cut(rest, "/")
	if !ok {
		return s, false
	}
	user, pw, ok := strings.Cut(afterDB, "/")
	if !ok {
		return s, false
	}
	if pw == "" {
		return s, true
	}
	start := loc[1] + len(db) + 1 + len(user) + 1
	return s[:start] + Mask, true
}

// redactMySQL redacts a go-sql-driver/mysql DSN,
// [user[:password]@][net[(addr)]]/dbname[?params]. Like the driver it splits
// the database name off at the last '/', the user information at the last
// '@' before it, and the password at the first ':' of the user information.
// With strict set the net part must include (addr). It reports whether s has
// that form.
func redactMySQL(s string, strict bool) (string, bool) {
	slash := strings.LastIndexByte(s, '/')
	pre := s
	if slash >= 0 {
		pre = s[:slash]
	}
	at := strings.LastIndexByte(pre, '@')
	if at < 0 {
		return s, false
	}
	net := pre[at+1:]
	switch {
	case strict && !mysqlNetAddr.MatchString(net):
		return s, false
	case slash < 0 && !mysqlNet.MatchString(net):
		return s, false
	}
	userinfo := pre[:at]
	colon := strings.IndexByte(userinfo, ':')
	if colon < 0 {
		return s, !strings.ContainsAny(userinfo, `/\`)
	}
	if strings.ContainsAny(userinfo[:colon], `/\`) {
		return s, false
	}
	return replace(s, colon+1, at), true
}

// replace returns s with s[i:j] replaced by Mask, or s itself when the span
// is empty.
func replace(s string, i, j int) string {
	if i >= j {
		return s
	}
	return s[:i] + Mask + s[j:]
}

// redactURL redacts the password in the user information and in secret
// query parameters of a URL DSN. It reports whether s is a URL.
func redactURL(s string) (string, bool) {
	loc := urlScheme.FindStringIndex(s)
	if loc == nil {
		return s, false
	}
	head, rest := s[:loc[1]], s[loc[1]:]
	at := userinfoEnd(rest)
	if at >= 0 {
		colon := strings.IndexByte(rest[:at], ':')
		if colon >= 0 && colon+1 < at && !strings.Contains(rest[:colon], "/") {
			rest = rest[:colon+1] + Mask + rest[at:]
			at = colon + 1 + len(Mask)
		}
	}
	if q := strings.IndexByte(rest[at+1:], '?'); q >= 0 {
		q += at + 1
		rest = rest[:q+1] + redactQuery(rest[q+1:])
	}
	return head + rest, true
}

// userinfoEnd returns the index of the '@' that ends the user information of
// rest, the part of a URL after "://", or -1 if there is none.
//
// That is the last '@' before the query. Should the password itself contain
// a raw '?', the '@' after it is accepted unless what lies between looks like
// a port followed by a query, as in host:5432?user=a@b.
func userinfoEnd(rest string) int {
	q := strings.IndexByte(rest, '?')
	if q < 0 {
		return strings.LastIndexByte(rest, '@')
	}
	if at := strings.LastIndexByte(rest[:q], '@'); at >= 0 {
		return at
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return -1
	}
	colon := strings.IndexByte(rest[:at], ':')
	if colon < 0 || colon > q {
		return -1
	}
	user := rest[:colon]
	if strings.Contains(user, "/") || strings.HasPrefix(user, "[") {
		return -1
	}
	if strings.ContainsAny(rest[q:at], "=&") && allDigits(rest[colon+1:q]) {
		return -1
	}
	return at
}

// allDigits reports whether s consists of ASCII digits only (true for "").
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// redactQuery redacts the values of secret parameters in a URL query (the
// part after '?'). A value ends at the next '&' that starts another key=value
// parameter, so a raw '&' inside a password does not end it.
func redactQuery(q string) string {
	var b strings.Builder
	i := 0
	for {
		end := len(q)
		if amp := strings.IndexByte(q[i:], '&'); amp >= 0 {
			end = i + amp
		}
		if eq := strings.IndexByte(q[i:end], '='); eq >= 0 && isSecretKey(unescape(q[i:i+eq])) {
			vstart := i + eq + 1
			vend := urlValueEnd(q, vstart)
			b.WriteString(q[i:vstart])
			if vstart < vend {
				b.WriteString(Mask)
			}
			end = vend
		} else {
			b.WriteString(q[i:end])
		}
		if end >= len(q) {
			return b.String()
		}
		b.WriteByte('&')
		i = end + 1
	}
}

// unescape decodes a URL query key, or returns it unchanged if it is not
// valid.
func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// urlValueEnd returns where the query value starting at q[i] ends.
func urlValueEnd(q string, i int) int {
	for j := i; j < len(q); j++ {
		if q[j] == '&' && startsKey(q[j+1:], false) {
			return j
		}
	}
	return len(q)
}

// startsKey reports whether s starts with a parameter name followed by '='.
// With spaces set, leading spaces and spaces inside the name are allowed, as
// in "; User ID=".
func startsKey(s string, spaces bool) bool {
	i := 0
	if spaces {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	start := i
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '=':
			return i > start
		case isAlnum(c) || c == '_' || c == '.' || c == '-' || c == '%' || c == '+':
		case spaces && c == ' ':
		default:
			return false
		}
	}
	return false
}

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isSpace reports whether c is white space as libpq sees it.
func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

// redactKeyValue redacts a libpq key/value DSN such as
// "host=h user=u password='se cret'". It follows libpq's parser: spaces may
// surround '=', a value is either single-quoted or runs to the next space,
// and a backslash escapes the next character. Unquoted values of other keys
// are redacted as DSNs in their own right, which covers name=DSN pairs.
func redactKeyValue(s string, depth int) string {
	var b strings.Builder
	i := 0
	for i < len(s) {
		if isSpace(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		k := i
		for i < len(s) && s[i] != '=' && !isSpace(s[i]) {
			i++
		}
		key := s[k:i]
		j := i
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		if j >= len(s) || s[j] != '=' {
			// A word without '=': libpq rejects it; keep it and go on.
			b.WriteString(key)
			continue
		}
		j++
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		end := libpqValueEnd(s, j)
		val := s[j:end]
		b.WriteString(s[k:j])
		switch {
		case val == "":
		case isSecretKey(key):
			b.WriteString(Mask)
		case val[0] != '\'' && depth < maxDepth:
			b.WriteString(redactOnce(val, depth+1))
		default:
			b.WriteString(val)
		}
		i = end
	}
	return b.String()
}

// libpqValueEnd returns where the libpq value starting at s[i] ends.
func libpqValueEnd(s string, i int) int {
	if i < len(s) && s[i] == '\'' {
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '\'':
				return j + 1
			}
		}
		return len(s)
	}
	for j := i; j < len(s); j++ {
		switch {
		case s[j] == '\\':
			j++
		case isSpace(s[j]):
			return j
		}
	}
	return len(s)
}

// redactPairs redacts the value of every password=value pair in s whose key
// starts s or follows a space or one of ";&?,". A value may be quoted with '
// or "; otherwise it ends at a space or at a ';' or '&' that starts another
// key=value pair.
func redactPairs(s string) string {
	locs := secretPair.FindAllStringIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	done := 0
	for _, loc := range locs {
		if loc[0] < done {
			continue // inside a value already redacted
		}
		start := loc[1]
		end := pairValueEnd(s, start)
		b.WriteString(s[done:start])
		if start < end {
			b.WriteString(Mask)
		}
		done = end
	}
	b.WriteString(s[done:])
	return b.String()
}

// pairValueEnd returns where the value of a password=value pair starting at
// s[i] ends.
func pairValueEnd(s string, i int) int {
	if i < len(s) && (s[i] == '\'' || s[i] == '"') {
		quote := s[i]
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case quote:
				return j + 1
			}
		}
		return len(s)
	}
	for j := i; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\':
			j++
		case isSpace(c):
			return j
		case c == ';' && startsKey(s[j+1:], true), c == '&' && startsKey(s[j+1:], false):
			return j
		}
	}
	return len(s)
}
