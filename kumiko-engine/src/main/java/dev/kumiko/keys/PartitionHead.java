package dev.kumiko.keys;

/**
 * The head that item and index keys start with: the key space (1 byte), the table's or index's id
 * (4), the hash of the encoded partition key (4), then the encoded partition key. The key is
 * encoded straight into the one buffer and its hash filled in afterwards, so that building a key
 * makes one buffer and one exact copy, not an array per part.
 */
final class PartitionHead {
    static final int HASH_POSITION = 5;
    static final int HEAD_BYTES = 9;

    private PartitionHead() {}

    /** A sink holding space and id, and room for the hash; the caller encodes the partition key next. */
    static ByteSink start(byte space, int id, int capacityBytes) {
        return new ByteSink(Math.max(HEAD_BYTES, capacityBytes))
                .put(space)
                .putIntBigEndian(id)
                .putIntBigEndian(0);
    }

    /** Fills in the hash of everything encoded since {@link #start}: the partition key. */
    static ByteSink sealHash(ByteSink out) {
        assert out.size() > HEAD_BYTES : "the partition key is encoded after the head";
        return out.setIntBigEndian(HASH_POSITION, KeyHash.of(out.buffer(), HEAD_BYTES, out.size()));
    }
}
