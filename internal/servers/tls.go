package servers

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
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
