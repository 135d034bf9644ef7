package dev.sqlbench.jdbc;

/**
 * The value of a script variable or expression, Go's script.Value: a
 * 64-bit integer or a double, as in pgbench.
 *
 * @param i the integer, when not isDouble
 * @param f the double, when isDouble
 * @param isDouble whether the value is a double
 */
public record ScriptValue(long i, double f, boolean isDouble) {
    /** Returns an integer value. */
    public static ScriptValue of(long i) {
        return new ScriptValue(i, 0, false);
    }

    /** Returns a double value. */
    public static ScriptValue ofDouble(double f) {
        return new ScriptValue(0, f, true);
    }

    /** Returns the value as a double. */
    double asDouble() {
        return isDouble ? f : (double) i;
    }

    /** Returns the value as a query parameter: a Long or a Double. */
    public Object arg() {
        return isDouble ? (Object) f : (Object) i;
    }

    /** Converts to an integer as pgbench coerces a double: finite, within range, fraction dropped. */
    long toInt() throws ScriptException {
        if (!isDouble) {
            return i;
        }
        if (Double.isNaN(f) || f < -0x1p63 || f >= 0x1p63) {
            throw new ScriptException("double " + GoFloat.format(f, 'g') + " out of the integer range");
        }
        return (long) f;
    }

    @Override
    public String toString() {
        return isDouble ? GoFloat.format(f, 'g') : Long.toString(i);
    }
}
