package servers

import (
	"context"
	"errors"
	"strings"
)

// scrub returns err with every occurrence of secret replaced, so that no
// password reaches an error message. The result unwraps only to a context
// error, so that errors.Is still sees cancellation.
func scrub(err error, secret string) error {
	if err == nil || secret == "" || !strings.Contains(err.Error(), secret) {
		return err
	}
	r := &redacted{msg: strings.ReplaceAll(err.Error(), secret, "********")}
	for _, target := range []error{context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, target) {
			r.cause = target
		}
	}
	return r
}

// redacted is an error message with a secret masked.
type redacted struct {
	msg   string
	cause error
}

func (r *redacted) Error() string { return r.msg }
func (r *redacted) Unwrap() error { return r.cause }

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// joinErrors combines errors into one whose message stays on one line.
func joinErrors(errs []error) error {
	var m multiError
	for _, e := range errs {
		if e != nil {
			m = append(m, e)
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

type multiError []error

func (m multiError) Error() string {
	parts := make([]string, len(m))
	for i, e := range m {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

func (m multiError) Unwrap() []error { return m }
