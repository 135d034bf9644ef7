package bench

// The capabilities of the batch family's paths (workloads/batch.go): a
// target declares the ones its Conn's Batcher has.
const (
	// CapSendBatch: the Conn's Batcher has the path "sendbatch" (pgx's
	// pgx.Batch sent with Conn.SendBatch: every statement queued, one Sync).
	CapSendBatch Cap = "sendbatch"
	// CapPipeline: the Conn's Batcher has the path "pipeline" (pgconn's
	// pipeline mode: StartPipeline, a Bind and Execute per statement of a
	// statement prepared once, one Sync).
	CapPipeline Cap = "pipeline"
	// CapMultiStmt: the Conn's Batcher has the path "multistmt" (MySQL
	// multi-statements: the statements joined by ';' in one COM_QUERY, on a
	// connection of its own opened with the driver's DSN option).
	CapMultiStmt Cap = "multistmt"
)

// Batcher is implemented by a Conn whose API sends many statements to the
// server in fewer round trips than one each: pgx's batches and pipeline
// mode, MySQL's multi-statements. A path is named by the capability that
// declares it (CapSendBatch's "sendbatch" and so on).
type Batcher interface {
	// Batch returns the Conn's way of sending query's executions by path,
	// with what it needs made before it returns (the statement prepared, a
	// connection opened with a DSN option), so that no timed call makes
	// it. The caller closes it; an unknown path is an error.
	Batch(path, query string) (Batch, error)
}

// Batch sends one statement's executions, one for every row of
// arguments, together.
type Batch interface {
	// Exec runs the statement once for every nparams values of args, in
	// order, in as few round trips as the path allows.
	Exec(nparams int, args []any) error
	// Query runs the statement once for every nparams values of args, in
	// order, in as few round trips as the path allows, and calls fn for
	// each row of each statement's result with the statement's index k.
	// It stops at the first error fn returns and returns it.
	Query(nparams int, args []any, fn func(k int, r Row) error) error
	// Close releases what Batch made.
	Close() error
}
