package dev.kumiko.engine;

import dev.kumiko.engine.failure.CancellationReason;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The items that TransactWriteItems calls in flight have claimed. DynamoDB does not queue writers
 * behind a transaction: a second transaction touching a claimed item is cancelled with reason
 * TransactionConflict, and a plain PutItem / UpdateItem / DeleteItem of it fails with
 * TransactionConflictException. The stripe locks still serialize the read-modify-write cycles;
 * this set only decides who fails fast instead of waiting.
 *
 * <p>Plain writers pay one {@code isEmpty} check when no transaction is running. A plain writer
 * that passes the check just before a transaction claims its item waits for the stripe lock
 * instead and commits after the transaction: still serializable, only not refused.
 *
 * <p>Bounded: at most TransactWriteItems' 100 keys per transaction in flight.
 */
public final class TransactionHolds {
    private final ConcurrentHashMap<ByteBuffer, Object> held = new ConcurrentHashMap<>();

    /** For plain writers, before they take the item's lock. */
    public void checkNotHeld(byte[] storageKey) {
        if (!held.isEmpty() && held.containsKey(ByteBuffer.wrap(storageKey))) {
            // Wording as a real-DynamoDB log quotes it for a plain UpdateItem (docs/notes/error-messages.md).
            throw new DynamoException(ErrorCode.TRANSACTION_CONFLICT, CancellationReason.TRANSACTION_CONFLICT_MESSAGE);
        }
    }

    /**
     * Claims every key for owner. Returns the indexes of the keys another transaction holds; when
     * there are any, nothing stays claimed (the transaction is cancelled, not made to wait, so two
     * transactions can never wait on each other).
     */
    public List<Integer> claim(byte[][] storageKeys, Object owner) {
        List<Integer> conflicts = new ArrayList<>(0);
        for (int i = 0; i < storageKeys.length; i++) {
            Object holder = held.putIfAbsent(ByteBuffer.wrap(storageKeys[i]), owner);
            if (holder != null && holder != owner) {
                conflicts.add(i);
            }
        }
        if (!conflicts.isEmpty()) {
            release(storageKeys, owner);
        }
        return conflicts;
    }

    /** Releases what owner claimed; keys claimed by others are left alone. */
    public void release(byte[][] storageKeys, Object owner) {
        for (byte[] key : storageKeys) {
            held.remove(ByteBuffer.wrap(key), owner);
        }
    }
}
