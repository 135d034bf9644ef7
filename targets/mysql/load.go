package mysql

import (
	"fmt"
	"io"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/sqldb"
)

// conn is the bench.Conn of the go-sql-driver targets: database/sql, plus
// LOAD DATA LOCAL INFILE fed from an io.Reader (bench.Loader).
type conn struct {
	sqldb.Conn
	loads int          // numbers this connection's reader registrations
	cfg   bench.Config // how it was opened (the batch path opens a connection of its own)
}

// Load implements bench.Loader. The driver reads LOAD DATA LOCAL input from
// a reader registered under a name (mysql.RegisterReaderHandler), so no
// file is written and no AllowAllFiles is needed; the name is unique to this
// connection and this call, and is removed again when the load ends. The
// server must allow local_infile (MariaDB's default; the servers sqlbench
// starts set it).
func (c *conn) Load(table string, cols []string, r io.Reader) (int64, error) {
	c.loads++
	name := fmt.Sprintf("sqlbench-%p-%d", c, c.loads)
	mysql.RegisterReaderHandler(name, func() io.Reader { return r })
	defer mysql.DeregisterReaderHandler(name)
	res, err := c.DB.Exec("LOAD DATA LOCAL INFILE 'Reader::" + name + "' INTO TABLE " + table +
		` FIELDS TERMINATED BY '\t' LINES TERMINATED BY '\n' (` + strings.Join(cols, ", ") + ")")
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("rows loaded: %w", err)
	}
	return n, nil
}
