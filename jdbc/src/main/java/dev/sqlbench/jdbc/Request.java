package dev.sqlbench.jdbc;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One request line of the runner protocol: a verb, a space, and URL
 * query-encoded parameters (see runner/protocol.go for the grammar).
 */
public final class Request {
    /** Verbs of the protocol. */
    public static final String HELLO = "hello", INFO = "info", RUN = "run", CLOSE = "close", CHECK = "check";

    /** The verb: hello, info, run or close. */
    public final String verb;
    /** What runs: the target, the workload, the database; scope names the cell. */
    public final String target, workload, db, scope;
    /** The benchmark name of the result line, without "Benchmark". */
    public final String name;
    /** The SQLite file, for SQLite targets. */
    public final String dsn;
    /** The server, for server targets (null fields when absent). */
    public final Endpoint endpoint;
    /** Timed and untimed operation counts of a run (of this slice of it). */
    public final int n, warmup;
    /**
     * Where a run request sits in its run: slice {@code slice} of
     * {@code slices} (1-based) of run {@code run}; slices is 0 for a whole run.
     */
    public final int run, slice, slices;
    /** A script workload's spec (script=, Go's script.Spec.Encode), or "". */
    public final String script;
    /** The run's --scale; 0 (not sent) means 1. */
    public final double scale;
    /** The server's main process on this machine, whose CPU is read around each run; 0 when not given. */
    public final int serverPid;
    /**
     * An open-loop run's rate (rate=R, arrivals per second; 0: closed loop), its latency limit and progress
     * interval (latency-limit=NS, progress=NS; 0: none), as Go's protocol.Request.
     */
    public final double rate;
    /** See rate. */
    public final long latencyLimit, progress;

    private Request(String verb, Map<String, String> v, int n, int warmup, int[] slicing, double rate,
            long[] openLoop) {
        this.verb = verb;
        this.target = v.getOrDefault("target", "");
        this.workload = v.getOrDefault("workload", "");
        this.db = v.getOrDefault("db", "");
        this.scope = v.getOrDefault("scope", "");
        this.name = v.getOrDefault("name", "");
        this.dsn = v.getOrDefault("dsn", "");
        this.endpoint = new Endpoint(v.getOrDefault("net", ""), v.getOrDefault("addr", ""),
                v.getOrDefault("user", ""), v.getOrDefault("password", ""), v.getOrDefault("database", ""),
                v.getOrDefault("tls", ""), v.getOrDefault("tls-ca", ""));
        this.n = n;
        this.warmup = warmup;
        this.script = v.getOrDefault("script", "");
        double sc = 0;
        try {
            sc = Double.parseDouble(v.getOrDefault("scale", "0"));
        } catch (NumberFormatException e) {
            sc = 0;
        }
        this.scale = sc > 0 && !Double.isInfinite(sc) ? sc : 0;
        this.run = slicing[0];
        this.slice = slicing[1];
        this.slices = slicing[2];
        int pid = 0;
        try {
            pid = Integer.parseInt(v.getOrDefault("server-pid", "0"));
        } catch (NumberFormatException e) {
            pid = 0; // not a process: the server's CPU goes unread
        }
        this.serverPid = Math.max(0, pid);
        this.rate = rate;
        this.latencyLimit = openLoop[0];
        this.progress = openLoop[1];
    }

