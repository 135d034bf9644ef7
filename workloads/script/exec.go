package script

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/sqlbench/sqlbench/bench"
)

// Seed is the seed of the random draws of every execution: execution i
// draws from the stream (Seed, i) whatever target runs it, so that every
// target runs the same statements with the same parameters.
const Seed = 0x5c41b3

// maxSleep bounds one \sleep.
const maxSleep = time.Minute

// conn runs a set's scripts on one connection: one client.
type conn struct {
	set    *Set
	c      bench.Conn
	client int
	scale  float64
	mode   Mode
	// texts holds each statement's SQL in the dialect's placeholders, by
	// script and statement; prepared the statements prepared once (mode
	// Prepared), likewise.
	texts    [][]string
	prepared [][]bench.Stmt
	vars     [][]Value // by script
	args     []any
	rng      Rand
	vals     []any
	dest     []any
	// hists, when set, receive every statement's latency, by script and
	// statement; record says whether the execution being run records.
	hists  [][]*hdrhistogram.Histogram
	record bool
	// txer is the connection's transaction API, when it has one that runs
	// queries (database/sql); tx the transaction a BEGIN opened on it.
	txer bench.Txer
	tx   bench.Tx
	// digest, when set, receives every statement's rows and checksum.
	digest *Digest
	offset []int // each script's first statement's number in the set
}

// newConn prepares the set's statements on c (mode Prepared) in d's
// placeholder syntax.
func newConn(set *Set, c bench.Conn, d bench.Dialect, client int, scale float64) (*conn, error) {
	k := &conn{set: set, c: c, client: client, scale: scale, mode: set.Mode}
	if t, ok := c.(bench.Txer); ok {
		k.txer = t
	}
	off := 0
	for _, sc := range set.Scripts {
		k.offset = append(k.offset, off)
		off += len(sc.Stmts)
		texts := make([]string, len(sc.Stmts))
		for i, st := range sc.Stmts {
			texts[i] = st.Text(d.Param)
		}
		k.texts = append(k.texts, texts)
		k.vars = append(k.vars, make([]Value, sc.Vars()))
		if k.mode == Prepared {
			stmts := make([]bench.Stmt, len(sc.Stmts))
			for i, st := range sc.Stmts {
				if st.Class == TxControl {
					continue
				}
				p, err := c.Prepare(texts[i])
				if err != nil {
					k.close()
					return nil, fmt.Errorf("%s: prepare: %w", st.Label(), err)
				}
				stmts[i] = p
			}
			k.prepared = append(k.prepared, stmts)
		}
	}
	return k, nil
}

// close closes the prepared statements.
func (k *conn) close() error {
	var errs []error
	for _, stmts := range k.prepared {
		for _, p := range stmts {
			if p != nil {
				errs = append(errs, p.Close())
			}
		}
	}
	k.prepared = nil
	return errors.Join(errs...)
}

// pick returns the script execution i runs: drawn by weight from the
// execution's own random stream, which it then goes on drawing from.
func (k *conn) pick(i int) int {
	k.rng.Seed(Seed, uint64(i))
	if len(k.set.Scripts) == 1 {
		return 0
	}
	n := int(k.rng.Int64N(int64(k.set.total)))
	for s, sc := range k.set.Scripts {
		if n < sc.Weight {
			return s
		}
		n -= sc.Weight
	}
	return len(k.set.Scripts) - 1
}

// exec runs execution i: one script, drawn by weight.
func (k *conn) exec(i int) error {
	s := k.pick(i)
	return k.runScript(s, k.set.Scripts[s])
}

