package dev.sqlbench.jdbc;

import java.nio.charset.StandardCharsets;

/**
 * The seeded data generator of Go's bench/datagen.go, reimplemented so that
 * both runners write byte-for-byte the same rows and check them with the same
 * checksums (all arithmetic on longs is mod 2^64, as Go's uint64):
 * Mix(k) is SplitMix64's output function on DATA_SEED + (k+1)*golden gamma;
 * the pool's byte k is ALPHABET[Mix(k) % 62]; a value is width bytes of the
 * pool from Mix(VALUE_BASE + row*cols + col) % (POOL_SIZE - width + 1); a
 * row's hash is Mix of the FNV-1a hash of its values joined by 0x1F, and a
 * table's checksum the count and sum of its rows' hashes.
 */
public final class DataGen {
    /** Seeds every generated value. */
    public static final long DATA_SEED = 0x5EEDDA7AL;
    /** The size of the pool values are cut from. */
    public static final int POOL_SIZE = 1 << 20;
    /** Separates the counters of values from those of the pool. */
    public static final long VALUE_BASE = 1L << 32;
    /** What generated text is made of. */
    public static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final byte[] POOL = pool();

    private DataGen() {
    }

    /** Returns the k-th output of SplitMix64 seeded with DATA_SEED. */
    public static long mix(long k) {
        long z = DATA_SEED + (k + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static byte[] pool() {
        byte[] b = new byte[POOL_SIZE];
        byte[] a = ALPHABET.getBytes(StandardCharsets.US_ASCII);
        for (int k = 0; k < b.length; k++) {
            b[k] = a[(int) Long.remainderUnsigned(mix(k), a.length)];
        }
        return b;
    }

    /** Returns the offset in the pool of the value of column col (of cols) in row row, width bytes long. */
    public static int offset(long row, int col, int cols, int width) {
        width = Math.min(width, POOL_SIZE);
        return (int) Long.remainderUnsigned(mix(VALUE_BASE + row * cols + col), POOL_SIZE - width + 1);
    }

    /** Returns the generated text of column col (of cols) in row row, width bytes long. */
    public static String value(long row, int col, int cols, int width) {
        width = Math.min(width, POOL_SIZE);
        return new String(POOL, offset(row, col, cols, width), width, StandardCharsets.US_ASCII);
    }

    /** Copies the value of column col (of cols) in row row, width bytes long, into dst at off. */
    public static void copyValue(long row, int col, int cols, int width, byte[] dst, int off) {
        width = Math.min(width, POOL_SIZE);
        System.arraycopy(POOL, offset(row, col, cols, width), dst, off, width);
    }

    /** Hashes one row value by value, as Go's bench.RowHasher. */
    public static final class RowHasher {
        private long h = FNV_OFFSET;
        private boolean first = true;

        private void sep() {
            if (!first) {
                h = (h ^ 0x1F) * FNV_PRIME;
            }
            first = false;
        }

        /** Adds the next value of the row (its UTF-8 bytes). */
        public RowHasher add(String v) {
            sep();
            for (byte c : v.getBytes(StandardCharsets.UTF_8)) {
                h = (h ^ (c & 0xFF)) * FNV_PRIME;
            }
            return this;
        }

        /** Adds len bytes of b from off. */
        public RowHasher add(byte[] b, int off, int len) {
            sep();
            for (int i = off; i < off + len; i++) {
                h = (h ^ (b[i] & 0xFF)) * FNV_PRIME;
            }
            return this;
        }

        /** Adds an integer value, hashed as its decimal text. */
        public RowHasher addInt(long v) {
            return add(Long.toString(v));
        }

        /** Returns the row's hash. */
        public long sum() {
            return mix(h);
        }
    }

    /** Returns the hash of a row of text values. */
    public static long rowHash(String... values) {
        RowHasher h = new RowHasher();
        for (String v : values) {
            h.add(v);
        }
        return h.sum();
    }

    /**
     * An order-independent digest of a set of rows: their count and the sum
     * of their hashes.
     *
     * @param rows the number of rows
     * @param sum the sum of their hashes, mod 2^64
     */
    public record Checksum(long rows, long sum) {
        /** Returns the checksum with one more row of hash h. */
        public Checksum add(long h) {
            return new Checksum(rows + 1, sum + h);
        }
    }

    /** Returns the checksum of rows [first, first+n) of the generated table with cols columns of width bytes. */
    public static Checksum generatedChecksum(long first, long n, int cols, int width) {
        long sum = 0;
        for (long i = first; i < first + n; i++) {
            RowHasher h = new RowHasher();
            for (int j = 0; j < cols; j++) {
                h.add(POOL, offset(i, j, cols, width), Math.min(width, POOL_SIZE));
            }
            sum += h.sum();
        }
        return new Checksum(n, sum);
    }
}
