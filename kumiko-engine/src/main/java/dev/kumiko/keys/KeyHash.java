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
        int h = 0x811C9DC5;
        for (byte b : encodedPartitionKey) {
            h ^= b & 0xFF;
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