    /**
     * Parses one request line with the rules of the Go runner: unknown verbs,
     * malformed parameters, a run without a positive n, a non-negative warmup,
     * a name, workload and scope, and any request but hello without a target
     * are errors.
     */
    public static Request parse(String line) throws ProtocolException {
        String s = line.strip();
        int sp = s.indexOf(' ');
        String verb = sp < 0 ? s : s.substring(0, sp);
        Map<String, String> v = parseQuery(sp < 0 ? "" : s.substring(sp + 1));
        int n = 0, warmup = 0;
        int[] slicing = {0, 0, 0};
        double rate = 0;
        long[] openLoop = {0, 0};
        switch (verb) {
            case HELLO, INFO, CLOSE -> { }
            case CHECK -> {
                if (v.getOrDefault("scope", "").isEmpty() || v.getOrDefault("script", "").isEmpty()) {
                    throw new ProtocolException("check: scope and script are required");
                }
            }
            case RUN -> {
                n = parseInt(v.get("n"));
                if (n < 1) {
                    throw new ProtocolException(
                            "run: n must be a positive integer, got \"" + v.getOrDefault("n", "") + "\"");
                }
                warmup = parseInt(v.get("warmup"));
                if (warmup < 0) {
                    throw new ProtocolException("run: warmup must be a non-negative integer, got \""
                            + v.getOrDefault("warmup", "") + "\"");
                }
                if (v.getOrDefault("name", "").isEmpty() || v.getOrDefault("workload", "").isEmpty()
                        || v.getOrDefault("scope", "").isEmpty()) {
                    throw new ProtocolException("run: name, workload and scope are required");
                }
                if (v.containsKey("slices")) {
                    slicing = new int[] {parseInt(v.get("run")), parseInt(v.get("slice")), parseInt(v.get("slices"))};
                    if (slicing[0] < 1 || slicing[2] < 1 || slicing[1] < 1 || slicing[1] > slicing[2]) {
                        throw new ProtocolException("run: bad slice \"" + v.getOrDefault("slice", "") + "\" of \""
                                + v.get("slices") + "\" in run \"" + v.getOrDefault("run", "") + "\"");
                    }
                }
                rate = parseRate(v.getOrDefault("rate", ""));
                String[] keys = {"latency-limit", "progress"};
                for (int k = 0; k < keys.length; k++) {
                    String x = v.getOrDefault(keys[k], "");
                    if (x.isEmpty()) {
                        continue;
                    }
                    long ns;
                    try {
                        ns = Long.parseLong(x);
                    } catch (NumberFormatException e) {
                        ns = 0;
                    }
                    if (ns < 1) {
                        throw new ProtocolException("run: " + keys[k]
                                + " must be a positive number of nanoseconds, got \"" + x + "\"");
                    }
                    if (rate == 0) {
                        throw new ProtocolException("run: " + keys[k] + " needs a rate");
                    }
                    openLoop[k] = ns;
                }
            }
            default -> throw new ProtocolException("unknown verb \"" + verb + "\"");
        }
        if (!verb.equals(HELLO) && v.getOrDefault("target", "").isEmpty()) {
            throw new ProtocolException(verb + ": target is required");
        }
        return new Request(verb, v, n, warmup, slicing, rate, openLoop);
    }

    /** Parses rate=R as Go's parseOpenLoop: "" is 0 (closed loop), else a positive finite number. */
    private static double parseRate(String s) throws ProtocolException {
        if (s.isEmpty()) {
            return 0;
        }
        double r;
        try {
            r = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            r = Double.NaN;
        }
        if (!(r > 0) || Double.isInfinite(r)) {
            throw new ProtocolException("run: rate must be a positive number of operations per second, got \"" + s
                    + "\"");
        }
        return r;
    }

    /** Returns -1 for anything but a non-negative decimal integer. */
    private static int parseInt(String s) {
        if (s == null || s.isEmpty()) {
            return -1;
        }
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Decodes key=value pairs joined by '&'; the first value of a key wins, as in Go's url.Values.Get. */
    static Map<String, String> parseQuery(String q) throws ProtocolException {
        Map<String, String> out = new LinkedHashMap<>();
        if (q.isEmpty()) {
            return out;
        }
        for (String pair : q.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            if (pair.indexOf(';') >= 0) {
                throw new ProtocolException("bad parameters: invalid semicolon separator in query");
            }
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String val = eq < 0 ? "" : pair.substring(eq + 1);
            try {
                out.putIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8),
                        URLDecoder.decode(val, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new ProtocolException("bad parameters: invalid escape in \"" + k + "\"");
            }
        }
        return out;
    }
}
