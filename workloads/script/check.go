package script

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sqlbench/sqlbench/bench"
)

// CheckOps is the number of executions of the verification pass: enough
// to draw every script of a usual mix, few enough to cost well under a
// second on a server.
const CheckOps = 32

// CheckKey is the key of a verification line in a runner's reply.
const CheckKey = "script-check"

// StmtDigest is what the verification pass saw of one statement: the rows
// it returned over all its executions and, for a deterministic statement,
// the sum of their hashes.
type StmtDigest struct {
	Label string
	Runs  int
	Rows  int64
	Sum   uint64
	// Compared is set for a deterministic statement: Sum is compared.
	Compared bool
}

// Digest is the verification pass's record of every statement of a set,
// numbered as Set.Statements.
type Digest struct {
	Stmts []StmtDigest
}

func (d *Digest) add(n int, st *Statement, rows int, sum uint64) {
	g := &d.Stmts[n]
	g.Runs++
	g.Rows += int64(rows)
	g.Sum += sum
}

// newDigest returns an empty digest of set's statements.
func newDigest(set *Set) *Digest {
	d := &Digest{}
	for _, st := range set.Statements() {
		d.Stmts = append(d.Stmts, StmtDigest{Label: st.Label(), Compared: st.Deterministic})
	}
	return d
}

// Lines returns the digest as reply lines: "script-check: N runs=R rows=W
// sum=HEX LABEL" (sum=- for a statement not compared value for value).
func (d *Digest) Lines() []string {
	var out []string
	for i, s := range d.Stmts {
		sum := "-"
		if s.Compared {
			sum = strconv.FormatUint(s.Sum, 16)
		}
		out = append(out, fmt.Sprintf("%s: %d runs=%d rows=%d sum=%s %s", CheckKey, i+1, s.Runs, s.Rows, sum, s.Label))
	}
	return out
}

// ParseDigest reads the verification lines among a reply's lines.
func ParseDigest(lines []string) (*Digest, error) {
	d := &Digest{}
	for _, l := range lines {
		rest, ok := strings.CutPrefix(l, CheckKey+": ")
		if !ok {
			continue
		}
		var n int
		var s StmtDigest
		var sum string
		f := strings.SplitN(rest, " ", 5)
		if len(f) < 5 {
			return nil, fmt.Errorf("bad %s line %q", CheckKey, l)
		}
		if _, err := fmt.Sscanf(strings.Join(f[:4], " "), "%d runs=%d rows=%d sum=%s", &n, &s.Runs, &s.Rows,
			&sum); err != nil {
			return nil, fmt.Errorf("bad %s line %q: %v", CheckKey, l, err)
		}
		s.Label = f[4]
		if sum != "-" {
			v, err := strconv.ParseUint(sum, 16, 64)
			if err != nil {
				return nil, fmt.Errorf("bad %s sum %q", CheckKey, sum)
			}
			s.Sum, s.Compared = v, true
		}
		if n != len(d.Stmts)+1 {
			return nil, fmt.Errorf("%s line %d out of order", CheckKey, n)
		}
		d.Stmts = append(d.Stmts, s)
	}
	if len(d.Stmts) == 0 {
		return nil, fmt.Errorf("no %s line in the reply", CheckKey)
	}
	return d, nil
}

// Compare returns nil when got agrees with the reference digest ref (the
// verification pass of the first target of the database), else an error
// naming the first statement that differs and how.
func Compare(ref, got *Digest, refTarget string) error {
	if len(ref.Stmts) != len(got.Stmts) {
		return fmt.Errorf("verification: %d statements, %s has %d", len(got.Stmts), refTarget, len(ref.Stmts))
	}
	for i, g := range got.Stmts {
		r := ref.Stmts[i]
		switch {
		case g.Runs != r.Runs:
			return fmt.Errorf("verification: statement %s ran %d times, on %s %d", g.Label, g.Runs, refTarget, r.Runs)
		case g.Rows != r.Rows:
			return fmt.Errorf("verification: statement %s returned %d rows over %d executions, %s %d", g.Label, g.Rows,
				g.Runs, refTarget, r.Rows)
		case g.Compared && r.Compared && g.Sum != r.Sum:
			return fmt.Errorf("verification: statement %s returned other values than on %s (checksum %x, %x)", g.Label,
				refTarget, g.Sum, r.Sum)
		}
	}
	return nil
}

// Check runs the verification pass of set on e's target: in a namespace of
// its own (e.Dialect's scope), the setup script and then CheckOps
// executions, one by one on one connection, in the set's query mode; then
// it drops the namespace. Every target of a database runs the same
// executions from the same state, so they must all return the same rows.
func Check(set *Set, e bench.Env) (*Digest, error) {
	if err := set.setup(e); err != nil {
		return nil, joinDrop(err, e)
	}
	k, err := newConn(set, e.Conn, e.Dialect, 0, scaleOf(e))
	if err != nil {
		return nil, joinDrop(err, e)
	}
	k.digest = newDigest(set)
	for i := range CheckOps {
		if err = k.exec(i); err != nil {
			break
		}
	}
	if cerr := k.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, joinDrop(err, e)
	}
	if err := dropNamespace(e.Conn, e.Dialect); err != nil {
		return nil, fmt.Errorf("drop %s: %w", Namespace(e.Dialect), err)
	}
	return k.digest, nil
}

// joinDrop drops the namespace after err, which it returns first.
func joinDrop(err error, e bench.Env) error {
	if e.Dialect.DB == bench.SQLite {
		return err
	}
	// A failed statement may have left a transaction open: end it first.
	_ = e.Conn.Exec("ROLLBACK")
	if derr := dropNamespace(e.Conn, e.Dialect); derr != nil {
		return fmt.Errorf("%w (and dropping %s: %v)", err, Namespace(e.Dialect), derr)
	}
	return err
}
