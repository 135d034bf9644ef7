package bench

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
)

// TLSMode says whether and how a target encrypts its connection to a server.
type TLSMode string

// The TLS modes of an Endpoint.
const (
	// TLSOff connects in plain text (every driver's setting unless asked).
	TLSOff TLSMode = ""
	// TLSRequire encrypts without verifying the server's certificate.
	TLSRequire TLSMode = "require"
	// TLSVerify encrypts and verifies the server's certificate and host
	// name against Endpoint.CA (or the system's roots).
	TLSVerify TLSMode = "verify"
)

// ParseTLSMode reads a TLSMode from its name ("" or "off" is TLSOff).
func ParseTLSMode(s string) (TLSMode, error) {
	switch TLSMode(s) {
	case TLSOff, "off":
		return TLSOff, nil
	case TLSRequire, TLSVerify:
		return TLSMode(s), nil
	}
	return TLSOff, fmt.Errorf("unknown TLS mode %q (valid: off, require, verify)", s)
}

// ErrTLSOverUnix is returned by TLSConfig for a unix-socket endpoint: the
// targets encrypt TCP connections only (PostgreSQL never offers TLS on its
// socket).
var ErrTLSOverUnix = errors.New("TLS is for tcp endpoints only")

// TLSConfig returns the crypto/tls configuration of e for a driver that
// takes one, or nil for TLSOff: TLSRequire skips verification, TLSVerify
// trusts the certificates of e.CA (or the system's roots) and checks the
// host of e.Addr.
func (e Endpoint) TLSConfig() (*tls.Config, error) {
	if e.TLS == TLSOff {
		return nil, nil
	}
	if e.Net != "tcp" {
		return nil, ErrTLSOverUnix
	}
	host, _, err := net.SplitHostPort(e.Addr)
	if err != nil {
		return nil, fmt.Errorf("TLS: %w", err)
	}
	c := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	switch e.TLS {
	case TLSRequire:
		c.InsecureSkipVerify = true
	case TLSVerify:
		if e.CA != "" {
			pem, err := os.ReadFile(e.CA)
			if err != nil {
				return nil, fmt.Errorf("TLS CA: %w", err)
			}
			c.RootCAs = x509.NewCertPool()
			if !c.RootCAs.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("TLS CA %s holds no PEM certificate", e.CA)
			}
		}
	default:
		return nil, fmt.Errorf("unknown TLS mode %q", e.TLS)
	}
	return c, nil
}
