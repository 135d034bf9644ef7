package script

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Error is a problem in a script, at a line of its file.
type Error struct {
	File string
	Line int
	Msg  string
}

// Error formats the problem as FILE:LINE: MESSAGE.
func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Script is one parsed script file: the commands one execution runs, in
// order.
type Script struct {
	// Name is the file's name as given; Weight its share of the executions
	// (pgbench's @weight).
	Name   string
	Weight int
	// Text is the file's content.
	Text     string
	Commands []Command
	// Stmts are the SQL statements among Commands, in order.
	Stmts []*Statement
	vars  *Vars
}

// CommandKind tells the commands of a script apart.
type CommandKind int

// Kinds of command.
const (
	CmdSQL CommandKind = iota
	CmdSet
	CmdSleep
)

// Command is one command of a script: a SQL statement, \set or \sleep.
type Command struct {
	Kind CommandKind
	Line int
	// Stmt is the statement of a CmdSQL.
	Stmt *Statement
	// Slot and Expr are the variable a CmdSet assigns and its expression;
	// Expr is also the duration of a CmdSleep, in Unit.
	Slot int
	Expr Expr
	Unit time.Duration
}

// Class says how a statement is run.
type Class int

// Statement classes.
const (
	// Rows: a statement that returns rows (SELECT, WITH, VALUES, SHOW,
	// EXPLAIN, PRAGMA, or any with RETURNING): run as a query, every row
	// fetched and every column scanned.
	Rows Class = iota
	// Exec: any other statement.
	Exec
	// TxControl: BEGIN, START TRANSACTION, COMMIT, END, ROLLBACK,
	// SAVEPOINT, RELEASE: run as plain statements in every query mode.
	TxControl
)

// txOp is what a transaction-control statement does.
type txOp int

const (
	txOther txOp = iota
	txBegin
	txCommit
	txRollback
)

// txOpOf returns the transaction operation of a statement's words: ROLLBACK
// TO SAVEPOINT is a savepoint's, not the transaction's.
func txOpOf(words []string) txOp {
	if len(words) == 0 {
		return txOther
	}
	switch words[0] {
	case "BEGIN", "START":
		return txBegin
	case "COMMIT", "END":
		return txCommit
	case "ROLLBACK", "ABORT":
		if contains(words, "TO") {
			return txOther
		}
		return txRollback
	}
	return txOther
}

// Statement is one SQL statement of a script, its :variables taken out as
// parameters.
type Statement struct {
	// Script names the script's file, Line the line the statement starts
	// on, Index its position among the script's statements (from 0).
	Script string
	Line   int
	Index  int
	// SQL is the statement as written, without its closing semicolon.
	SQL string
	// Class says how it runs; Deterministic whether its results may be
	// compared value for value between targets (it calls no function
	// whose value changes from run to run, such as now() or random()).
	Class         Class
	Deterministic bool
	// txOp is, for a TxControl statement, whether it begins, commits or
	// rolls back a transaction (or neither: a savepoint).
	txOp txOp
	// parts are the SQL text around the parameters: len(parts) ==
	// len(params)+1; params the variable slot of each parameter, in order.
	parts  []string
	params []int
}

// Label names the statement in results and messages: file:line.
func (s *Statement) Label() string { return fmt.Sprintf("%s:%d", s.Script, s.Line) }

// Text returns the statement's SQL with each parameter written as
// param(n), n from 1: the dialect's placeholder.
func (s *Statement) Text(param func(n int) string) string {
	var b strings.Builder
	for i, p := range s.parts {
		b.WriteString(p)
		if i < len(s.params) {
			b.WriteString(param(i + 1))
		}
	}
	return b.String()
}

// Params returns the number of parameters.
func (s *Statement) Params() int { return len(s.params) }

// Parse parses the script file name with content text and weight (at
// least 1). A problem is an *Error naming the file and line.
func Parse(name, text string, weight int) (*Script, error) {
	if weight < 1 {
		return nil, &Error{name, 1, fmt.Sprintf("weight must be at least 1, got %d", weight)}
	}
	sc := &Script{Name: name, Weight: weight, Text: text, vars: newVars()}
	p := &scanner{s: text, line: 1}
	for {
		p.skipBlank()
		if p.eof() {
			break
		}
		line := p.line
		if p.s[p.pos] == '\\' {
			meta := p.metaLine()
			cmd, err := sc.meta(meta, line)
			if err != nil {
				return nil, &Error{name, line, err.Error()}
			}
			sc.Commands = append(sc.Commands, cmd)
			continue
		}
		sql, err := p.statement()
		if err != nil {
			return nil, &Error{name, line, err.Error()}
		}
		st, err := sc.compile(sql, line)
		if err != nil {
			return nil, &Error{name, line, err.Error()}
		}
		if st == nil {
			continue // a lone semicolon
		}
		sc.Commands = append(sc.Commands, Command{Kind: CmdSQL, Line: line, Stmt: st})
		sc.Stmts = append(sc.Stmts, st)
	}
	if len(sc.Stmts) == 0 {
		return nil, &Error{name, p.line, "no SQL statement in the script"}
	}
	return sc, nil
}

