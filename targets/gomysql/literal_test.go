package gomysql

import (
	"math"
	"strings"
	"testing"
)

func TestAppendQuery(t *testing.T) {
	for _, c := range []struct {
		query string
		args  []any
		want  string
	}{
		{"SELECT 1", nil, "SELECT 1"},
		{"SELECT number, str FROM t WHERE number=?", []any{int64(42)}, "SELECT number, str FROM t WHERE number=42"},
		{"SELECT ?, ?, ?, ?, ?", []any{int64(42), "Gopher", 1.618, nil, true}, "SELECT 42, 'Gopher', 1.618, NULL, 1"},
		{"INSERT INTO t VALUES (?, ?)", []any{"it's", -7}, "INSERT INTO t VALUES ('it''s', -7)"},
		{"SELECT '?', \"?\", `?`, ?", []any{1}, "SELECT '?', \"?\", `?`, 1"},
		{`SELECT 'a\'?', ?`, []any{2}, `SELECT 'a\'?', 2`},
		{"SELECT ?", []any{`back\slash`}, "SELECT X'6261636b5c736c617368'"},
		{"SELECT ?", []any{"nul\x00"}, "SELECT X'6e756c00'"},
		{"SELECT ?, ?", []any{[]byte{0xff, 0}, []byte(nil)}, "SELECT X'ff00', NULL"},
		{"SELECT ?", []any{[]byte{}}, "SELECT X''"},
		{"SELECT ?", []any{""}, "SELECT ''"},
		{"SELECT ?", []any{1e21}, "SELECT 1e+21"},
	} {
		got, err := appendQuery(nil, c.query, c.args)
		if err != nil || string(got) != c.want {
			t.Errorf("appendQuery(%q, %v) = %q, %v; want %q", c.query, c.args, got, err, c.want)
		}
	}
}

func TestAppendQueryRefusesWhatItCannotSay(t *testing.T) {
	for _, c := range []struct {
		query string
		args  []any
		want  string
	}{
		{"SELECT ?, ?", []any{1}, "more placeholders"},
		{"SELECT ?", []any{1, 2}, "1 placeholders for 2 arguments"},
		{"SELECT ?", []any{math.NaN()}, "no SQL literal"},
		{"SELECT ?", []any{struct{}{}}, "unsupported argument type struct {}"},
	} {
		_, err := appendQuery(nil, c.query, c.args)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("appendQuery(%q, %v): err = %v, want %q", c.query, c.args, err, c.want)
		}
	}
}
