package dev.sqlbench.jdbc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A compiled expression of a \set or \sleep meta-command, the twin of Go's
 * script.Expr: pgbench's arithmetic on integers and doubles, unary minus,
 * parentheses, :variables and the functions of Go's funcs.go, with the same
 * overflow rules, draws and error texts.
 */
public interface ScriptExpr {
    /** Computes the expression with the variables vars (by slot) and the random stream r. */
    ScriptValue eval(ScriptValue[] vars, ScriptRand r) throws ScriptException;

    /** The nesting an expression may have. */
    int MAX_DEPTH = 64;

    /** Compiles s against the variables of vars; any other variable is an error. */
    static ScriptExpr parse(String s, ScriptVars vars) throws ScriptException {
        Parser p = new Parser(s, vars);
        ScriptExpr e = p.sum(0);
        p.space();
        if (p.pos < s.length()) {
            throw new ScriptException("unexpected " + quote(s.substring(p.pos)) + " in expression");
        }
        return e;
    }

    /** Quotes s as Go's %q does for printable ASCII. */
    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** A constant. */
    record Const(ScriptValue v) implements ScriptExpr {
        @Override
        public ScriptValue eval(ScriptValue[] vars, ScriptRand r) {
            return v;
        }
    }

    /** A variable's slot. */
    record Var(int slot) implements ScriptExpr {
        @Override
        public ScriptValue eval(ScriptValue[] vars, ScriptRand r) {
            return vars[slot];
        }
    }

    /** 9223372036854775808, valid only negated. */
    record MinInt() implements ScriptExpr {
        @Override
        public ScriptValue eval(ScriptValue[] vars, ScriptRand r) throws ScriptException {
            throw new ScriptException("integer 9223372036854775808 out of range");
        }
    }

    /** Unary minus. */
    record Neg(ScriptExpr x) implements ScriptExpr {
        @Override
        public ScriptValue eval(ScriptValue[] vars, ScriptRand r) throws ScriptException {
            if (x instanceof MinInt) {
                return ScriptValue.of(Long.MIN_VALUE);
            }
            ScriptValue v = x.eval(vars, r);
            if (v.isDouble()) {
                return ScriptValue.ofDouble(-v.f());
            }
            if (v.i() == Long.MIN_VALUE) {
                throw new ScriptException("integer out of range in negation");
            }
            return ScriptValue.of(-v.i());
        }
    }

    /** A binary operator: + - * / %. */
    record Bin(char op, ScriptExpr l, ScriptExpr r) implements ScriptExpr {
        @Override
        public ScriptValue eval(ScriptValue[] vars, ScriptRand rng) throws ScriptException {
            ScriptValue a = l.eval(vars, rng);
            ScriptValue b = r.eval(vars, rng);
            if (a.isDouble() || b.isDouble()) {
                double x = a.asDouble(), y = b.asDouble();
                switch (op) {
                    case '+': return ScriptValue.ofDouble(x + y);
                    case '-': return ScriptValue.ofDouble(x - y);
                    case '*': return ScriptValue.ofDouble(x * y);
                    case '/':
                        if (y == 0) {
                            throw new ScriptException("division by zero");
                        }
                        return ScriptValue.ofDouble(x / y);
                    default: throw new ScriptException("% takes integers, not doubles");
                }
            }
            long x = a.i(), y = b.i();
            try {
                switch (op) {
                    case '+': return ScriptValue.of(Math.addExact(x, y));
                    case '-': return ScriptValue.of(Math.subtractExact(x, y));
                    case '*': return ScriptValue.of(Math.multiplyExact(x, y));
                    default: break;
                }
            } catch (ArithmeticException e) {
                String what = op == '+' ? "addition" : op == '-' ? "subtraction" : "multiplication";
                throw new ScriptException("integer out of range in " + what);
            }
            if (y == 0) {
                throw new ScriptException("division by zero");
            }
            if (y == -1) {
                if (op == '%') {
                    return ScriptValue.of(0);
                }
                if (x == Long.MIN_VALUE) {
                    throw new ScriptException("integer out of range in division");
                }
                return ScriptValue.of(-x);
            }
            return ScriptValue.of(op == '/' ? x / y : x % y);
        }
    }

    /** A function call. */
    record Call(ScriptFunctions.Fn fn, List<ScriptExpr> args) implements ScriptExpr {
        @Override
        public ScriptValue eval(ScriptValue[] vars, ScriptRand r) throws ScriptException {
            ScriptValue[] a = new ScriptValue[args.size()];
            for (int k = 0; k < a.length; k++) {
                a[k] = args.get(k).eval(vars, r);
            }
            try {
                return fn.call().apply(a, r);
            } catch (ScriptException e) {
                throw new ScriptException(fn.name() + ": " + e.getMessage());
            }
        }
    }

    /** The recursive-descent parser of Go's exprParser. */
    final class Parser {
        private final String s;
        private final ScriptVars vars;
        private int pos;

        Parser(String s, ScriptVars vars) {
            this.s = s;
            this.vars = vars;
        }

        void space() {
            while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t')) {
                pos++;
            }
        }

        char peek() {
            space();
            return pos < s.length() ? s.charAt(pos) : 0;
        }

