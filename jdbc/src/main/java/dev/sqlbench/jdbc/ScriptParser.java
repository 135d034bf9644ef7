package dev.sqlbench.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses pgbench-style script files, the twin of Go's script.Parse: SQL
 * statements ending with ';', \set and \sleep meta-commands, :name
 * references taken out as parameters. The grammar, classification of
 * statements and error texts are Go's.
 */
public final class ScriptParser {
    /** The built-in variables every script has, in slots 0 and 1. */
    static final String VAR_SCALE = "scale", VAR_CLIENT_ID = "client_id";

    private ScriptParser() {
    }

    /** What a command is. */
    enum Kind { SQL, SET, SLEEP }

    /** How a statement runs. */
    enum StmtClass { ROWS, EXEC, TX_CONTROL }

    /** What a transaction-control statement does. */
    enum TxOp { OTHER, BEGIN, COMMIT, ROLLBACK }

    /** One command of a script; unit is a \sleep's unit in nanoseconds. */
    record Command(Kind kind, int line, Statement stmt, int slot, ScriptExpr expr, long unit) {
    }

    /** One parsed script file. */
    static final class Script {
        final String name;
        final int weight;
        final List<Command> commands = new ArrayList<>();
        final List<Statement> stmts = new ArrayList<>();
        final ScriptExpr.ScriptVars vars = new ScriptExpr.ScriptVars();

        Script(String name, int weight) {
            this.name = name;
            this.weight = weight;
        }
    }

    /** One SQL statement of a script, its :variables taken out as parameters. */
    static final class Statement {
        final String script;
        final int line, index;
        final String sql;
        StmtClass cls;
        boolean deterministic;
        TxOp txOp = TxOp.OTHER;
        final List<String> parts = new ArrayList<>();
        final List<Integer> params = new ArrayList<>();

        Statement(String script, int line, int index, String sql) {
            this.script = script;
            this.line = line;
            this.index = index;
            this.sql = sql;
        }

        /** Names the statement: file:line. */
        String label() {
            return script + ":" + line;
        }

