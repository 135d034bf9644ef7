package dev.sqlbench.jdbc;

/**
 * Nanosecond durations written as Go's time.Duration.String writes them
 * ("974µs", "1.106248s", "2m3.5s"), so that the orchestrator reads a Java
 * runner's progress lines with time.ParseDuration, as a Go runner's.
 */
final class GoDuration {
    private static final long US = 1_000, MS = 1_000_000, S = 1_000_000_000, MIN = 60 * S, H = 60 * MIN;

    private GoDuration() {
    }

    /** Returns d rounded to a multiple of m, halfway values away from zero, as Go's Duration.Round. */
    static long round(long d, long m) {
        if (m <= 0) {
            return d;
        }
        if (d < 0) {
            return -round(-d, m);
        }
        long r = d % m;
        return r + r < m ? d - r : d - r + m;
    }

    /** Returns d as Go's Duration.String does. */
    static String format(long d) {
        if (d == 0) {
            return "0s";
        }
        String sign = d < 0 ? "-" : "";
        long u = Math.abs(d);
        if (u < US) {
            return sign + u + "ns";
        }
        if (u < MS) {
            return sign + frac(u, US) + "µs";
        }
        if (u < S) {
            return sign + frac(u, MS) + "ms";
        }
        StringBuilder b = new StringBuilder(sign);
        long h = u / H, m = u % H / MIN;
        if (h > 0) {
            b.append(h).append('h');
        }
        if (h > 0 || m > 0) {
            b.append(m).append('m');
        }
        return b.append(frac(u % MIN, S)).append('s').toString();
    }

    /** v / unit in decimal, the fraction's trailing zeros dropped. */
    private static String frac(long v, long unit) {
        long whole = v / unit, f = v % unit;
        if (f == 0) {
            return Long.toString(whole);
        }
        String digits = Long.toString(unit + f).substring(1).replaceAll("0+$", "");
        return whole + "." + digits;
    }
}
