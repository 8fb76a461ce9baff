package dev.kumiko.engine.replication;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;

/**
 * When and where a version of an item was written: the write's time in its origin region, that
 * region, and the change log's sequence number there. Last writer wins by this order: the later
 * time wins (DynamoDB's rule); equal times are broken by the region's name, then by the origin's
 * sequence number, so that every region picks the same winner from the same two versions.
 *
 * <pre>
 * millis(8) sequence(8) region(UTF-8)
 * </pre>
 */
public record Stamp(long millis, String region, long sequence) implements Comparable<Stamp> {
    /** Longer than any region name AWS has (about 15); a bound on what a peer may send. */
    public static final int REGION_BYTES_MAX = 64;

    private static final Comparator<Stamp> ORDER =
            Comparator.comparingLong(Stamp::millis).thenComparing(Stamp::region).thenComparingLong(Stamp::sequence);

    public Stamp {
        assert millis >= 0 : millis;
        assert sequence >= 0 : sequence;
        assert !region.isEmpty() && region.length() <= REGION_BYTES_MAX : region;
    }

    /** The stamp of an item that was written before its table had replicas: any real write beats it. */
    public static Stamp before(String region) {
        return new Stamp(0, region, 0);
    }

    @Override
    public int compareTo(Stamp o) {
        return ORDER.compare(this, o);
    }

    public boolean isNewerThan(Stamp o) {
        return compareTo(o) > 0;
    }

    public byte[] encode() {
        byte[] r = region.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(16 + r.length)
                .putLong(millis)
                .putLong(sequence)
                .put(r)
                .array();
    }

    public static Stamp decode(byte[] bytes) {
        if (bytes.length < 17 || bytes.length > 16 + REGION_BYTES_MAX) {
            throw new IllegalStateException("corrupt replication stamp: " + bytes.length + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        long millis = in.getLong();
        long sequence = in.getLong();
        return new Stamp(millis, new String(bytes, 16, bytes.length - 16, StandardCharsets.UTF_8), sequence);
    }
}
