package pgdsn

import (
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

func TestConnString(t *testing.T) {
	for _, c := range []struct {
		e    bench.Endpoint
		want string
	}{
		{bench.Endpoint{Net: "tcp", Addr: "127.0.0.1:5433", User: "bench", Password: "pw", Database: "bench"},
			"host=127.0.0.1 port=5433 user=bench password=pw dbname=bench sslmode=disable"},
		{bench.Endpoint{Net: "tcp", Addr: "[::1]:5432", User: "u", Password: "it's a pw", Database: "d"},
			`host=::1 port=5432 user=u password='it\'s a pw' dbname=d sslmode=disable`},
		{bench.Endpoint{Net: "unix", Addr: "/tmp/sqb-1/.s.PGSQL.6000", User: "bench", Database: "bench"},
			"host=/tmp/sqb-1 port=6000 user=bench dbname=bench sslmode=disable"},
		{bench.Endpoint{Net: "tcp", Addr: "127.0.0.1:5433", User: "b", Database: "d", TLS: bench.TLSRequire},
			"host=127.0.0.1 port=5433 user=b dbname=d sslmode=require"},
		{bench.Endpoint{Net: "tcp", Addr: "127.0.0.1:5433", User: "b", Database: "d", TLS: bench.TLSVerify,
			CA: "/tmp/a b/ca.pem"},
			"host=127.0.0.1 port=5433 user=b dbname=d sslmode=verify-full sslrootcert='/tmp/a b/ca.pem'"},
	} {
		got, err := ConnString(c.e)
		if err != nil || got != c.want {
			t.Errorf("ConnString(%+v) = %q, %v; want %q", c.e, got, err, c.want)
		}
	}
	for _, e := range []bench.Endpoint{{Net: "tcp", Addr: "nohost"}, {Net: "unix", Addr: "/tmp/mysql.sock"},
		{Net: "udp"},
		{Net: "unix", Addr: "/tmp/sqb-1/.s.PGSQL.6000", TLS: bench.TLSRequire},
		{Net: "tcp", Addr: "127.0.0.1:1", TLS: "maybe"}} {
		if _, err := ConnString(e); err == nil {
			t.Errorf("ConnString(%+v) accepted it", e)
		}
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"bench":        "bench",
		"":             "''",
		"/a dir/it's":  `'/a dir/it\'s'`,
		`back\slash`:   `'back\\slash'`,
		"tab\there":    "'tab\there'",
		"line\nbreak":  "'line\nbreak'",
		"/tmp/sqb-1":   "/tmp/sqb-1",
		"pw=with=sign": "pw=with=sign",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
}
