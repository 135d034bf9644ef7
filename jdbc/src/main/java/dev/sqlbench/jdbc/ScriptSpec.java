package dev.sqlbench.jdbc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A script workload as the session sends it (script=, Go's
 * script.Spec.Encode, JSON), decoded and compiled: the scripts with their
 * weights, the setup script, the query mode, the clients and the time of a
 * run.
 */
public final class ScriptSpec {
    /** The most clients and the longest run Go's Compile accepts. */
    static final int MAX_CLIENTS = 256;
    static final long MAX_TIME_NANOS = 24L * 3600 * 1_000_000_000L;

    final List<ScriptParser.Script> scripts = new ArrayList<>();
    ScriptParser.Script setup;
    String mode = "simple";
    int clients = 1;
    long timeNanos;
    int total;

    private ScriptSpec() {
    }

    /** Returns every statement of the scripts, in order: what stmtN numbers. */
    List<ScriptParser.Statement> statements() {
        List<ScriptParser.Statement> out = new ArrayList<>();
        for (ScriptParser.Script sc : scripts) {
            out.addAll(sc.stmts);
        }
        return out;
    }

    /** Decodes and compiles a spec; the first problem names its file and line. */
    public static ScriptSpec compile(String json) throws Exception {
        Object v;
        try {
            v = new Json(json).value();
        } catch (RuntimeException e) {
            throw new Exception("script spec: " + e.getMessage(), e);
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw new Exception("script spec: not an object");
        }
        ScriptSpec s = new ScriptSpec();
        if (!(m.get("scripts") instanceof List<?> l) || l.isEmpty()) {
            throw new Exception("no script");
        }
        Object mode = m.get("mode");
        if (mode != null && !mode.equals("")) {
            s.mode = mode.toString();
        }
        if (!List.of("simple", "extended", "prepared").contains(s.mode)) {
            throw new Exception("query mode must be simple, extended or prepared, got \"" + s.mode + "\"");
        }
        long clients = num(m.get("clients"));
        if (clients < 0 || clients > MAX_CLIENTS) {
            throw new Exception("clients must be 1 to " + MAX_CLIENTS + ", got " + clients);
        }
        s.clients = clients == 0 ? 1 : (int) clients;
        s.timeNanos = num(m.get("time"));
        if (s.timeNanos < 0 || s.timeNanos > MAX_TIME_NANOS) {
            throw new Exception("time must be at most 24h0m0s, got " + s.timeNanos + "ns");
        }
        for (Object o : l) {
            Map<?, ?> src = (Map<?, ?>) o;
            ScriptParser.Script sc = ScriptParser.parse(str(src.get("name")), str(src.get("text")),
                    (int) Math.max(num(src.get("weight")), 1));
            s.scripts.add(sc);
            s.total += sc.weight;
        }
        if (m.get("setup") instanceof Map<?, ?> src) {
            s.setup = ScriptParser.parse(str(src.get("name")), str(src.get("text")), 1);
        }
        return s;
    }

    private static long num(Object o) {
        return o instanceof Number n ? n.longValue() : 0;
    }

    private static String str(Object o) {
        return o == null ? "" : o.toString();
    }

    /** A small JSON reader: objects, arrays, strings, integers, true, false, null. */
    static final class Json {
        private final String s;
        private int pos;

        Json(String s) {
            this.s = s;
        }

        Object value() {
            Object v = read();
            ws();
            if (pos != s.length()) {
                throw new IllegalArgumentException("trailing text at offset " + pos);
            }
            return v;
        }

        private void ws() {
            while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
        }

        private char next() {
            if (pos >= s.length()) {
                throw new IllegalArgumentException("unexpected end of JSON input");
            }
            return s.charAt(pos++);
        }

        private void expect(char c) {
            ws();
            if (next() != c) {
                throw new IllegalArgumentException("expected " + c + " at offset " + (pos - 1));
            }
        }

        private Object read() {
            ws();
            char c = next();
            switch (c) {
                case '{' -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (s.startsWith("}", pos)) {
                        pos++;
                        return m;
                    }
                    while (true) {
                        ws();
                        if (next() != '"') {
                            throw new IllegalArgumentException("expected a key at offset " + (pos - 1));
                        }
                        String k = string();
                        expect(':');
                        m.put(k, read());
                        ws();
                        char d = next();
                        if (d == '}') {
                            return m;
                        }
                        if (d != ',') {
                            throw new IllegalArgumentException("expected , or } at offset " + (pos - 1));
                        }
                    }
                }
                case '[' -> {
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (s.startsWith("]", pos)) {
                        pos++;
                        return l;
                    }
                    while (true) {
                        l.add(read());
                        ws();
                        char d = next();
                        if (d == ']') {
                            return l;
                        }
                        if (d != ',') {
                            throw new IllegalArgumentException("expected , or ] at offset " + (pos - 1));
                        }
                    }
                }
                case '"' -> {
                    return string();
                }
                default -> {
                    pos--;
                    for (String w : new String[] {"true", "false", "null"}) {
                        if (s.startsWith(w, pos)) {
                            pos += w.length();
                            return w.equals("null") ? null : Boolean.valueOf(w);
                        }
                    }
                    int start = pos;
                    while (pos < s.length() && "-+0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                        pos++;
                    }
                    String t = s.substring(start, pos);
                    try {
                        return Long.parseLong(t);
                    } catch (NumberFormatException e) {
                        try {
                            return Double.parseDouble(t);
                        } catch (NumberFormatException e2) {
                            throw new IllegalArgumentException("bad value at offset " + start);
                        }
                    }
                }
            }
        }

        private String string() {
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case 'n' -> b.append('\n');
                    case 't' -> b.append('\t');
                    case 'r' -> b.append('\r');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw new IllegalArgumentException("bad \\u escape");
                        }
                        b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> b.append(e);
                }
            }
        }
    }
}
