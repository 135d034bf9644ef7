package servers

import (
	"fmt"
	"strings"
)

// Kind names a database server product.
type Kind string

// The supported kinds of server.
const (
	// KindMariaDB is MariaDB (mariadbd, from the mariadb-server package).
	KindMariaDB Kind = "mariadb"
	// KindPostgres is PostgreSQL (postgres, from the postgresql package).
	KindPostgres Kind = "postgres"
	// KindTiDB is TiDB (tidb-server with its embedded unistore storage),
	// built from its Go module on first use. It speaks the MariaDB/MySQL
	// protocol; Kinds leaves it out, as it is started only when named.
	KindTiDB Kind = "tidb"
)

// Kinds lists the supported kinds in a fixed order.
func Kinds() []Kind { return []Kind{KindMariaDB, KindPostgres} }

// DB is the name of the sqlbench database (--db, --dsn) whose targets
// connect to a server of kind k: TiDB's are MariaDB's, over the same
// protocol.
func (k Kind) DB() string {
	if k == KindTiDB {
		return string(KindMariaDB)
	}
	return string(k)
}

// Profiled reports whether servers of kind k take a configuration profile
// (Profile); TiDB runs on its own defaults.
func (k Kind) Profiled() bool { return k != KindTiDB }

// ParseKind turns a name such as "mariadb" into a Kind; the error lists the
// valid names.
func ParseKind(s string) (Kind, error) {
	for _, k := range append(Kinds(), KindTiDB) {
		if strings.EqualFold(strings.TrimSpace(s), string(k)) {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown server kind %q (valid: %s)", s, joinNames(append(Kinds(), KindTiDB)))
}

func joinNames[T ~string](names []T) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = string(n)
	}
	return strings.Join(parts, ", ")
}
