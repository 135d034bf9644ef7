package redact

import "io"

// Writer returns a writer that replaces every secret in what is written
// through it before passing it on to w (see String).
func Writer(w io.Writer, secrets []string) io.Writer {
	return writer{w, secrets}
}

type writer struct {
	w       io.Writer
	secrets []string
}

func (r writer) Write(b []byte) (int, error) {
	if _, err := io.WriteString(r.w, String(string(b), r.secrets...)); err != nil {
		return 0, err
	}
	return len(b), nil
}
