package gomysql

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// appendQuery appends query to buf with each ? placeholder replaced by the
// SQL literal of the next argument, for the text protocol: go-mysql's
// Execute with arguments would prepare, execute and close a server-side
// statement instead. A ? inside a quoted string ('...', "...") or a quoted
// identifier (`...`) is text, not a placeholder. The number of
// placeholders must equal the number of arguments.
func appendQuery(buf []byte, query string, args []any) ([]byte, error) {
	next := 0
	var quote byte // the quote character of the string being copied, or 0
	for i := 0; i < len(query); i++ {
		ch := query[i]
		switch {
		case quote != 0:
			if ch == '\\' && quote != '`' && i+1 < len(query) {
				buf = append(buf, ch, query[i+1])
				i++
				continue
			}
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"' || ch == '`':
			quote = ch
		case ch == '?':
			if next == len(args) {
				return buf, fmt.Errorf("interpolate: more placeholders than the %d arguments", len(args))
			}
			var err error
			if buf, err = appendLiteral(buf, args[next]); err != nil {
				return buf, fmt.Errorf("interpolate argument %d: %w", next+1, err)
			}
			next++
			continue
		}
		buf = append(buf, ch)
	}
	if next != len(args) {
		return buf, fmt.Errorf("interpolate: %d placeholders for %d arguments", next, len(args))
	}
	return buf, nil
}

// appendLiteral appends the MySQL literal of v. Strings are quoted with
// quotes doubled, which reads the same with and without the
// NO_BACKSLASH_ESCAPES SQL mode; a string holding a backslash or a NUL byte,
// whose reading depends on that mode, is sent as a hexadecimal literal, as
// byte slices always are.
func appendLiteral(buf []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(buf, "NULL"...), nil
	case int:
		return strconv.AppendInt(buf, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(buf, v, 10), nil
	case int32:
		return strconv.AppendInt(buf, int64(v), 10), nil
	case uint64:
		return strconv.AppendUint(buf, v, 10), nil
	case uint32:
		return strconv.AppendUint(buf, uint64(v), 10), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return buf, fmt.Errorf("%v has no SQL literal", v)
		}
		return strconv.AppendFloat(buf, v, 'g', -1, 64), nil
	case bool:
		if v {
			return append(buf, '1'), nil
		}
		return append(buf, '0'), nil
	case string:
		if strings.ContainsAny(v, "\\\x00") {
			return appendHex(buf, v), nil
		}
		buf = append(buf, '\'')
		for i := 0; i < len(v); i++ {
			if v[i] == '\'' {
				buf = append(buf, '\'')
			}
			buf = append(buf, v[i])
		}
		return append(buf, '\''), nil
	case []byte:
		if v == nil {
			return append(buf, "NULL"...), nil
		}
		return appendHex(buf, string(v)), nil
	default:
		return buf, errors.New("unsupported argument type " + fmt.Sprintf("%T", v))
	}
}

// appendHex appends s as X'...'.
func appendHex(buf []byte, s string) []byte {
	buf = append(buf, "X'"...)
	buf = hex.AppendEncode(buf, []byte(s))
	return append(buf, '\'')
}
