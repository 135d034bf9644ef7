package dev.sqlbench.jdbc;

import java.util.HashMap;
import java.util.Map;

/**
 * The expression functions of Go's script/funcs.go, with the same draws
 * from the stream: random, random_exponential, random_gaussian,
 * random_zipfian, abs, int, double, sqrt, pi, least, greatest. The
 * distributions use StrictMath (fdlibm), whose results Go's own math
 * package (a port of the same FreeBSD code) shares.
 */
final class ScriptFunctions {
    private ScriptFunctions() {
    }

    /** A function's body. */
    @FunctionalInterface
    interface Body {
        ScriptValue apply(ScriptValue[] a, ScriptRand r) throws ScriptException;
    }

    /** A function an expression may call. */
    record Fn(String name, int min, int max, Body call) {
        String arity() {
            if (min == max && min == 1) {
                return "1 argument";
            }
            if (min == max) {
                return min + " arguments";
            }
            if (max > 16) {
                return "at least " + min + " argument(s)";
            }
            return min + " to " + max + " arguments";
        }
    }

    static final Map<String, Fn> ALL = build();
    private static final int ZIPF_TRIES = 1_000_000;

    private static void def(Map<String, Fn> m, String name, int min, int max, Body b) {
        m.put(name, new Fn(name, min, max, b));
    }

    private static Map<String, Fn> build() {
        Map<String, Fn> m = new HashMap<>();
        def(m, "random", 2, 2, (a, r) -> {
            long[] b = bounds(a);
            return ScriptValue.of(uniform(r, b[0], b[1]));
        });
        def(m, "random_exponential", 3, 3, (a, r) -> {
            long[] b = bounds(a);
            return ScriptValue.of(exponential(r, b[0], b[1], a[2].asDouble()));
        });
        def(m, "random_gaussian", 3, 3, (a, r) -> {
            long[] b = bounds(a);
            return ScriptValue.of(gaussian(r, b[0], b[1], a[2].asDouble()));
        });
        def(m, "random_zipfian", 3, 3, (a, r) -> {
            long[] b = bounds(a);
            return ScriptValue.of(zipfian(r, b[0], b[1], a[2].asDouble()));
        });
        def(m, "abs", 1, 1, (a, r) -> {
            if (a[0].isDouble()) {
                return ScriptValue.ofDouble(Math.abs(a[0].f()));
            }
            if (a[0].i() == Long.MIN_VALUE) {
                throw new ScriptException("integer out of range");
            }
            return a[0].i() < 0 ? ScriptValue.of(-a[0].i()) : a[0];
        });
        def(m, "int", 1, 1, (a, r) -> ScriptValue.of(a[0].toInt()));
        def(m, "double", 1, 1, (a, r) -> ScriptValue.ofDouble(a[0].asDouble()));
        def(m, "sqrt", 1, 1, (a, r) -> ScriptValue.ofDouble(StrictMath.sqrt(a[0].asDouble())));
        def(m, "pi", 0, 0, (a, r) -> ScriptValue.ofDouble(Math.PI));
        def(m, "least", 1, 99, (a, r) -> extreme(a, -1));
        def(m, "greatest", 1, 99, (a, r) -> extreme(a, 1));
        return Map.copyOf(m);
    }

    private static ScriptValue extreme(ScriptValue[] a, double sign) {
        boolean anyDouble = false;
        for (ScriptValue v : a) {
            anyDouble |= v.isDouble();
        }
        ScriptValue best = a[0];
        for (int k = 1; k < a.length; k++) {
            ScriptValue v = a[k];
            if (anyDouble) {
                if ((v.asDouble() - best.asDouble()) * sign > 0) {
                    best = v;
                }
            } else if ((v.i() > best.i()) == (sign > 0) && v.i() != best.i()) {
                best = v;
            }
        }
        return anyDouble ? ScriptValue.ofDouble(best.asDouble()) : best;
    }

    private static long[] bounds(ScriptValue[] a) throws ScriptException {
        long lo = a[0].toInt(), hi = a[1].toInt();
        if (lo > hi) {
            throw new ScriptException("empty range [" + lo + ", " + hi + "]");
        }
        if (hi - lo < 0 || hi - lo == Long.MAX_VALUE) {
            throw new ScriptException("range [" + lo + ", " + hi + "] too wide");
        }
        return new long[] {lo, hi};
    }

    /** Draws from [lo, hi] with equal probability (Go's Uniform). */
    static long uniform(ScriptRand r, long lo, long hi) {
        return lo + r.nextLong(hi - lo + 1);
    }

    /** Go's Exponential. */
    static long exponential(ScriptRand r, long lo, long hi, double param) throws ScriptException {
        if (!(param > 0) || Double.isInfinite(param)) {
            throw new ScriptException("parameter must be greater than 0, got " + GoFloat.format(param, 'g'));
        }
        double cut = StrictMath.exp(-param);
        double u = 1 - r.nextDouble();
        double x = -StrictMath.log(cut + (1 - cut) * u) / param;
        return clampDraw(lo, hi, x);
    }

    /** Go's Gaussian. */
    static long gaussian(ScriptRand r, long lo, long hi, double param) throws ScriptException {
        if (!(param >= 2) || Double.isInfinite(param)) {
            throw new ScriptException("parameter must be at least 2, got " + GoFloat.format(param, 'g'));
        }
        for (int k = 0; k < 1000; k++) {
            double z = r.nextGaussian();
            if (z >= -param && z < param) {
                return clampDraw(lo, hi, (z + param) / (2 * param));
            }
        }
        throw new ScriptException("no draw within the cut after 1000 attempts");
    }

    /** Go's Zipfian: Devroye's rejection method, values beyond the range redrawn. */
    static long zipfian(ScriptRand r, long lo, long hi, double s) throws ScriptException {
        if (!(s >= 1.001 && s <= 1000)) {
            throw new ScriptException("parameter must be in [1.001, 1000], got " + GoFloat.format(s, 'g'));
        }
        double n = (double) (hi - lo + 1);
        double b = StrictMath.pow(2, s - 1);
        for (int k = 0; k < ZIPF_TRIES; k++) {
            double u = 1 - r.nextDouble();
            double v = r.nextDouble();
            double x = StrictMath.floor(StrictMath.pow(u, -1 / (s - 1)));
            if (x > n || x < 1 || Double.isInfinite(x) || Double.isNaN(x)) {
                continue;
            }
            double t = StrictMath.pow(1 + 1 / x, s - 1);
            if (v * x * (t - 1) / (b - 1) <= t / b) {
                return lo + (long) x - 1;
            }
        }
        throw new ScriptException("no draw within [" + lo + ", " + hi + "] after " + ZIPF_TRIES + " attempts");
    }

    private static long clampDraw(long lo, long hi, double x) {
        double w = (double) (hi - lo) + 1;
        long d = (long) (w * x);
        if (d < 0) {
            d = 0;
        }
        if (d > hi - lo) {
            d = hi - lo;
        }
        return lo + d;
    }
}
