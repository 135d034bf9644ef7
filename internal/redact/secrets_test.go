package redact

import (
	"bytes"
	"net/url"
	"testing"
)

func TestSecrets(t *testing.T) {
	tests := []struct {
		s       string
		secrets []string
		want    string
	}{
		{"dial: password secret rejected", []string{"secret"}, "dial: password xxxxx rejected"},
		{"a secret, another secret", []string{"secret"}, "a xxxxx, another xxxxx"},
		{"no secrets here", nil, "no secrets here"},
		{"empty secret is ignored", []string{""}, "empty secret is ignored"},
		{"abcdef then abc", []string{"abc", "abcdef"}, "xxxxx then xxxxx"},
		{"u:p%40ss@h", []string{"p@ss"}, "u:xxxxx@h"},
		{"x and y", []string{"x", "y"}, "xxxxx and xxxxx"},
	}
	for _, tt := range tests {
		if got := Secrets(tt.s, tt.secrets...); got != tt.want {
			t.Errorf("Secrets(%q, %q) = %q, want %q", tt.s, tt.secrets, got, tt.want)
		}
	}
}

func TestWriterMasksSecretsSplitAcrossWrites(t *testing.T) {
	const secret = "hunter2secret"
	text := "dial bench:" + secret + "@tcp: refused; again " + url.QueryEscape("p@ss w") +
		" then hunter and hunter2 end\n"
	want := Secrets(text, secret, "p@ss w")
	for split := 0; split <= len(text); split++ {
		for split2 := split; split2 <= len(text); split2 += 3 {
			var out bytes.Buffer
			w := NewWriter(&out, []string{secret, "p@ss w"})
			for _, part := range []string{text[:split], text[split:split2], text[split2:]} {
				if n, err := w.Write([]byte(part)); n != len(part) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if out.String() != want {
				t.Fatalf("split at %d and %d:\n got %q\nwant %q", split, split2, out.String(), want)
			}
		}
	}
	// Text that cannot start a secret is not held back.
	var out bytes.Buffer
	w := NewWriter(&out, []string{secret})
	w.Write([]byte("line one\nhunt"))
	if out.String() != "line one\n" {
		t.Errorf("after a write ending in the start of a secret the writer passed on %q, want %q", out.String(),
			"line one\n")
	}
}
