package workloads

import "github.com/sqlbench/sqlbench/bench"

// suiteCheckout marks where a call of the published go-sqlite-bench
// adapter begins, suiteCheckin where it ends: a target whose published
// adapter takes its connection from a pool for every call
// (bench.Checkouter: crawshaw, whose craw adapter calls sqlitex.Pool's Get
// and Put around each Begin, Commit, Insert* and Find*) takes and gives
// back its connection there; for every other target they do nothing.
func suiteCheckout(c bench.Conn) error {
	if p, ok := c.(bench.Checkouter); ok {
		return p.Checkout()
	}
	return nil
}

// suiteCheckin ends an adapter call that suiteCheckout began.
func suiteCheckin(c bench.Conn) {
	if p, ok := c.(bench.Checkouter); ok {
		p.Checkin()
	}
}

// suiteBegin begins a transaction as the published adapter's Begin call:
// its connection taken from the pool and given back around the BEGIN.
func suiteBegin(c bench.Conn) (bench.Tx, error) {
	if err := suiteCheckout(c); err != nil {
		return nil, err
	}
	defer suiteCheckin(c)
	return bench.Begin(c)
}

// suiteCommit commits tx on c as the published adapter's Commit call.
func suiteCommit(c bench.Conn, tx bench.Tx) error {
	if err := suiteCheckout(c); err != nil {
		return err
	}
	defer suiteCheckin(c)
	return tx.Commit()
}