        ScriptExpr sum(int depth) throws ScriptException {
            ScriptExpr l = product(depth);
            for (char c = peek(); c == '+' || c == '-'; c = peek()) {
                pos++;
                l = new Bin(c, l, product(depth));
            }
            return l;
        }

        ScriptExpr product(int depth) throws ScriptException {
            ScriptExpr l = unary(depth);
            for (char c = peek(); c == '*' || c == '/' || c == '%'; c = peek()) {
                pos++;
                l = new Bin(c, l, unary(depth));
            }
            return l;
        }

        ScriptExpr unary(int depth) throws ScriptException {
            if (depth > MAX_DEPTH) {
                throw new ScriptException("expression nested deeper than " + MAX_DEPTH);
            }
            switch (peek()) {
                case '-':
                    pos++;
                    return new Neg(unary(depth + 1));
                case '+':
                    pos++;
                    return unary(depth + 1);
                default:
                    return primary(depth);
            }
        }

        String ident() {
            int start = pos;
            while (pos < s.length() && ScriptParser.isIdent(s.charAt(pos), pos == start)) {
                pos++;
            }
            return s.substring(start, pos);
        }

        ScriptExpr primary(int depth) throws ScriptException {
            char c = peek();
            if (c == 0) {
                throw new ScriptException("expression ends too soon");
            }
            if (c == '(') {
                pos++;
                ScriptExpr e = sum(depth + 1);
                if (peek() != ')') {
                    throw new ScriptException("missing )");
                }
                pos++;
                return e;
            }
            if (c == ':') {
                pos++;
                String name = ident();
                if (name.isEmpty()) {
                    throw new ScriptException("':' not followed by a variable name");
                }
                Integer slot = vars.lookup(name);
                if (slot == null) {
                    throw new ScriptException("unknown variable :" + name);
                }
                return new Var(slot);
            }
            if (c >= '0' && c <= '9' || c == '.') {
                return number();
            }
            if (ScriptParser.isIdent(c, true)) {
                String name = ident();
                ScriptFunctions.Fn fn = ScriptFunctions.ALL.get(name.toLowerCase(Locale.ROOT));
                if (fn == null) {
                    throw new ScriptException("unknown function " + quote(name));
                }
                if (peek() != '(') {
                    throw new ScriptException(name + ": missing (");
                }
                pos++;
                List<ScriptExpr> args = new ArrayList<>();
                if (peek() == ')') {
                    pos++;
                } else {
                    while (true) {
                        args.add(sum(depth + 1));
                        if (args.size() > 16) {
                            throw new ScriptException(name + ": too many arguments");
                        }
                        char d = peek();
                        if (d == ',') {
                            pos++;
                            continue;
                        }
                        if (d == ')') {
                            pos++;
                            break;
                        }
                        throw new ScriptException(name + ": missing ) or ,");
                    }
                }
                if (args.size() < fn.min() || args.size() > fn.max()) {
                    throw new ScriptException(fn.name() + " takes " + fn.arity() + ", got " + args.size());
                }
                return new Call(fn, List.copyOf(args));
            }
            throw new ScriptException("unexpected " + quote(String.valueOf(c)) + " in expression");
        }

        ScriptExpr number() throws ScriptException {
            int start = pos;
            boolean dbl = false;
            loop:
            while (pos < s.length()) {
                char c = s.charAt(pos);
                switch (c) {
                    case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> { }
                    case '.' -> dbl = true;
                    case 'e', 'E' -> {
                        dbl = true;
                        if (pos + 1 < s.length() && (s.charAt(pos + 1) == '-' || s.charAt(pos + 1) == '+')) {
                            pos++;
                        }
                    }
                    default -> {
                        break loop;
                    }
                }
                pos++;
            }
            String text = s.substring(start, pos);
            if (dbl) {
                try {
                    if (text.startsWith(".") && text.length() == 1 || text.endsWith("e") || text.endsWith("E")
                            || text.endsWith("+") || text.endsWith("-")) {
                        throw new NumberFormatException();
                    }
                    return new Const(ScriptValue.ofDouble(Double.parseDouble(text)));
                } catch (NumberFormatException e) {
                    throw new ScriptException("bad number " + quote(text));
                }
            }
            try {
                return new Const(ScriptValue.of(Long.parseLong(text)));
            } catch (NumberFormatException e) {
                if (text.equals("9223372036854775808")) {
                    return new MinInt();
                }
                throw new ScriptException("bad integer " + quote(text));
            }
        }
    }

    /** Maps variable names to slots, Go's script.Vars; :scale and :client_id first. */
    final class ScriptVars {
        private final Map<String, Integer> slots = new HashMap<>();
        private final List<String> names = new ArrayList<>();

        ScriptVars() {
            define(ScriptParser.VAR_SCALE);
            define(ScriptParser.VAR_CLIENT_ID);
        }

        int define(String name) {
            Integer s = slots.get(name);
            if (s != null) {
                return s;
            }
            slots.put(name, names.size());
            names.add(name);
            return names.size() - 1;
        }

        Integer lookup(String name) {
            return slots.get(name);
        }

        int size() {
            return names.size();
        }
    }
}
