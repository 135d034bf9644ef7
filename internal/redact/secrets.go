package redact

import (
	"cmp"
	"io"
	"net/url"
	"slices"
	"strings"
)

// Mask is the text that replaces a password or another secret.
const Mask = "xxxxx"

// Secrets returns s with every occurrence of each non-empty secret, and of
// its URL-escaped forms, replaced by Mask; longer ones first, so a secret
// that holds another is hidden whole.
func Secrets(s string, secrets ...string) string {
	var pairs []string
	for _, f := range forms(secrets) {
		pairs = append(pairs, f, Mask)
	}
	if pairs == nil {
		return s
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// forms returns the non-empty secrets and their URL-escaped forms, longest
// first.
func forms(secrets []string) []string {
	var out []string
	for _, s := range secrets {
		if s != "" {
			out = append(out, s, url.QueryEscape(s), url.PathEscape(s))
		}
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	return slices.Compact(out)
}

// Writer passes what is written through it on to another writer with
// every secret masked (see Secrets). It holds back the end of what it was
// given that may be the start of a secret until a later Write completes it
// or Flush, so a secret split across writes is masked too.
type Writer struct {
	w              io.Writer
	secrets, forms []string
	held           string
}

// NewWriter returns a Writer masking secrets on their way to w.
func NewWriter(w io.Writer, secrets []string) *Writer {
	return &Writer{w: w, secrets: secrets, forms: append(forms(secrets), "")}
}

// Write passes b on, masked, but for what may be the start of a secret.
func (r *Writer) Write(b []byte) (int, error) {
	s := r.held + string(b)
	cut, longest := len(s), len(r.forms[0])
	for i := max(0, cut-longest); i < cut; i++ {
		if slices.ContainsFunc(r.forms[:len(r.forms)-1], func(f string) bool {
			return len(s)-i < len(f) && strings.HasPrefix(f, s[i:]) || strings.HasPrefix(s[i:], f) && i+len(f) > cut
		}) {
			cut, i = i, max(0, i-longest)-1 // a secret starts here: look again before it
		}
	}
	r.held = s[cut:]
	if _, err := io.WriteString(r.w, Secrets(s[:cut], r.secrets...)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Flush passes on, masked, what Write held back.
func (r *Writer) Flush() error {
	s := r.held
	r.held = ""
	_, err := io.WriteString(r.w, Secrets(s, r.secrets...))
	return err
}
