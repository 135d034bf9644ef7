package bench

// RowsExecer is implemented by a Conn whose API runs one statement for many
// rows of parameters in a single call: the statement is compiled once and
// bound, stepped and reset per row inside the call (sqinn-go's Exec, which
// sends all the rows to the sqinn process in one request). A workload of a
// published program that used such a call uses it where the Conn has it.
type RowsExecer interface {
	// ExecRows runs query once for every nparams values of values, in
	// order: len(values)/nparams rows, handed to the API as they are.
	ExecRows(query string, nparams int, values []any) error
}

// WholeQuerier is implemented by a Conn whose API returns a query's rows
// whole in a single call, each column read as a type the caller names
// before the query runs (sqinn-go's Query, one request for all the rows). A
// workload of a published program that used such a call uses it where the
// Conn has it.
type WholeQuerier interface {
	// QueryWhole runs query with args in one call that reads every row, each
	// column as the type of its pointer in dest (the types a Row's Scan
	// takes). Then, for every row in order, it stores the row's columns
	// through dest and calls fn, stopping at the first error fn returns.
	QueryWhole(query string, dest []any, fn func() error, args ...any) error
}

// Informer is implemented by a Conn that can say more of itself than its Go
// module and its SQLite library: the version of a helper program it runs
// (sqinn). The runner's info request records each pair as a configuration
// line of the results.
type Informer interface {
	// Info returns key-value pairs; each key starts with the target's name.
	Info() ([][2]string, error)
}

// ParamBinder binds one parameter of a prepared statement with a call of
// the value's own type, as the native SQLite APIs do (crawshaw's
// BindInt64, BindText and BindFloat): no value is boxed into an any and
// no type switch picks the call. Parameters are 1-based.
type ParamBinder interface {
	BindInt64(param int, v int64) error
	BindFloat(param int, v float64) error
	BindText(param int, v string) error
}

// BoundExecer is implemented by a Stmt whose API binds its parameters one
// by one with typed calls and then runs the statement with what is bound
// (bind, step, reset: the native SQLite APIs). A workload of a published
// program that binds so per row uses it where the Stmt has it, and
// Exec(args...) elsewhere.
type BoundExecer interface {
	ParamBinder
	// ExecBound runs the statement once with the parameters bound since
	// its last run and resets it; the bindings stay until the next bind
	// (an Exec with arguments clears them first).
	ExecBound() error
}

// Checkouter is implemented by a Conn whose published program takes the
// connection from a pool for each call of its database adapter and gives
// it back after the call (the go-sqlite-bench craw adapter: sqlitex.Pool's
// Get with a context, which starts a goroutine that watches it for an
// interrupt, and Put). A workload reproducing such a program calls
// Checkout where the adapter's call begins and Checkin where it ends, in
// the clock where the program's are; the connection stays usable between
// the calls (untimed checks).
type Checkouter interface {
	// Checkout takes the connection from its pool.
	Checkout() error
	// Checkin gives it back; it does nothing when it is not checked out.
	Checkin()
}

// Holder is implemented by a Conn whose published program takes the
// connection from a pool once and holds it for a whole test (the Sqinn-Go
// craw program: sqlitex.Pool's Get(nil), which gives the connection an
// interrupt channel, watched by a goroutine, but no tracer, and Put when
// the test is done). A workload reproducing such a program calls Hold
// where the program's Get is and Release where its Put is: outside the
// clock for a test on one connection, inside it where the program's
// goroutines take theirs in the timed region.
type Holder interface {
	// Hold takes the connection from its pool without a context.
	Hold() error
	// Release gives it back; it does nothing when it is not held.
	Release()
}