// runScript runs every command of script sc (number s) once.
func (k *conn) runScript(s int, sc *Script) error {
	vars := k.vars[s]
	vars[0] = scaleValue(k.scale)
	vars[1] = Int(int64(k.client))
	for _, cmd := range sc.Commands {
		switch cmd.Kind {
		case CmdSet:
			v, err := cmd.Expr.Eval(vars, &k.rng)
			if err != nil {
				return &Error{sc.Name, cmd.Line, err.Error()}
			}
			vars[cmd.Slot] = v
		case CmdSleep:
			v, err := cmd.Expr.Eval(vars, &k.rng)
			if err != nil {
				return &Error{sc.Name, cmd.Line, err.Error()}
			}
			n, err := v.toInt()
			if err != nil || n < 0 || float64(n)*float64(cmd.Unit) > float64(maxSleep) {
				return &Error{sc.Name, cmd.Line, fmt.Sprintf(`\sleep %s: must be 0 to %v`, v, maxSleep)}
			}
			time.Sleep(time.Duration(n) * cmd.Unit)
		default:
			if err := k.statement(s, cmd.Stmt, vars); err != nil {
				k.abort()
				return &Error{sc.Name, cmd.Line, err.Error()}
			}
		}
	}
	if k.tx != nil {
		k.abort()
		return &Error{sc.Name, sc.Commands[len(sc.Commands)-1].Line,
			"the script ends inside a transaction (BEGIN without COMMIT)"}
	}
	return nil
}

// abort rolls back the transaction a failed execution left open on the
// connection's transaction API.
func (k *conn) abort() {
	if k.tx != nil {
		_ = k.tx.Rollback()
		k.tx = nil
	}
}

// txControl runs a transaction-control statement: through the connection's
// transaction API when it has one (database/sql's *sql.Tx: what a
// database/sql program writes, and the only way its pool keeps a
// transaction on one connection), else as SQL.
func (k *conn) txControl(st *Statement, text string) error {
	if k.txer == nil {
		return k.c.Exec(text)
	}
	switch st.txOp {
	case txBegin:
		if k.tx != nil {
			return errors.New("BEGIN inside a transaction")
		}
		if w := strings.Fields(strings.ToUpper(st.SQL)); !plainBegin(w) {
			return fmt.Errorf("%s: the target starts transactions through database/sql's BeginTx, "+
				"which has no such options: write a plain BEGIN", strings.Join(w, " "))
		}
		tx, err := k.txer.BeginTx()
		if err != nil {
			return err
		}
		if _, ok := tx.(bench.TxQuerier); !ok {
			return errors.Join(errors.New("the target's transactions cannot run queries"), tx.Rollback())
		}
		k.tx = tx
		return nil
	case txCommit, txRollback:
		if k.tx == nil {
			return fmt.Errorf("%s outside a transaction", strings.Fields(st.SQL)[0])
		}
		tx := k.tx
		k.tx = nil
		if st.txOp == txCommit {
			return tx.Commit()
		}
		return tx.Rollback()
	}
	if k.tx != nil {
		return k.tx.Exec(text)
	}
	return k.c.Exec(text)
}

// scaleValue is :scale: an integer when the scale is whole, else a double.
func scaleValue(s float64) Value {
	if s == math.Trunc(s) && math.Abs(s) < 1<<53 {
		return Int(int64(s))
	}
	return Double(s)
}

// statement runs one statement with its parameters from vars, fetching
// and scanning every row of a statement that returns rows.
func (k *conn) statement(s int, st *Statement, vars []Value) error {
	k.args = k.args[:0]
	for _, slot := range st.params {
		k.args = append(k.args, vars[slot].Arg())
	}
	text := k.texts[s][st.Index]
	rows := 0
	var sum uint64
	fn := func(r bench.Row) error {
		if rows == 0 {
			if err := k.widen(r); err != nil {
				return err
			}
		}
		rows++
		if err := r.Scan(k.dest...); err != nil {
			return err
		}
		if k.digest != nil && st.Deterministic {
			sum += rowHash(k.vals)
		}
		return nil
	}
	var t0 time.Time
	if k.record {
		t0 = time.Now()
	}
	var err error
	switch {
	case st.Class == TxControl:
		err = k.txControl(st, text)
	case k.mode == Prepared:
		p := k.prepared[s][st.Index]
		if k.tx != nil {
			p, err = k.tx.(bench.TxQuerier).Stmt(p)
		}
		if err == nil {
			err = runStmt(p, st, fn, k.args)
		}
	case k.mode == Extended:
		var p bench.Stmt
		if k.tx != nil {
			p, err = k.tx.Prepare(text)
		} else {
			p, err = k.c.Prepare(text)
		}
		if err == nil {
			err = errors.Join(runStmt(p, st, fn, k.args), p.Close())
		}
	case k.tx != nil && st.Class == Rows:
		err = k.tx.(bench.TxQuerier).Query(text, fn, k.args...)
	case k.tx != nil:
		err = k.tx.Exec(text, k.args...)
	case st.Class == Rows:
		err = k.c.Query(text, fn, k.args...)
	default:
		err = k.c.Exec(text, k.args...)
	}
	if k.record {
		_ = k.hists[s][st.Index].RecordValue(min(int64(time.Since(t0)), histMax))
	}
	if err != nil {
		return err
	}
	if k.digest != nil {
		k.digest.add(k.offset[s]+st.Index, st, rows, sum)
	}
	return nil
}

