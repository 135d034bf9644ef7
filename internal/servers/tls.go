package servers

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/pgdsn"
)

// TLS file names in a server's directory.
const (
	tlsCertFile = "server-cert.pem"
	tlsKeyFile  = "server-key.pem"
)

// certLifetime is how long a throwaway server's certificate is valid: a
// server lives for one session (or until `sqlbench server stop`).
const certLifetime = 30 * 24 * time.Hour

// writeCert generates a self-signed ECDSA P-256 certificate for 127.0.0.1
// and localhost (its own CA: clients verify the server against it) and its
// key in dir, both owned by acct, and returns the certificate's path.
func writeCert(dir string, acct *account) (string, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", fmt.Errorf("generate TLS key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return "", fmt.Errorf("generate TLS serial: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "127.0.0.1", Organization: []string{"sqlbench throwaway server"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(certLifetime),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return "", fmt.Errorf("create TLS certificate: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return "", fmt.Errorf("encode TLS key: %w", err)
	}
	cert := filepath.Join(dir, tlsCertFile)
	files := []struct {
		path, typ string
		der       []byte
		mode      os.FileMode
	}{{cert, "CERTIFICATE", der, 0o644}, {filepath.Join(dir, tlsKeyFile), "PRIVATE KEY", keyDER, 0o600}}
	for _, f := range files {
		data := pem.EncodeToMemory(&pem.Block{Type: f.typ, Bytes: f.der})
		if err := os.WriteFile(f.path, data, f.mode); err != nil {
			return "", fmt.Errorf("write %s: %w", f.path, err)
		}
		if err := acct.chown(f.path); err != nil {
			return "", err
		}
	}
	return cert, nil
}

// TLSStatusQuery returns the query that reads, on a connection to a server
// of kind, the TLS protocol version and cipher of that connection's own
// session as one row of two strings, both empty on a plain connection:
// PostgreSQL's pg_stat_ssl, MariaDB's session status Ssl_version and
// Ssl_cipher. It takes no arguments, so that every driver (and the protocol
// floors) can run it. "" for a kind without one.
func TLSStatusQuery(kind Kind) string {
	switch kind.Base() {
	case KindPostgres:
		return bench.DialectOf(bench.Postgres).TLSStatus
	case KindMariaDB:
		return bench.DialectOf(bench.MariaDB).TLSStatus
	}
	return ""
}

// TLSStatus connects as the bench user over tcp with TLS verified against
// s.TLSCert (pgx for PostgreSQL, go-sql-driver/mysql for MariaDB) and
// returns the protocol version and cipher the server reports for that
// connection (TLSStatusQuery).
func (s *Server) TLSStatus(ctx context.Context) (version, cipher string, err error) {
	if s.TLSCert == "" {
		return "", "", fmt.Errorf("%s was started without TLS", s.Kind)
	}
	e, err := s.Endpoint("tcp")
	if err != nil {
		return "", "", err
	}
	be := e.Bench()
	be.TLS, be.CA = bench.TLSVerify, s.TLSCert
	q := TLSStatusQuery(s.Kind)
	switch s.Kind.Base() {
	case KindPostgres:
		dsn, err := pgdsn.ConnString(be)
		if err != nil {
			return "", "", err
		}
		conn, err := pgConnect(ctx, dsn)
		if err != nil {
			return "", "", scrub(err, s.Password)
		}
		defer conn.Close(context.Background())
		err = conn.QueryRow(ctx, q).Scan(&version, &cipher)
		return version, cipher, err
	case KindMariaDB:
		tc, err := be.TLSConfig()
		if err != nil {
			return "", "", err
		}
		cfg := mysql.NewConfig()
		cfg.Net, cfg.Addr, cfg.User, cfg.Passwd, cfg.DBName, cfg.TLS = "tcp", e.Addr, s.User, s.Password, s.Database, tc
		cfg.Timeout = 2 * time.Second
		conn, err := mysql.NewConnector(cfg)
		if err != nil {
			return "", "", err
		}
		db := sql.OpenDB(conn)
		defer db.Close()
		var v, c sql.NullString
		if err := db.QueryRowContext(ctx, q).Scan(&v, &c); err != nil {
			return "", "", scrub(err, s.Password)
		}
		return v.String, c.String, nil
	}
	return "", "", fmt.Errorf("%s has no TLS status", s.Kind)
}
