package bench

import "fmt"

// Tx is a transaction on a Conn: statements run and prepared through it
// belong to the transaction until Commit or Rollback.
type Tx interface {
	// Exec runs a statement inside the transaction.
	Exec(query string, args ...any) error
	// Prepare compiles a statement bound to the transaction; it is closed
	// by the caller before Commit.
	Prepare(query string) (Stmt, error)
	// Commit ends the transaction, keeping its changes.
	Commit() error
	// Rollback ends the transaction, dropping its changes.
	Rollback() error
}

// TxQuerier is a Tx that also runs queries, and the Conn's prepared
// statements, inside the transaction: database/sql's *sql.Tx, whose pool
// would otherwise hand a statement run on the Conn another connection (or,
// with one connection, none until the transaction ends).
type TxQuerier interface {
	// Query runs a query inside the transaction and calls fn once for
	// every row.
	Query(query string, fn RowFunc, args ...any) error
	// Stmt returns s, a statement prepared on the Conn, bound to the
	// transaction; it is released when the transaction ends.
	Stmt(s Stmt) (Stmt, error)
}

// Txer is implemented by a Conn whose API has a transaction object of its
// own (database/sql's *sql.Tx); Begin uses it. Other Conns get transactions
// as SQL statements, which is what their native APIs do.
type Txer interface {
	// BeginTx starts a transaction.
	BeginTx() (Tx, error)
}

// Begin starts a transaction on c: through c's own API if it has one (Txer),
// else with the SQL statement BEGIN.
func Begin(c Conn) (Tx, error) {
	if t, ok := c.(Txer); ok {
		tx, err := t.BeginTx()
		if err != nil {
			return nil, fmt.Errorf("begin: %w", err)
		}
		return tx, nil
	}
	if err := c.Exec("BEGIN"); err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	return sqlTx{c}, nil
}

// sqlTx is a transaction made of SQL statements on a Conn.
type sqlTx struct{ c Conn }

func (t sqlTx) Exec(query string, args ...any) error { return t.c.Exec(query, args...) }
func (t sqlTx) Prepare(query string) (Stmt, error)   { return t.c.Prepare(query) }
func (t sqlTx) Commit() error                        { return t.c.Exec("COMMIT") }
func (t sqlTx) Rollback() error                      { return t.c.Exec("ROLLBACK") }
