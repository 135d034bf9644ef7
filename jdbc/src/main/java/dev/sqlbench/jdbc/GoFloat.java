package dev.sqlbench.jdbc;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Formats a double as Go's strconv.FormatFloat(f, 'g', -1, 64): the
 * shortest decimal digits that read back as f, in %e form when the exponent
 * is below -4 or at least 6 (two exponent digits at least, with a sign),
 * else plain.
 */
final class GoFloat {
    private GoFloat() {
    }

    /**
     * Returns the fewest significant digits that read back as f (f > 0,
     * finite): f's exact value rounded to 1, 2 ... 17 digits, the first that
     * parses back to f. (Java 17's Double.toString is not always shortest.)
     */
    static BigDecimal shortest(double f) {
        BigDecimal exact = new BigDecimal(f);
        for (int p = 1; p < 17; p++) {
            BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (r.doubleValue() == f) {
                return r.stripTrailingZeros();
            }
        }
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
    }

    /** Returns f in Go's 'g' format with the shortest precision. */
    static String format(double f, char fmt) {
        if (Double.isNaN(f)) {
            return "NaN";
        }
        if (Double.isInfinite(f)) {
            return f > 0 ? "+Inf" : "-Inf";
        }
        boolean neg = f < 0 || (f == 0 && 1 / f < 0);
        StringBuilder b = new StringBuilder();
        if (neg) {
            b.append('-');
        }
        if (f == 0) {
            return b.append('0').toString();
        }
        BigDecimal d = shortest(Math.abs(f));
        String digits = d.unscaledValue().toString();
        int nd = digits.length();
        int dp = nd - d.scale(); // the decimal point's place after the first digit... digits before it
        int exp = dp - 1;
        if (exp < -4 || exp >= 6) {
            b.append(digits.charAt(0));
            if (nd > 1) {
                b.append('.').append(digits, 1, nd);
            }
            b.append('e').append(exp < 0 ? '-' : '+');
            int e = Math.abs(exp);
            if (e < 10) {
                b.append('0');
            }
            return b.append(e).toString();
        }
        if (dp <= 0) {
            b.append("0.");
            b.append("0".repeat(-dp)).append(digits);
        } else if (dp >= nd) {
            b.append(digits).append("0".repeat(dp - nd));
        } else {
            b.append(digits, 0, dp).append('.').append(digits, dp, nd);
        }
        return b.toString();
    }
}
