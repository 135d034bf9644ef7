package dev.sqlbench.jdbc;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.Deflater;
import org.HdrHistogram.Histogram;

/**
 * The latency-hdr line a slice's answer carries (runner protocol 3): the
 * slice's latency histogram in HdrHistogram's V2 compressed encoding
 * (cookie 0x1c849304, deflated at the default level), in standard base64
 * with padding, the form HdrHistogram's log writer uses and
 * hdrhistogram-go's Decode reads, so that the orchestrator can merge the
 * slices of a run and recompute its percentiles. A slice of a workload that
 * samples latencies carries the line even when it sampled none (a slice of
 * few operations on many client threads can), as an empty histogram; a
 * slice of a batch workload, which samples none by design, carries none.
 */
public final class LatencyHdr {
    /** The key of the line, before ": ". */
    public static final String KEY = "latency-hdr";

    private LatencyHdr() {
    }

    /** Returns h in the V2 compressed encoding, base64-encoded. */
    public static String encode(Histogram h) {
        // The capacity of the uncompressed form is an upper bound of the
        // compressed one, as the log writer assumes.
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int len = h.encodeIntoCompressedByteBuffer(buf, Deflater.DEFAULT_COMPRESSION);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buf.array(), len));
    }

    /** Returns the whole line for h, without a newline. */
    public static String line(Histogram h) {
        return KEY + ": " + encode(h);
    }
}
