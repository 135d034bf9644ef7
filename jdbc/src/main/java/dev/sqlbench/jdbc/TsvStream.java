package dev.sqlbench.jdbc;

import java.io.InputStream;

/**
 * Generated rows [first, first+n) of a bulk table as tab-separated text, one
 * row per line, made as they are read (the input of PostgreSQL's COPY text
 * format and of LOAD DATA's default format), as Go's tsvReader. Generated
 * values are letters and digits, so nothing needs escaping.
 */
final class TsvStream extends InputStream {
    private final int cols, width;
    private final byte[] row;
    private long next, end;
    private int pos, len;

    TsvStream(int cols, int width, long first, long n) {
        this.cols = cols;
        this.width = width;
        this.row = new byte[cols * (width + 1)];
        this.next = first;
        this.end = first + n;
    }

    private boolean fill() {
        if (next >= end) {
            return false;
        }
        int k = 0;
        for (int c = 0; c < cols; c++) {
            DataGen.copyValue(next, c, cols, width, row, k);
            k += width;
            row[k++] = '\t';
        }
        row[k - 1] = '\n';
        next++;
        pos = 0;
        len = k;
        return true;
    }

    @Override
    public int read() {
        if (pos >= len && !fill()) {
            return -1;
        }
        return row[pos++] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int n) {
        if (n == 0) {
            return 0;
        }
        int done = 0;
        while (done < n) {
            if (pos >= len && !fill()) {
                break;
            }
            int k = Math.min(n - done, len - pos);
            System.arraycopy(row, pos, b, off + done, k);
            pos += k;
            done += k;
        }
        return done == 0 ? -1 : done;
    }
}
