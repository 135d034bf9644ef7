package workloads

import "github.com/sqlbench/sqlbench/bench"

// adapterCalls marks the calls of the published go-sqlite-bench adapter
// on one connection (Begin, Commit, each Insert* and Find*): where the
// target's adapter takes its connection from a pool for every call
// (bench.Checkouter: crawshaw, whose craw adapter calls sqlitex.Pool's Get
// and Put around each), out takes it and in gives it back; for every other
// target, and as the zero value (another study's program, which holds its
// connection), they do nothing.
type adapterCalls struct{ pool bench.Checkouter }

// suiteCalls returns the adapter calls on c.
func suiteCalls(c bench.Conn) adapterCalls {
	p, _ := c.(bench.Checkouter)
	return adapterCalls{pool: p}
}

// out begins a call.
func (a adapterCalls) out() error {
	if a.pool == nil {
		return nil
	}
	return a.pool.Checkout()
}

// in ends the call out began.
func (a adapterCalls) in() {
	if a.pool != nil {
		a.pool.Checkin()
	}
}

// begin begins a transaction on c as the adapter's Begin call.
func (a adapterCalls) begin(c bench.Conn) (bench.Tx, error) {
	if err := a.out(); err != nil {
		return nil, err
	}
	defer a.in()
	return bench.Begin(c)
}

// commit commits tx as the adapter's Commit call.
func (a adapterCalls) commit(tx bench.Tx) error {
	if err := a.out(); err != nil {
		return err
	}
	defer a.in()
	return tx.Commit()
}
