package script

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Value is the value of a variable or expression: an integer or a double,
// as in pgbench.
type Value struct {
	I     int64
	F     float64
	Float bool
}

// Int returns an integer value.
func Int(i int64) Value { return Value{I: i} }

// Double returns a double value.
func Double(f float64) Value { return Value{F: f, Float: true} }

// float returns v as a double.
func (v Value) float() float64 {
	if v.Float {
		return v.F
	}
	return float64(v.I)
}

// Arg returns v as a query parameter: an int64 or a float64.
func (v Value) Arg() any {
	if v.Float {
		return v.F
	}
	return v.I
}

// String formats v as pgbench prints a variable.
func (v Value) String() string {
	if v.Float {
		return strconv.FormatFloat(v.F, 'g', -1, 64)
	}
	return strconv.FormatInt(v.I, 10)
}

// toInt converts v to an integer the way pgbench coerces a double: it must
// be finite and within int64; its fraction is dropped.
func (v Value) toInt() (int64, error) {
	if !v.Float {
		return v.I, nil
	}
	if math.IsNaN(v.F) || v.F < math.MinInt64 || v.F >= math.MaxInt64 {
		return 0, fmt.Errorf("double %g out of the integer range", v.F)
	}
	return int64(v.F), nil
}

// Expr is a compiled expression of a \set or \sleep meta-command.
type Expr interface {
	// Eval computes the expression with the variables vars (by slot) and
	// the random source r.
	Eval(vars []Value, r *Rand) (Value, error)
}

type constExpr struct{ v Value }

func (e constExpr) Eval([]Value, *Rand) (Value, error) { return e.v, nil }

type varExpr struct{ slot int }

func (e varExpr) Eval(vars []Value, _ *Rand) (Value, error) { return vars[e.slot], nil }

type negExpr struct{ x Expr }

func (e negExpr) Eval(vars []Value, r *Rand) (Value, error) {
	if _, ok := e.x.(minIntConst); ok {
		return Int(math.MinInt64), nil
	}
	v, err := e.x.Eval(vars, r)
	if err != nil {
		return v, err
	}
	if v.Float {
		return Double(-v.F), nil
	}
	if v.I == math.MinInt64 {
		return v, errors.New("integer out of range in negation")
	}
	return Int(-v.I), nil
}

type binExpr struct {
	op   byte
	l, r Expr
}

func (e binExpr) Eval(vars []Value, rng *Rand) (Value, error) {
	a, err := e.l.Eval(vars, rng)
	if err != nil {
		return a, err
	}
	b, err := e.r.Eval(vars, rng)
	if err != nil {
		return b, err
	}
	if a.Float || b.Float {
		x, y := a.float(), b.float()
		switch e.op {
		case '+':
			return Double(x + y), nil
		case '-':
			return Double(x - y), nil
		case '*':
			return Double(x * y), nil
		case '/':
			if y == 0 {
				return Value{}, errors.New("division by zero")
			}
			return Double(x / y), nil
		default: // '%'
			return Value{}, errors.New("% takes integers, not doubles")
		}
	}
	x, y := a.I, b.I
	switch e.op {
	case '+':
		s := x + y
		if (s > x) != (y > 0) {
			return Value{}, errors.New("integer out of range in addition")
		}
		return Int(s), nil
	case '-':
		s := x - y
		if (s < x) != (y > 0) {
			return Value{}, errors.New("integer out of range in subtraction")
		}
		return Int(s), nil
	case '*':
		if x != 0 && y != 0 {
			p := x * y
			if p/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
				return Value{}, errors.New("integer out of range in multiplication")
			}
			return Int(p), nil
		}
		return Int(0), nil
	case '/', '%':
		if y == 0 {
			return Value{}, errors.New("division by zero")
		}
		if y == -1 { // MinInt64 / -1 overflows
			if e.op == '%' {
				return Int(0), nil
			}
			if x == math.MinInt64 {
				return Value{}, errors.New("integer out of range in division")
			}
			return Int(-x), nil
		}
		if e.op == '/' {
			return Int(x / y), nil
		}
		return Int(x % y), nil
	}
	return Value{}, fmt.Errorf("unknown operator %c", e.op)
}

type callExpr struct {
	fn   *function
	args []Expr
}

func (e callExpr) Eval(vars []Value, r *Rand) (Value, error) {
	var buf [4]Value
	args := buf[:0]
	for _, a := range e.args {
		v, err := a.Eval(vars, r)
		if err != nil {
			return v, err
		}
		args = append(args, v)
	}
	v, err := e.fn.call(args, r)
	if err != nil {
		return v, fmt.Errorf("%s: %w", e.fn.name, err)
	}
	return v, nil
}

// Vars maps variable names to slots: the variables a script may refer to.
type Vars struct {
	slots map[string]int
	names []string
}

// Builtin variables every script has, in their slots.
const (
	VarScale    = "scale"
	VarClientID = "client_id"
)

// newVars returns the variable table with the built-in variables.
func newVars() *Vars {
	v := &Vars{slots: map[string]int{}}
	v.define(VarScale)
	v.define(VarClientID)
	return v
}

// define returns the slot of name, adding it if new.
func (v *Vars) define(name string) int {
	if s, ok := v.slots[name]; ok {
		return s
	}
	v.slots[name] = len(v.names)
	v.names = append(v.names, name)
	return v.slots[name]
}

