package sqinn

import "github.com/cvilsmeier/sqinn-go/sqinn"

// call names one kind of sqinn-go call. Each call sends exactly one request
// to the sqinn process and waits for its response.
type call int

// The calls the target makes, counted per connection.
const (
	callExec call = iota
	callQuery
	callPrepare
	callBind
	callStep
	callColumn
	callReset
	callFinalize
	callOther // open, close, versions
	numCalls
)

// String returns the name of the sqinn-go method, or "other".
func (k call) String() string {
	switch k {
	case callExec:
		return "Exec"
	case callQuery:
		return "Query"
	case callPrepare:
		return "Prepare"
	case callBind:
		return "Bind"
	case callStep:
		return "Step"
	case callColumn:
		return "Column"
	case callReset:
		return "Reset"
	case callFinalize:
		return "Finalize"
	}
	return "other"
}

// client is the connection's sqinn process. Every request the target sends
// goes through one of its methods, which counts it by kind: the counts show
// the call pattern of an operation (one Exec for all the rows of an
// insert, one Query per read) where the process is the only witness.
type client struct {
	sq    *sqinn.Sqinn
	calls [numCalls]int64
}

func (c *client) Exec(query string, niterations, nparams int, values []any) ([]int, error) {
	c.calls[callExec]++
	return c.sq.Exec(query, niterations, nparams, values)
}

func (c *client) Query(query string, params []any, colTypes []byte) ([]sqinn.Row, error) {
	c.calls[callQuery]++
	return c.sq.Query(query, params, colTypes)
}

func (c *client) Prepare(query string) error {
	c.calls[callPrepare]++
	return c.sq.Prepare(query)
}

func (c *client) Bind(iparam int, value any) error {
	c.calls[callBind]++
	return c.sq.Bind(iparam, value)
}

func (c *client) Step() (bool, error) {
	c.calls[callStep]++
	return c.sq.Step()
}

func (c *client) Column(icol int, colType byte) (sqinn.AnyValue, error) {
	c.calls[callColumn]++
	return c.sq.Column(icol, colType)
}

func (c *client) Reset() error {
	c.calls[callReset]++
	return c.sq.Reset()
}

func (c *client) Finalize() error {
	c.calls[callFinalize]++
	return c.sq.Finalize()
}

func (c *client) Open(filename string) error {
	c.calls[callOther]++
	return c.sq.Open(filename)
}

func (c *client) Close() error {
	c.calls[callOther]++
	return c.sq.Close()
}

func (c *client) SqinnVersion() (string, error) {
	c.calls[callOther]++
	return c.sq.SqinnVersion()
}

func (c *client) IoVersion() (byte, error) {
	c.calls[callOther]++
	return c.sq.IoVersion()
}

// Terminate ends the process; it sends a request that has no response.
func (c *client) Terminate() error { return c.sq.Terminate() }
