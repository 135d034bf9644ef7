// Package pgdsn writes PostgreSQL keyword/value connection strings, which
// libpq, lib/pq and pgx all read: a bench.Endpoint as one (ConnString), and
// one value quoted for one (Quote).
package pgdsn

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// socketPrefix is how PostgreSQL names its socket file: <dir>/.s.PGSQL.<port>.
const socketPrefix = ".s.PGSQL."

// ConnString returns e as "host=... port=... user=... password=... dbname=...
// sslmode=disable". A unix endpoint's socket file gives the host (its
// directory) and the port (its suffix). An endpoint with TLS gets
// sslmode=require (bench.TLSRequire) or sslmode=verify-full and, when it
// names one, sslrootcert=<CA> (bench.TLSVerify) instead.
func ConnString(e bench.Endpoint) (string, error) {
	var host, port string
	switch e.Net {
	case "tcp":
		i := strings.LastIndex(e.Addr, ":")
		if i < 0 {
			return "", fmt.Errorf("address %q has no port", e.Addr)
		}
		host, port = strings.Trim(e.Addr[:i], "[]"), e.Addr[i+1:]
	case "unix":
		base := filepath.Base(e.Addr)
		if !strings.HasPrefix(base, socketPrefix) {
			return "", fmt.Errorf("socket %q is not named %s<port>", e.Addr, socketPrefix)
		}
		host, port = filepath.Dir(e.Addr), strings.TrimPrefix(base, socketPrefix)
	default:
		return "", fmt.Errorf("unknown transport %q", e.Net)
	}
	mode, root := "disable", ""
	switch e.TLS {
	case bench.TLSOff:
	case bench.TLSRequire:
		mode = "require"
	case bench.TLSVerify:
		mode, root = "verify-full", e.CA
	default:
		return "", fmt.Errorf("unknown TLS mode %q", e.TLS)
	}
	if e.TLS != bench.TLSOff && e.Net != "tcp" {
		return "", bench.ErrTLSOverUnix
	}
	kv := [][2]string{{"host", host}, {"port", port}, {"user", e.User}, {"password", e.Password},
		{"dbname", e.Database}, {"sslmode", mode}, {"sslrootcert", root}}
	parts := make([]string, 0, len(kv))
	for _, p := range kv {
		if p[1] != "" {
			parts = append(parts, p[0]+"="+Quote(p[1]))
		}
	}
	return strings.Join(parts, " "), nil
}

// Quote returns v as the value of a keyword/value connection string: as
// it is, or, when it is empty or holds a space, a quote or a backslash, in
// single quotes with those two escaped by a backslash.
func Quote(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\n\r\f\v'\\") {
		return v
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}
