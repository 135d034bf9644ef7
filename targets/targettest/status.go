package targettest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sqlbench/sqlbench/bench"
)

// GlobalStatus reads MariaDB's global status counters names through c
// (SHOW GLOBAL STATUS), for the tests that count a workload's statements
// or round trips on the server; the SHOW itself is one more Questions.
func GlobalStatus(t testing.TB, c bench.Conn, names []string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	q := "SHOW GLOBAL STATUS WHERE Variable_name IN ('" + strings.Join(names, "','") + "')"
	err := c.Query(q, func(r bench.Row) error {
		var k, v string
		if err := r.Scan(&k, &v); err != nil {
			return err
		}
		var err error
		out[k], err = strconv.ParseInt(v, 10, 64)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
