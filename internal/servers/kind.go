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
)

// Kinds lists the supported kinds in a fixed order.
func Kinds() []Kind { return []Kind{KindMariaDB, KindPostgres} }

// ParseKind turns a name such as "mariadb" into a Kind; the error lists the
// valid names.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds() {
		if strings.EqualFold(strings.TrimSpace(s), string(k)) {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown server kind %q (valid: %s)", s, joinNames(Kinds()))
}

func joinNames[T ~string](names []T) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = string(n)
	}
	return strings.Join(parts, ", ")
}
