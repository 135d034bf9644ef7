package dsn

import (
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// TestParseTLS: a user DSN's TLS setting reaches the endpoint, read with
// the driver's own parser; the PostgreSQL default (prefer) stays plain.
func TestParseTLS(t *testing.T) {
	t.Setenv("PGSSLROOTCERT", "")
	for _, c := range []struct {
		db  bench.DB
		dsn string
		tls bench.TLSMode
		ca  string
	}{
		{bench.MariaDB, "u:p@tcp(127.0.0.1:3306)/d", bench.TLSOff, ""},
		{bench.MariaDB, "u:p@tcp(127.0.0.1:3306)/d?tls=true", bench.TLSVerify, ""},
		{bench.MariaDB, "u:p@tcp(127.0.0.1:3306)/d?tls=skip-verify", bench.TLSRequire, ""},
		{bench.MariaDB, "u:p@tcp(127.0.0.1:3306)/d?tls=false", bench.TLSOff, ""},
		{bench.Postgres, "postgres://u:p@127.0.0.1:5432/d", bench.TLSOff, ""},
		{bench.Postgres, "postgres://u:p@127.0.0.1:5432/d?sslmode=prefer", bench.TLSOff, ""},
		{bench.Postgres, "postgres://u:p@127.0.0.1:5432/d?sslmode=disable", bench.TLSOff, ""},
		{bench.Postgres, "postgres://u:p@127.0.0.1:5432/d?sslmode=require", bench.TLSRequire, ""},
		{bench.Postgres, "host=127.0.0.1 port=5432 user=u password=p dbname=d sslmode=require", bench.TLSRequire, ""},
	} {
		e, err := Parse(c.db, c.dsn)
		if err != nil {
			t.Errorf("%s: %v", c.dsn, err)
			continue
		}
		if e.TLS != c.tls || e.CA != c.ca {
			t.Errorf("%s: TLS %q CA %q, want %q %q", c.dsn, e.TLS, e.CA, c.tls, c.ca)
		}
	}
}