// Vars returns the number of variable slots an execution needs.
func (sc *Script) Vars() int { return sc.vars.Len() }

// meta parses a meta-command line (starting with a backslash).
func (sc *Script) meta(text string, line int) (Command, error) {
	fields := strings.Fields(text)
	switch fields[0] {
	case `\set`:
		if len(fields) < 3 {
			return Command{}, fmt.Errorf(`\set needs a variable name and an expression`)
		}
		name := fields[1]
		for i := 0; i < len(name); i++ {
			if !isIdent(name[i], i == 0) {
				return Command{}, fmt.Errorf(`\set: bad variable name %q`, name)
			}
		}
		if name == VarScale || name == VarClientID {
			return Command{}, fmt.Errorf(`\set: :%s is set by sqlbench`, name)
		}
		rest := strings.TrimSpace(text[strings.Index(text, name)+len(name):])
		e, err := ParseExpr(rest, sc.vars)
		if err != nil {
			return Command{}, fmt.Errorf(`\set %s: %v`, name, err)
		}
		return Command{Kind: CmdSet, Line: line, Slot: sc.vars.define(name), Expr: e}, nil
	case `\sleep`:
		if len(fields) < 2 || len(fields) > 3 {
			return Command{}, fmt.Errorf(`\sleep takes a number or :variable and a unit (us, ms, s)`)
		}
		unit := time.Second
		if len(fields) == 3 {
			switch fields[2] {
			case "us":
				unit = time.Microsecond
			case "ms":
				unit = time.Millisecond
			case "s":
			default:
				return Command{}, fmt.Errorf(`\sleep: unknown unit %q (us, ms, s)`, fields[2])
			}
		}
		var e Expr
		if strings.HasPrefix(fields[1], ":") {
			slot, ok := sc.vars.lookup(fields[1][1:])
			if !ok {
				return Command{}, fmt.Errorf(`\sleep: unknown variable %s`, fields[1])
			}
			e = varExpr{slot}
		} else {
			n, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil || n < 0 {
				return Command{}, fmt.Errorf(`\sleep: %q is not a non-negative integer`, fields[1])
			}
			e = constExpr{Int(n)}
		}
		return Command{Kind: CmdSleep, Line: line, Expr: e, Unit: unit}, nil
	}
	return Command{}, fmt.Errorf("unsupported meta-command %s (sqlbench has \\set and \\sleep)", fields[0])
}

// compile takes a statement's :variables out as parameters and classifies
// it; nil for an empty statement.
func (sc *Script) compile(sql string, line int) (*Statement, error) {
	sql = strings.TrimSpace(sql)
	if sql == "" {
		return nil, nil
	}
	st := &Statement{Script: sc.Name, Line: line, Index: len(sc.Stmts), SQL: sql}
	var part strings.Builder
	words := &wordScan{}
	err := eachToken(sql, func(tok string, code bool) error {
		if !code {
			part.WriteString(tok)
			// SQLite's datetime('now') and the like.
			words.volatile = words.volatile || strings.EqualFold(tok, "'now'")
			return nil
		}
		for i := 0; i < len(tok); i++ {
			c := tok[i]
			if c == ':' && i+1 < len(tok) && tok[i+1] == ':' {
				part.WriteString("::") // a cast
				i++
				continue
			}
			if c == ':' && i+1 < len(tok) && isIdent(tok[i+1], true) {
				j := i + 1
				for j < len(tok) && isIdent(tok[j], false) {
					j++
				}
				name := tok[i+1 : j]
				slot, ok := sc.vars.lookup(name)
				if !ok {
					return fmt.Errorf("unknown variable :%s", name)
				}
				st.parts = append(st.parts, part.String())
				part.Reset()
				st.params = append(st.params, slot)
				words.add(' ')
				i = j - 1
				continue
			}
			part.WriteByte(c)
			words.add(c)
		}
		words.add(' ')
		return nil
	})
	if err != nil {
		return nil, err
	}
	st.parts = append(st.parts, part.String())
	st.Class = classify(words.words)
	if st.Class == TxControl {
		st.txOp = txOpOf(words.words)
	}
	st.Deterministic = !words.volatile
	return st, nil
}

// classify returns the class of a statement from its words (upper case,
// outside literals and comments).
func classify(words []string) Class {
	if len(words) == 0 {
		return Exec
	}
	switch words[0] {
	case "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "ABORT":
		return TxControl
	case "SELECT", "WITH", "VALUES", "SHOW", "EXPLAIN", "PRAGMA", "TABLE", "DESCRIBE", "DESC":
		if words[0] == "WITH" && !contains(words, "SELECT") && !contains(words, "RETURNING") {
			return Exec
		}
		if words[0] == "WITH" && !contains(words, "RETURNING") &&
			(contains(words, "INSERT") || contains(words, "UPDATE") || contains(words, "DELETE")) {
			return Exec
		}
		return Rows
	}
	if contains(words, "RETURNING") {
		return Rows
	}
	return Exec
}

