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
	// KindGalera is a three-node MariaDB Galera cluster (mariadbd with the
	// galera-4 package's provider) on this machine; clients connect to its
	// first node. Started only when named, like TiDB.
	KindGalera Kind = "galera"
	// KindPostgresSync is a PostgreSQL primary with one synchronous
	// streaming-replication standby on this machine; clients connect to the
	// primary. Started only when named.
	KindPostgresSync Kind = "postgres-sync"
)

// Kinds lists the supported kinds in a fixed order.
func Kinds() []Kind { return []Kind{KindMariaDB, KindPostgres} }

// named lists every kind Start takes: Kinds, then those started only when
// named.
func named() []Kind { return append(Kinds(), KindTiDB, KindGalera, KindPostgresSync) }

// Base is the single-server kind whose binaries and protocol the nodes of
// a cluster kind use (MariaDB for Galera, PostgreSQL for postgres-sync),
// and k itself for the others.
func (k Kind) Base() Kind {
	switch k {
	case KindGalera:
		return KindMariaDB
	case KindPostgresSync:
		return KindPostgres
	}
	return k
}

// Clustered reports whether servers of kind k are several server processes
// (Server.Nodes).
func (k Kind) Clustered() bool { return k.Base() != k }

// DB is the name of the sqlbench database (--db, --dsn) whose targets
// connect to a server of kind k: TiDB's are MariaDB's, over the same
// protocol, and a cluster's are its nodes'.
func (k Kind) DB() string {
	if k == KindTiDB {
		return string(KindMariaDB)
	}
	return string(k.Base())
}

// Profiled reports whether servers of kind k take a configuration profile
// (Profile); TiDB runs on its own defaults.
func (k Kind) Profiled() bool { return k != KindTiDB }

// ParseKind turns a name such as "mariadb" into a Kind; the error lists the
// valid names.
func ParseKind(s string) (Kind, error) {
	for _, k := range named() {
		if strings.EqualFold(strings.TrimSpace(s), string(k)) {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown server kind %q (valid: %s)", s, joinNames(named()))
}

func joinNames[T ~string](names []T) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = string(n)
	}
	return strings.Join(parts, ", ")
}
