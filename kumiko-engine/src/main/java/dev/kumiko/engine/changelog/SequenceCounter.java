package dev.kumiko.engine.changelog;

import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeySpace;

/**
 * The store data behind a table's change-log sequence numbers: one key per table,
 * {@code 0x05 'q' tableId(4)}, holding the lowest number nobody has handed out (every number below
 * it may have been; none at or above it was). Every engine over the store takes its numbers through it,
 * so two engines never hand out one number, whatever the store.
 *
 * <p>A store that may be shared by processes (not {@link dev.kumiko.storage.Store#local}) reads and
 * raises the key in each writer's own store transaction ({@link CommitSequences}): the number
 * commits with the record, and the store's conflict detection orders the writers. A local store
 * reserves blocks of {@link #BLOCK_NUMBERS} in it ({@link TableSequence}), so a write costs an
 * in-memory increment and one store write every block.
 */
final class SequenceCounter {
    /** Numbers one reservation of a local store covers: one store write per this many records. */
    static final long BLOCK_NUMBERS = 1024;
    private static final byte TAG = 'q';
    private static final int KEY_LENGTH = 6;

    private SequenceCounter() {}

    static byte[] key(int tableId) {
        return new ByteSink(KEY_LENGTH).put(KeySpace.META).put(TAG).putIntBigEndian(tableId).toArray();
    }

    /** The stored value: the lowest number nobody has handed out (0 when never written). */
    static long decode(byte[] value) {
        return value == null ? 0 : ChangeLogKeys.decodeLong(value);
    }
}