func contains(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

// volatileWords are the functions whose value changes from one execution
// to the next: a statement that calls one is not compared value for value.
var volatileWords = map[string]bool{
	"NOW": true, "RANDOM": true, "RAND": true, "UUID": true, "GEN_RANDOM_UUID": true,
	"CURRENT_TIMESTAMP": true, "CURRENT_TIME": true, "CURRENT_DATE": true, "LOCALTIMESTAMP": true,
	"LOCALTIME": true, "CLOCK_TIMESTAMP": true, "STATEMENT_TIMESTAMP": true,
	"TRANSACTION_TIMESTAMP": true, "TIMEOFDAY": true, "SYSDATE": true, "UNIX_TIMESTAMP": true,
	"UTC_TIMESTAMP": true, "CONNECTION_ID": true, "PG_BACKEND_PID": true, "RANDOMBLOB": true,
	"CURDATE": true, "CURTIME": true, "UUID_SHORT": true,
}

// wordScan collects the words of SQL code, upper case, and notes calls of
// volatile functions (and SQLite's 'now', which is a string literal).
type wordScan struct {
	cur      []byte
	words    []string
	volatile bool
}

func (w *wordScan) add(c byte) {
	if isIdent(c, false) {
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		w.cur = append(w.cur, c)
		return
	}
	if len(w.cur) > 0 {
		word := string(w.cur)
		w.words = append(w.words, word)
		w.volatile = w.volatile || volatileWords[word]
		w.cur = w.cur[:0]
	}
}

// eachToken splits SQL into code and non-code (string literals, quoted
// identifiers, comments, dollar-quoted strings) and calls fn with each, in
// order, with code set for code. An unterminated literal or comment is an
// error.
func eachToken(sql string, fn func(tok string, code bool) error) error {
	start := 0
	flush := func(end int, code bool) error {
		if end > start {
			if err := fn(sql[start:end], code); err != nil {
				return err
			}
		}
		start = end
		return nil
	}
	for i := 0; i < len(sql); {
		end, what := skipLiteral(sql, i)
		if end < 0 {
			return fmt.Errorf("unterminated %s", what)
		}
		if end == i {
			i++
			continue
		}
		if err := flush(i, true); err != nil {
			return err
		}
		if err := flush(end, false); err != nil {
			return err
		}
		i = end
	}
	return flush(len(sql), true)
}

// skipLiteral returns the end of the literal or comment starting at i (i
// itself when none starts there), or -1 and what it is when it does not
// end.
func skipLiteral(s string, i int) (int, string) {
	switch c := s[i]; {
	case c == '\'' || c == '"' || c == '`':
		for j := i + 1; j < len(s); j++ {
			if s[j] == c {
				if j+1 < len(s) && s[j+1] == c { // doubled: an escaped quote
					j++
					continue
				}
				return j + 1, ""
			}
		}
		return -1, "quoted text (" + string(c) + ")"
	case c == '-' && strings.HasPrefix(s[i:], "--"):
		if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
			return i + j + 1, ""
		}
		return len(s), ""
	case c == '/' && strings.HasPrefix(s[i:], "/*"):
		if j := strings.Index(s[i+2:], "*/"); j >= 0 {
			return i + 2 + j + 2, ""
		}
		return -1, "comment /*"
	case c == '$' && (i == 0 || !isIdent(s[i-1], false)):
		j := i + 1
		for j < len(s) && isIdent(s[j], j == i+1) {
			j++
		}
		if j < len(s) && s[j] == '$' {
			tag := s[i : j+1]
			if k := strings.Index(s[j+1:], tag); k >= 0 {
				return j + 1 + k + len(tag), ""
			}
			return -1, "dollar-quoted text " + tag
		}
	}
	return i, ""
}

// scanner cuts a script into meta-command lines and SQL statements.
type scanner struct {
	s    string
	pos  int
	line int
}

func (p *scanner) eof() bool { return p.pos >= len(p.s) }

// skipBlank skips white space and -- comments between commands.
func (p *scanner) skipBlank() {
	for !p.eof() {
		c := p.s[p.pos]
		switch {
		case c == '\n':
			p.line++
			p.pos++
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case strings.HasPrefix(p.s[p.pos:], "--"):
			for !p.eof() && p.s[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// metaLine returns the meta-command at pos, to the end of its line.
func (p *scanner) metaLine() string {
	end := strings.IndexByte(p.s[p.pos:], '\n')
	if end < 0 {
		end = len(p.s) - p.pos
	}
	text := strings.TrimSpace(p.s[p.pos : p.pos+end])
	p.pos += end
	return text
}

// statement returns the SQL statement at pos, up to its semicolon (or the
// end of the file), and moves past it.
func (p *scanner) statement() (string, error) {
	start := p.pos
	for !p.eof() {
		c := p.s[p.pos]
		if c == ';' {
			sql := p.s[start:p.pos]
			p.pos++
			return sql, nil
		}
		end, what := skipLiteral(p.s, p.pos)
		if end < 0 {
			return "", fmt.Errorf("unterminated %s", what)
		}
		if end == p.pos {
			end++
		}
		p.line += strings.Count(p.s[p.pos:end], "\n")
		p.pos = end
	}
	return p.s[start:], nil
}
