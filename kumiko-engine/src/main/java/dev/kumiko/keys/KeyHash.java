package dev.kumiko.keys;

/**
 * The partition-key hash that orders items in the key space (Scan order) and splits it into
 * Segment ranges. Murmur3's 32-bit finalizer over a simple FNV-1a pass: fast, stable across
 * releases (it is part of the on-disk format), and well spread in the top bits, which is what
 * segment splitting uses.
 */
public final class KeyHash {
    private KeyHash() {}

    public static int of(byte[] encodedPartitionKey) {
        return of(encodedPartitionKey, 0, encodedPartitionKey.length);
    }

    /** The hash of bytes[from, to): an encoded partition key written into a larger buffer. */
    public static int of(byte[] bytes, int from, int to) {
        assert 0 <= from && from <= to && to <= bytes.length;
        int h = 0x811C9DC5;
        for (int i = from; i < to; i++) {
            h ^= bytes[i] & 0xFF;
            h *= 0x01000193;
        }
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return h;
    }
}
