package dev.sqlbench.jdbc;

/**
 * The random stream of a script execution, the twin of Go's script.Rand:
 * SplitMix64 with the same seeding and draws, so that the JDBC runner draws
 * exactly the values a Go runner draws for the same execution (see
 * docs/scripts.md, "The random stream"). Unsigned 64-bit arithmetic is done
 * on longs.
 */
public final class ScriptRand {
    static final long GOLDEN = 0x9e3779b97f4a7c15L;
    private static final int MAX_REJECTIONS = 1000;
    private long s;

    /** Returns stream number stream of seed. */
    public ScriptRand(long seed, long stream) {
        seed(seed, stream);
    }

    /** Returns a stream whose state is state, unmixed (for tests against SplitMix64's reference). */
    static ScriptRand ofState(long state) {
        ScriptRand r = new ScriptRand(0, 0);
        r.s = state;
        return r;
    }

    /** SplitMix64's output function. */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** Restarts the stream as stream number stream of seed. */
    public void seed(long seed, long stream) {
        s = mix64(seed) ^ mix64(stream + GOLDEN);
    }

    /** Returns the next 64 random bits. */
    public long nextLong() {
        s += GOLDEN;
        return mix64(s);
    }

    /** Returns a number in [0, 1): the top 53 bits of the next draw. */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1p-53;
    }

    /** Returns an integer in [0, n), n > 0, as Go's Int64N: redrawing below 2^64 mod n. */
    public long nextLong(long n) {
        long thresh = Long.remainderUnsigned(-n, n);
        long x = nextLong();
        for (int i = 0; Long.compareUnsigned(x, thresh) < 0 && i < MAX_REJECTIONS; i++) {
            x = nextLong();
        }
        return Long.remainderUnsigned(x, n);
    }

    /** Returns a standard normal number by the Box-Muller transform of two draws. */
    public double nextGaussian() {
        double u1 = 1 - nextDouble();
        double u2 = nextDouble();
        return StrictMath.sqrt(-2 * StrictMath.log(u1)) * StrictMath.cos(2 * Math.PI * u2);
    }
}