// lookup returns the slot of a variable already defined.
func (v *Vars) lookup(name string) (int, bool) {
	s, ok := v.slots[name]
	return s, ok
}

// Len returns the number of slots.
func (v *Vars) Len() int { return len(v.names) }

// exprParser parses one expression: pgbench's arithmetic on integers and
// doubles, unary minus, parentheses, :variables and function calls.
type exprParser struct {
	s    string
	pos  int
	vars *Vars
}

// ParseExpr compiles the expression s against the variables defined in
// vars; a reference to any other variable is an error.
func ParseExpr(s string, vars *Vars) (Expr, error) {
	p := &exprParser{s: s, vars: vars}
	e, err := p.sum(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(p.s) {
		return nil, fmt.Errorf("unexpected %q in expression", p.s[p.pos:])
	}
	return e, nil
}

// maxDepth bounds the nesting of an expression, so that a hostile script
// cannot exhaust the stack.
const maxDepth = 64

func (p *exprParser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

func (p *exprParser) peek() byte {
	p.space()
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *exprParser) sum(depth int) (Expr, error) {
	l, err := p.product(depth)
	if err != nil {
		return nil, err
	}
	for c := p.peek(); c == '+' || c == '-'; c = p.peek() {
		p.pos++
		r, err := p.product(depth)
		if err != nil {
			return nil, err
		}
		l = binExpr{op: c, l: l, r: r}
	}
	return l, nil
}

func (p *exprParser) product(depth int) (Expr, error) {
	l, err := p.unary(depth)
	if err != nil {
		return nil, err
	}
	for c := p.peek(); c == '*' || c == '/' || c == '%'; c = p.peek() {
		p.pos++
		r, err := p.unary(depth)
		if err != nil {
			return nil, err
		}
		l = binExpr{op: c, l: l, r: r}
	}
	return l, nil
}

func (p *exprParser) unary(depth int) (Expr, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("expression nested deeper than %d", maxDepth)
	}
	switch p.peek() {
	case '-':
		p.pos++
		x, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return negExpr{x}, nil
	case '+':
		p.pos++
		return p.unary(depth + 1)
	}
	return p.primary(depth)
}

func isIdent(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9'
}

func (p *exprParser) ident() string {
	start := p.pos
	for p.pos < len(p.s) && isIdent(p.s[p.pos], p.pos == start) {
		p.pos++
	}
	return p.s[start:p.pos]
}

func (p *exprParser) primary(depth int) (Expr, error) {
	c := p.peek()
	switch {
	case c == 0:
		return nil, errors.New("expression ends too soon")
	case c == '(':
		p.pos++
		e, err := p.sum(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, errors.New("missing )")
		}
		p.pos++
		return e, nil
	case c == ':':
		p.pos++
		name := p.ident()
		if name == "" {
			return nil, errors.New("':' not followed by a variable name")
		}
		slot, ok := p.vars.lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown variable :%s", name)
		}
		return varExpr{slot}, nil
	case c >= '0' && c <= '9' || c == '.':
		return p.number()
	case isIdent(c, true):
		name := p.ident()
		fn, ok := functions[strings.ToLower(name)]
		if !ok {
			return nil, fmt.Errorf("unknown function %q", name)
		}
		if p.peek() != '(' {
			return nil, fmt.Errorf("%s: missing (", name)
		}
		p.pos++
		var args []Expr
		if p.peek() == ')' {
			p.pos++
		} else {
			for {
				a, err := p.sum(depth + 1)
				if err != nil {
					return nil, err
				}
				args = append(args, a)
				if len(args) > 16 {
					return nil, fmt.Errorf("%s: too many arguments", name)
				}
				if c := p.peek(); c == ',' {
					p.pos++
					continue
				} else if c == ')' {
					p.pos++
					break
				}
				return nil, fmt.Errorf("%s: missing ) or ,", name)
			}
		}
		if len(args) < fn.min || len(args) > fn.max {
			return nil, fmt.Errorf("%s takes %s, got %d", fn.name, fn.arity(), len(args))
		}
		return callExpr{fn: fn, args: args}, nil
	}
	return nil, fmt.Errorf("unexpected %q in expression", string(c))
}

func (p *exprParser) number() (Expr, error) {
	start := p.pos
	float := false
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c >= '0' && c <= '9':
		case c == '.':
			float = true
		case c == 'e' || c == 'E':
			float = true
			if p.pos+1 < len(p.s) && (p.s[p.pos+1] == '-' || p.s[p.pos+1] == '+') {
				p.pos++
			}
		default:
			goto done
		}
		p.pos++
	}
done:
	text := p.s[start:p.pos]
	if float {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, fmt.Errorf("bad number %q", text)
		}
		return constExpr{Double(f)}, nil
	}
	i, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		if text == "9223372036854775808" {
			// Only as the operand of unary minus: the smallest integer.
			return minIntConst{}, nil
		}
		return nil, fmt.Errorf("bad integer %q", text)
	}
	return constExpr{Int(i)}, nil
}

// minIntConst is 9223372036854775808, valid only negated.
type minIntConst struct{}

func (minIntConst) Eval([]Value, *Rand) (Value, error) {
	return Value{}, errors.New("integer 9223372036854775808 out of range")
}
