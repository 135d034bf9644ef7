package pgx

import (
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlbench/sqlbench/bench"
	"github.com/sqlbench/sqlbench/targets/internal/textrow"
)

// Batch implements bench.Batcher: "sendbatch" queues every statement on a
// pgx.Batch and sends it with Conn.SendBatch; "pipeline" runs query,
// prepared here under a name of its own, in pgconn's pipeline mode.
func (n *nativeConn) Batch(path, query string) (bench.Batch, error) {
	switch path {
	case string(bench.CapSendBatch):
		return &sendBatch{c: n.c, query: query}, nil
	case string(bench.CapPipeline):
		n.stmts++
		name := "sqlbench_pipeline_" + strconv.Itoa(n.stmts)
		sd, err := n.c.PgConn().Prepare(bg, name, query, nil)
		if err != nil {
			return nil, err
		}
		return &pipelineBatch{c: n.c, sd: sd}, nil
	}
	return nil, fmt.Errorf("pgx-native has no batch path %q", path)
}

// sendBatch is the path "sendbatch": a pgx.Batch made per call, as a
// program makes one, sent with Conn.SendBatch, the statements run in pgx's
// default mode (its statement cache).
type sendBatch struct {
	c     *pgx.Conn
	query string
}

func fill(query string, nparams int, args []any) *pgx.Batch {
	b := &pgx.Batch{}
	for k := 0; k < len(args); k += nparams {
		b.Queue(query, args[k:k+nparams]...)
	}
	return b
}

func (s *sendBatch) Exec(nparams int, args []any) error {
	br := s.c.SendBatch(bg, fill(s.query, nparams, args))
	for k := 0; k < len(args); k += nparams {
		if _, err := br.Exec(); err != nil {
			br.Close()
			return err
		}
	}
	return br.Close()
}

func (s *sendBatch) Query(nparams int, args []any, fn func(k int, r bench.Row) error) error {
	br := s.c.SendBatch(bg, fill(s.query, nparams, args))
	for k := 0; k*nparams < len(args); k++ {
		if err := batchRows(br, k, fn); err != nil {
			br.Close()
			return err
		}
	}
	return br.Close()
}

func batchRows(br pgx.BatchResults, k int, fn func(k int, r bench.Row) error) error {
	rows, err := br.Query()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(k, rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (s *sendBatch) Close() error { return nil }

// pipelineBatch is the path "pipeline": pgconn's pipeline mode, each
// statement a Bind and Execute of the statement Batch prepared, its
// arguments sent as text, one Sync for the batch, the results read in
// order.
type pipelineBatch struct {
	c    *pgx.Conn
	sd   *pgconn.StatementDescription
	vals [][]byte
	buf  []byte
	row  textrow.Row
}

// send queues one statement per row of args and the Sync.
func (p *pipelineBatch) send(nparams int, args []any) (*pgconn.Pipeline, int, error) {
	pl := p.c.PgConn().StartPipeline(bg)
	n := 0
	for k := 0; k < len(args); k += nparams {
		p.vals, p.buf = p.vals[:0], p.buf[:0]
		for _, a := range args[k : k+nparams] {
			v, ok := a.(int64)
			if !ok {
				pl.Close()
				return nil, 0, fmt.Errorf("pipeline: argument %T, only int64 is sent", a)
			}
			start := len(p.buf)
			p.buf = strconv.AppendInt(p.buf, v, 10)
			p.vals = append(p.vals, p.buf[start:])
		}
		// By the statement's name: SendQueryStatement (one Describe less) is
		// newer than the pgx releases a version target may build against.
		pl.SendQueryPrepared(p.sd.Name, p.vals, nil, nil)
		n++
	}
	if err := pl.Sync(); err != nil {
		pl.Close()
		return nil, 0, err
	}
	return pl, n, nil
}

func (p *pipelineBatch) Exec(nparams int, args []any) error {
	return p.Query(nparams, args, nil)
}

func (p *pipelineBatch) Query(nparams int, args []any, fn func(k int, r bench.Row) error) error {
	pl, n, err := p.send(nparams, args)
	if err != nil {
		return err
	}
	for k := 0; k < n; k++ {
		if err := p.result(pl, k, fn); err != nil {
			pl.Close()
			return err
		}
	}
	res, err := pl.GetResults()
	if err == nil {
		if _, ok := res.(*pgconn.PipelineSync); !ok {
			err = fmt.Errorf("pipeline: %T where the Sync was due", res)
		}
	}
	if cerr := pl.Close(); err == nil {
		err = cerr
	}
	return err
}

// result reads statement k's result, calling fn for its rows when set.
func (p *pipelineBatch) result(pl *pgconn.Pipeline, k int, fn func(k int, r bench.Row) error) error {
	res, err := pl.GetResults()
	if err != nil {
		return err
	}
	rr, ok := res.(*pgconn.ResultReader)
	if !ok {
		return fmt.Errorf("pipeline: %T where statement %d's result was due", res, k)
	}
	for fn != nil && rr.NextRow() {
		p.row.Values = rr.Values()
		if err := fn(k, &p.row); err != nil {
			rr.Close()
			return err
		}
	}
	_, err = rr.Close()
	return err
}

// Close deallocates the statement Batch prepared, through the Conn (whose
// Deallocate every pgx v5 release has, where PgConn's came with v5.5).
func (p *pipelineBatch) Close() error { return p.c.Deallocate(bg, p.sd.Name) }