        /** Returns the SQL with JDBC's ? for every parameter. */
        String jdbcText() {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < parts.size(); i++) {
                b.append(parts.get(i));
                if (i < params.size()) {
                    b.append('?');
                }
            }
            return b.toString();
        }
    }

    static boolean isIdent(char c, boolean first) {
        return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9';
    }

    /** Parses file name with content text and weight; a problem names the file and line. */
    static Script parse(String name, String text, int weight) throws ScriptException {
        if (weight < 1) {
            throw new ScriptException(name, 1, "weight must be at least 1, got " + weight);
        }
        Script sc = new Script(name, weight);
        Scanner p = new Scanner(text);
        while (true) {
            p.skipBlank();
            if (p.eof()) {
                break;
            }
            int line = p.line;
            if (text.charAt(p.pos) == '\\') {
                String meta = p.metaLine();
                try {
                    sc.commands.add(meta(sc, meta, line));
                } catch (ScriptException e) {
                    throw new ScriptException(name, line, e.getMessage());
                }
                continue;
            }
            Statement st;
            try {
                st = compile(sc, p.statement(), line);
            } catch (ScriptException e) {
                throw new ScriptException(name, line, e.getMessage());
            }
            if (st == null) {
                continue;
            }
            sc.commands.add(new Command(Kind.SQL, line, st, 0, null, 0));
            sc.stmts.add(st);
        }
        if (sc.stmts.isEmpty()) {
            throw new ScriptException(name, p.line, "no SQL statement in the script");
        }
        return sc;
    }

    private static Command meta(Script sc, String text, int line) throws ScriptException {
        String[] fields = text.trim().split("\\s+");
        switch (fields[0]) {
            case "\\set" -> {
                if (fields.length < 3) {
                    throw new ScriptException("\\set needs a variable name and an expression");
                }
                String name = fields[1];
                for (int i = 0; i < name.length(); i++) {
                    if (!isIdent(name.charAt(i), i == 0)) {
                        throw new ScriptException("\\set: bad variable name " + ScriptExpr.quote(name));
                    }
                }
                if (name.equals(VAR_SCALE) || name.equals(VAR_CLIENT_ID)) {
                    throw new ScriptException("\\set: :" + name + " is set by sqlbench");
                }
                String rest = text.substring(text.indexOf(name) + name.length()).trim();
                ScriptExpr e;
                try {
                    e = ScriptExpr.parse(rest, sc.vars);
                } catch (ScriptException x) {
                    throw new ScriptException("\\set " + name + ": " + x.getMessage());
                }
                return new Command(Kind.SET, line, null, sc.vars.define(name), e, 0);
            }
            case "\\sleep" -> {
                if (fields.length < 2 || fields.length > 3) {
                    throw new ScriptException("\\sleep takes a number or :variable and a unit (us, ms, s)");
                }
                long unit = 1_000_000_000L;
                if (fields.length == 3) {
                    unit = switch (fields[2]) {
                        case "us" -> 1_000L;
                        case "ms" -> 1_000_000L;
                        case "s" -> 1_000_000_000L;
                        default -> throw new ScriptException(
                                "\\sleep: unknown unit " + ScriptExpr.quote(fields[2]) + " (us, ms, s)");
                    };
                }
                ScriptExpr e;
                if (fields[1].startsWith(":")) {
                    Integer slot = sc.vars.lookup(fields[1].substring(1));
                    if (slot == null) {
                        throw new ScriptException("\\sleep: unknown variable " + fields[1]);
                    }
                    e = new ScriptExpr.Var(slot);
                } else {
                    long n;
                    try {
                        n = Long.parseLong(fields[1]);
                    } catch (NumberFormatException x) {
                        n = -1;
                    }
                    if (n < 0) {
                        throw new ScriptException(
                                "\\sleep: " + ScriptExpr.quote(fields[1]) + " is not a non-negative integer");
                    }
                    e = new ScriptExpr.Const(ScriptValue.of(n));
                }
                return new Command(Kind.SLEEP, line, null, 0, e, unit);
            }
            default -> throw new ScriptException(
                    "unsupported meta-command " + fields[0] + " (sqlbench has \\set and \\sleep)");
        }
    }

    /** The volatile functions of Go's volatileWords. */
    private static final Set<String> VOLATILE = Set.of("NOW", "RANDOM", "RAND", "UUID", "GEN_RANDOM_UUID",
            "CURRENT_TIMESTAMP", "CURRENT_TIME", "CURRENT_DATE", "LOCALTIMESTAMP", "LOCALTIME", "CLOCK_TIMESTAMP",
            "STATEMENT_TIMESTAMP", "TRANSACTION_TIMESTAMP", "TIMEOFDAY", "SYSDATE", "UNIX_TIMESTAMP", "UTC_TIMESTAMP",
            "CONNECTION_ID", "PG_BACKEND_PID", "RANDOMBLOB", "CURDATE", "CURTIME", "UUID_SHORT");

    /** Collects the words of SQL code, upper case, and notes volatile calls. */
    private static final class Words {
        final StringBuilder cur = new StringBuilder();
        final List<String> words = new ArrayList<>();
        boolean vol;

        void add(char c) {
            if (isIdent(c, false)) {
                cur.append(c >= 'a' && c <= 'z' ? (char) (c - 32) : c);
                return;
            }
            if (cur.length() > 0) {
                String w = cur.toString();
                words.add(w);
                vol |= VOLATILE.contains(w);
                cur.setLength(0);
            }
        }
    }

    private static Statement compile(Script sc, String sql, int line) throws ScriptException {
        sql = sql.strip();
        if (sql.isEmpty()) {
            return null;
        }
        Statement st = new Statement(sc.name, line, sc.stmts.size(), sql);
        StringBuilder part = new StringBuilder();
        Words words = new Words();
        int start = 0;
        int i = 0;
        while (i <= sql.length()) {
            int end = i;
            if (i < sql.length()) {
                end = skipLiteral(sql, i);
                if (end == i) {
                    i++;
                    continue;
                }
            }
            code(sc, st, sql.substring(start, i), part, words);
            if (i == sql.length()) {
                break;
            }
            String lit = sql.substring(i, end);
            part.append(lit);
            words.vol |= lit.equalsIgnoreCase("'now'");
            start = end;
            i = end;
        }
        st.parts.add(part.toString());
        st.cls = classify(words.words);
        if (st.cls == StmtClass.TX_CONTROL) {
            st.txOp = txOpOf(words.words);
        }
        st.deterministic = !words.vol;
        return st;
    }

    /** Handles one stretch of SQL code (outside literals), as Go's eachToken callback. */
    private static void code(Script sc, Statement st, String tok, StringBuilder part, Words words)
            throws ScriptException {
        if (tok.isEmpty()) {
            return;
        }
        for (int i = 0; i < tok.length(); i++) {
            char c = tok.charAt(i);
            if (c == ':' && i + 1 < tok.length() && tok.charAt(i + 1) == ':') {
                part.append("::");
                i++;
                continue;
            }
            if (c == ':' && i + 1 < tok.length() && isIdent(tok.charAt(i + 1), true)) {
                int j = i + 1;
                while (j < tok.length() && isIdent(tok.charAt(j), false)) {
                    j++;
                }
                String name = tok.substring(i + 1, j);
                Integer slot = sc.vars.lookup(name);
                if (slot == null) {
                    throw new ScriptException("unknown variable :" + name);
                }
                st.parts.add(part.toString());
                part.setLength(0);
                st.params.add(slot);
                words.add(' ');
                i = j - 1;
                continue;
            }
            part.append(c);
            words.add(c);
        }
        words.add(' ');
    }

    static StmtClass classify(List<String> w) {
        if (w.isEmpty()) {
            return StmtClass.EXEC;
        }
        switch (w.get(0)) {
            case "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "ABORT":
                return StmtClass.TX_CONTROL;
            case "SELECT", "WITH", "VALUES", "SHOW", "EXPLAIN", "PRAGMA", "TABLE", "DESCRIBE", "DESC":
                if (w.get(0).equals("WITH") && !w.contains("SELECT") && !w.contains("RETURNING")) {
                    return StmtClass.EXEC;
                }
                if (w.get(0).equals("WITH") && !w.contains("RETURNING")
                        && (w.contains("INSERT") || w.contains("UPDATE") || w.contains("DELETE"))) {
                    return StmtClass.EXEC;
                }
                return StmtClass.ROWS;
            default:
                return w.contains("RETURNING") ? StmtClass.ROWS : StmtClass.EXEC;
        }
    }

    static TxOp txOpOf(List<String> w) {
        if (w.isEmpty()) {
            return TxOp.OTHER;
        }
        return switch (w.get(0)) {
            case "BEGIN", "START" -> TxOp.BEGIN;
            case "COMMIT", "END" -> TxOp.COMMIT;
            case "ROLLBACK", "ABORT" -> w.contains("TO") ? TxOp.OTHER : TxOp.ROLLBACK;
            default -> TxOp.OTHER;
        };
    }

    /**
     * Returns the end of the literal or comment starting at i (i itself when
     * none does); an unterminated one is an error naming it.
     */
    static int skipLiteral(String s, int i) throws ScriptException {
        char c = s.charAt(i);
        if (c == '\'' || c == '"' || c == '`') {
            for (int j = i + 1; j < s.length(); j++) {
                if (s.charAt(j) == c) {
                    if (j + 1 < s.length() && s.charAt(j + 1) == c) {
                        j++;
                        continue;
                    }
                    return j + 1;
                }
            }
            throw new ScriptException("unterminated quoted text (" + c + ")");
        }
        if (c == '-' && s.startsWith("--", i)) {
            int j = s.indexOf('\n', i);
            return j >= 0 ? j + 1 : s.length();
        }
        if (c == '/' && s.startsWith("/*", i)) {
            int j = s.indexOf("*/", i + 2);
            if (j >= 0) {
                return j + 2;
            }
            throw new ScriptException("unterminated comment /*");
        }
        if (c == '$' && (i == 0 || !isIdent(s.charAt(i - 1), false))) {
            int j = i + 1;
            while (j < s.length() && isIdent(s.charAt(j), j == i + 1)) {
                j++;
            }
            if (j < s.length() && s.charAt(j) == '$') {
                String tag = s.substring(i, j + 1);
                int k = s.indexOf(tag, j + 1);
                if (k >= 0) {
                    return k + tag.length();
                }
                throw new ScriptException("unterminated dollar-quoted text " + tag);
            }
        }
        return i;
    }

    /** Cuts a script into meta-command lines and SQL statements. */
    private static final class Scanner {
        final String s;
        int pos;
        int line = 1;

        Scanner(String s) {
            this.s = s;
        }

        boolean eof() {
            return pos >= s.length();
        }

        void skipBlank() {
            while (!eof()) {
                char c = s.charAt(pos);
                if (c == '\n') {
                    line++;
                    pos++;
                } else if (c == ' ' || c == '\t' || c == '\r') {
                    pos++;
                } else if (s.startsWith("--", pos)) {
                    while (!eof() && s.charAt(pos) != '\n') {
                        pos++;
                    }
                } else {
                    return;
                }
            }
        }

        String metaLine() {
            int end = s.indexOf('\n', pos);
            if (end < 0) {
                end = s.length();
            }
            String text = s.substring(pos, end).trim();
            pos = end;
            return text;
        }

        String statement() throws ScriptException {
            int start = pos;
            while (!eof()) {
                if (s.charAt(pos) == ';') {
                    String sql = s.substring(start, pos);
                    pos++;
                    return sql;
                }
                int end = skipLiteral(s, pos);
                if (end == pos) {
                    end++;
                }
                for (int k = pos; k < end; k++) {
                    if (s.charAt(k) == '\n') {
                        line++;
                    }
                }
                pos = end;
            }
            return s.substring(start);
        }
    }

    /** Upper-cases the words of a statement's SQL split on white space. */
    static List<String> upperFields(String sql) {
        return List.of(sql.toUpperCase(Locale.ROOT).trim().split("\\s+"));
    }
}
