package bench

import (
	"errors"
	"testing"
)

func TestTLSConfig(t *testing.T) {
	for _, s := range []string{"", "off", "require", "verify"} {
		if _, err := ParseTLSMode(s); err != nil {
			t.Errorf("ParseTLSMode(%q): %v", s, err)
		}
	}
	if _, err := ParseTLSMode("yes"); err == nil {
		t.Error("ParseTLSMode(yes) accepted it")
	}
	if c, err := (Endpoint{Net: "tcp", Addr: "127.0.0.1:1"}).TLSConfig(); c != nil || err != nil {
		t.Errorf("plain endpoint: %v, %v; want no TLS", c, err)
	}
	c, err := Endpoint{Net: "tcp", Addr: "127.0.0.1:1", TLS: TLSRequire}.TLSConfig()
	if err != nil || !c.InsecureSkipVerify || c.ServerName != "127.0.0.1" {
		t.Errorf("require: %+v, %v", c, err)
	}
	c, err = Endpoint{Net: "tcp", Addr: "[::1]:1", TLS: TLSVerify}.TLSConfig()
	if err != nil || c.InsecureSkipVerify || c.RootCAs != nil || c.ServerName != "::1" {
		t.Errorf("verify against the system roots: %+v, %v", c, err)
	}
	missing := Endpoint{Net: "tcp", Addr: "127.0.0.1:1", TLS: TLSVerify, CA: "/no/such.pem"}
	if _, err := missing.TLSConfig(); err == nil {
		t.Error("a missing CA file was accepted")
	}
	if _, err := (Endpoint{Net: "unix", Addr: "/tmp/s", TLS: TLSRequire}).TLSConfig(); !errors.Is(err, ErrTLSOverUnix) {
		t.Errorf("unix: %v, want ErrTLSOverUnix", err)
	}
}
