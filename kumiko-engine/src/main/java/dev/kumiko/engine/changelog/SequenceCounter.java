package dev.kumiko.engine.changelog;

import dev.kumiko.keys.ByteSink;
import dev.kumiko.keys.KeySpace;
import org.jspecify.annotations.Nullable;

/**
 * The store data behind a table's change-log sequence numbers: one key per table, in the table's
 * statistics range ({@code 0x06 tableId(4) 6}, a kind the catalog's StatsKeys reserves, so that
 * DeleteTable drops it with the table), holding the lowest number nobody has handed out (every number below
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
    /** The kind byte after the table id; the catalog's StatsKeys.CHANGE_LOG_NEXT. */
    private static final byte KIND = 6;

    private static final int KEY_LENGTH = 6;

    private SequenceCounter() {}

    static byte[] key(int tableId) {
        return new ByteSink(KEY_LENGTH)
                .put(KeySpace.prefix(KeySpace.STATS, tableId))
                .put(KIND)
                .toArray();
    }

    /** The stored value: the lowest number nobody has handed out (0 when never written). */
    static long decode(byte @Nullable [] value) {
        return value == null ? 0 : ChangeLogKeys.decodeLong(value);
    }
}
