package servertest_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/internal/servers"
	"github.com/sqlbench/sqlbench/internal/testenv"
	"github.com/sqlbench/sqlbench/targets"

	_ "github.com/sqlbench/sqlbench/targets/gomysql"
	_ "github.com/sqlbench/sqlbench/targets/mymysql"
	_ "github.com/sqlbench/sqlbench/targets/mysql"
	_ "github.com/sqlbench/sqlbench/targets/mysqlproto"
	_ "github.com/sqlbench/sqlbench/targets/pgproto"
	_ "github.com/sqlbench/sqlbench/targets/pgx"
	_ "github.com/sqlbench/sqlbench/targets/pq"
)

// noTLS are the Go server targets whose driver has no TLS client: they
// refuse an endpoint that asks for TLS.
var noTLS = map[string]bool{"mymysql": true, "mymysql-native": true}

// TestTargetsConnectOverTLS starts each server with TLS and checks, from
// the server's own view of the session (pg_stat_ssl, MariaDB's
// Ssl_version/Ssl_cipher), that every Go target's connection is encrypted
// when its endpoint asks for TLS verified against the server's certificate,
// that it is plain when it does not, and that a certificate from another CA
// fails verification.
func TestTargetsConnectOverTLS(t *testing.T) {
	other := otherCA(t)
	for _, kind := range []servers.Kind{servers.KindMariaDB, servers.KindPostgres} {
		t.Run(string(kind), func(t *testing.T) {
			testenv.Need(t, "a "+string(kind)+" server", servers.Installed(kind))
			srv, err := servers.Start(context.Background(),
				servers.Options{Kind: kind, Profile: servers.ProfileFast, TLS: true})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Stop()
			e, err := srv.Endpoint("tcp")
			if err != nil {
				t.Fatal(err)
			}
			plain := e.Bench()
			verified := plain
			verified.TLS, verified.CA = bench.TLSVerify, srv.TLSCert
			wrongCA := verified
			wrongCA.CA = other
			q := servers.TLSStatusQuery(kind)
			v, c, err := srv.TLSStatus(context.Background())
			if err != nil || !strings.HasPrefix(v, "TLS") || c == "" {
				t.Fatalf("server's TLS status = %q %q, %v", v, c, err)
			}
			for _, spec := range targets.All() {
				if spec.DB != bench.DB(kind) || spec.Group == "" || strings.HasPrefix(spec.Group, "jdbc") {
					continue
				}
				open, ok := bench.LookupOpener(spec.Opener())
				if !ok {
					continue // a target of another runner
				}
				t.Run(spec.Name, func(t *testing.T) {
					if noTLS[spec.Name] {
						if _, _, err := status(open, verified, q); err == nil ||
							!strings.Contains(err.Error(), "no TLS") {
							t.Errorf("asked for TLS: %v, want a refusal naming it", err)
						}
						return
					}
					v, c, err := status(open, verified, q)
					if err != nil {
						t.Fatalf("over TLS: %v", err)
					}
					if !strings.HasPrefix(v, "TLS") || c == "" {
						t.Errorf("over TLS the server sees version %q cipher %q", v, c)
					}
					t.Logf("%s: %s %s", spec.Name, v, c)
					if v, c, err := status(open, plain, q); err != nil || v != "" || c != "" {
						t.Errorf("plain: version %q cipher %q, %v; want a plain session", v, c, err)
					}
					if _, _, err := status(open, wrongCA, q); err == nil {
						t.Errorf("verified against another CA: connected, want a verification failure")
					}
				})
			}
		})
	}
}

// status opens a target at e and reads the TLS status of its session.
func status(open bench.Opener, e bench.Endpoint, q string) (version, cipher string, err error) {
	conn, err := open(context.Background(), bench.Config{DB: bench.DB(""), Server: e})
	if err != nil {
		return "", "", err
	}
	defer conn.Close()
	err = conn.QueryRow(q, func(r bench.Row) error { return r.Scan(&version, &cipher) })
	return version, cipher, err
}

// otherCA writes a self-signed certificate for 127.0.0.1 that is not the
// server's: a CA the connection must not verify against.
func otherCA(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "other-ca.pem")
	if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
