package dev.sqlbench.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Base64;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyHdrTest {
    @Test
    void encodesTheV2CompressedFormInStandardBase64() throws Exception {
        Histogram h = Harness.newHistogram();
        h.recordValue(1000);
        h.recordValue(2000);
        h.recordValue(3000);
        String enc = LatencyHdr.encode(h);
        assertTrue(enc.matches("[A-Za-z0-9+/]+=*"), enc);
        assertEquals(0, enc.length() % 4, enc); // padded
        byte[] b = Base64.getDecoder().decode(enc);
        // The compressed V2 cookie, whose low bits HdrHistogram leaves free (0x1c849314 for 8-byte counts).
        assertEquals(0x1c849304, ByteBuffer.wrap(b).getInt() & ~0xf0);
        Histogram back = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(b), 0);
        assertEquals(h, back);
        assertEquals(3, back.getTotalCount());
        assertEquals(1, back.getLowestDiscernibleValue());
        assertEquals(Harness.MAX_LATENCY, back.getHighestTrackableValue());
        assertEquals(3, back.getNumberOfSignificantValueDigits());
        assertEquals(2000, back.getValueAtPercentile(50), 1);
        assertEquals("latency-hdr: " + enc, LatencyHdr.line(h));
    }

    @Test
    void anEmptyHistogramRoundTrips() throws Exception {
        Histogram h = Harness.newHistogram();
        byte[] b = Base64.getDecoder().decode(LatencyHdr.encode(h));
        assertEquals(0, Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(b), 0).getTotalCount());
    }
}