// runStmt runs a prepared statement: as a query when it returns rows.
func runStmt(p bench.Stmt, st *Statement, fn bench.RowFunc, args []any) error {
	if st.Class == Rows {
		return p.Query(fn, args...)
	}
	return p.Exec(args...)
}

// widen sizes the scan destinations to r's columns.
func (k *conn) widen(r bench.Row) error {
	n, ok := bench.RowWidth(r)
	if !ok {
		return errors.New("the target's rows do not say how many columns they have")
	}
	if n == len(k.dest) {
		return nil
	}
	k.vals = make([]any, n)
	k.dest = make([]any, n)
	for i := range k.vals {
		k.dest[i] = &k.vals[i]
	}
	return nil
}

// histMax is the longest statement latency the per-statement histograms
// hold; longer ones count as it.
const histMax = int64(10 * time.Minute)

// newStmtHistogram returns a histogram of one statement's latencies in ns:
// two significant digits (1%), enough for p50 and p99, in a tenth of the
// memory of three.
func newStmtHistogram() *hdrhistogram.Histogram { return hdrhistogram.New(1, histMax, 2) }

// rowHash hashes one row's values in a form every driver of a database
// gives alike (see canon); rows are summed, so their order does not count.
func rowHash(vals []any) uint64 {
	h := fnv.New64a()
	var buf []byte
	for _, v := range vals {
		buf = canon(buf[:0], v)
		buf = append(buf, 0)
		h.Write(buf)
	}
	return h.Sum64()
}

// canon appends v as text: numbers in their shortest form, bytes as text,
// times in UTC, NULL as a byte no text has, booleans as 1 and 0 (as MySQL
// has them); a value that has a database/sql form (a driver's own decimal
// type) in that form.
func canon(buf []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(buf, 0xff)
	case []byte:
		return append(buf, x...)
	case string:
		return append(buf, x...)
	case int64:
		return strconv.AppendInt(buf, x, 10)
	case int32:
		return strconv.AppendInt(buf, int64(x), 10)
	case int16:
		return strconv.AppendInt(buf, int64(x), 10)
	case int8:
		return strconv.AppendInt(buf, int64(x), 10)
	case int:
		return strconv.AppendInt(buf, int64(x), 10)
	case uint64:
		return strconv.AppendUint(buf, x, 10)
	case uint32:
		return strconv.AppendUint(buf, uint64(x), 10)
	case float64:
		return canonFloat(buf, x)
	case float32:
		return canonFloat(buf, float64(x))
	case bool:
		if x {
			return append(buf, '1')
		}
		return append(buf, '0')
	case time.Time:
		return x.UTC().AppendFormat(buf, time.RFC3339Nano)
	case driver.Valuer:
		if dv, err := x.Value(); err == nil {
			if _, again := dv.(driver.Valuer); !again {
				return canon(buf, dv)
			}
		}
	}
	return fmt.Appendf(buf, "%v", v)
}

// canonFloat writes a whole float as an integer (a driver may give a
// whole-numbered column as either).
func canonFloat(buf []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.AppendInt(buf, int64(f), 10)
	}
	return strconv.AppendFloat(buf, f, 'g', -1, 64)
}

// plainBegin reports whether the words of a statement that begins a
// transaction are a plain BEGIN, BEGIN TRANSACTION, BEGIN WORK or START
// TRANSACTION, with none of the options (IMMEDIATE, ISOLATION LEVEL, READ
// ONLY ...) a transaction API's own begin would drop.
func plainBegin(words []string) bool {
	switch len(words) {
	case 1:
		return words[0] == "BEGIN"
	case 2:
		return words[0] == "BEGIN" && (words[1] == "TRANSACTION" || words[1] == "WORK") ||
			words[0] == "START" && words[1] == "TRANSACTION"
	}
	return false
}
