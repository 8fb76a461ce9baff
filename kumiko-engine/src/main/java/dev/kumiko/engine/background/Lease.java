package dev.kumiko.engine.background;

import dev.kumiko.engine.base.Clock;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreConflictException;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * The right to run one background task (TTL sweeps, change-log trimming, an index backfill) for
 * a while, kept in the store so that of all engines over it one runs the task at a time. The
 * holder renews it on each step; when its engine dies the lease expires and the next engine to
 * look takes the task over, resuming from the progress saved with it ({@link #progress}).
 *
 * <pre>
 * 0x08 task 0x00           -> expiresAtMillis(8) owner(UTF-8)
 * 0x08 task 0x01 part      -> where the task resumes in that part (a table, an index)
 * </pre>
 *
 * <p>Timing assumes engines' clocks agree to well within {@link #DURATION_MILLIS}, as any lease
 * does; a step takes far less than that.
 */
public final class Lease {
    /** How long a lease lasts unless renewed: longer than any task's interval between steps. */
    public static final long DURATION_MILLIS = 120_000;
    /** The holder renews once less than this is left, so a busy task writes its lease rarely. */
    static final long RENEW_WITHIN_MILLIS = DURATION_MILLIS / 2;

    private final Store store;
    private final byte[] key;
    private final byte[] progressPrefix;
    private final String owner;
    private final Clock clock;

    /** owner: this engine's identity, unique among engines over the store. */
    public Lease(Store store, String task, String owner, Clock clock) {
        this.store = store;
        byte[] name = task.getBytes(StandardCharsets.UTF_8);
        this.key = ByteBuffer.allocate(2 + name.length)
                .put(KeySpace.LEASES)
                .put(name)
                .put((byte) 0)
                .array();
        this.progressPrefix = ByteBuffer.allocate(2 + name.length)
                .put(KeySpace.LEASES)
                .put(name)
                .put((byte) 1)
                .array();
        this.owner = owner;
        this.clock = clock;
    }

    /**
     * Takes the lease if it is free or expired, renews it if this engine holds it; true when this
     * engine may run the task's next step. One store transaction on the lease's key.
     */
    public boolean hold() {
        try (Transaction txn = store.begin(key)) {
            byte[] current = readable(txn.get(key));
            long now = clock.nowMillis();
            if (current != null && !ownerOf(current).equals(owner) && expiryOf(current) > now) {
                return false;
            }
            if (current != null && ownerOf(current).equals(owner) && expiryOf(current) - now > RENEW_WITHIN_MILLIS) {
                return true; // held with time to spare: no write on every step
            }
            txn.commit(new WriteBatch().put(key, encode(now + DURATION_MILLIS)));
            return true;
        } catch (StoreConflictException anotherEngineIsTakingIt) {
            // Not retried (ReadModifyWrite): the engine that won holds the lease now, and the
            // loser would only read that; the task's next look asks again.
            return false;
        }
    }

    /** Gives the lease up (at close), so another engine takes the task over without waiting. */
    public void release() {
        try (Transaction txn = store.begin(key)) {
            byte[] current = readable(txn.get(key));
            if (current != null && ownerOf(current).equals(owner)) {
                txn.commit(new WriteBatch().delete(key));
            }
        } catch (StoreConflictException | IllegalStateException closingOrTaken) {
            // Taken meanwhile, or the store is going away: not retried, since the lease expires on
            // its own and close must not wait.
        }
    }

    /** Where the task resumes in part (null: at its start). Read by whoever holds the lease. */
    public byte @Nullable [] progress(int part) {
        return store.get(progressKey(part));
    }

    /** Saves where the task resumes in part; null clears it (the part is done). */
    public void saveProgress(int part, byte @Nullable [] position) {
        WriteBatch batch = new WriteBatch();
        store.apply(position == null ? batch.delete(progressKey(part)) : batch.put(progressKey(part), position));
    }

    private byte[] progressKey(int part) {
        return ByteBuffer.allocate(progressPrefix.length + 4)
                .put(progressPrefix)
                .putInt(part)
                .array();
    }

    private byte[] encode(long expiresAtMillis) {
        byte[] o = owner.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + o.length).putLong(expiresAtMillis).put(o).array();
    }

    /**
     * The record, or null (a free lease) when it is too short to hold an expiry: such a record is
     * no owner's, and read as a holder it would stop the task for good, since only a holder
     * rewrites it. One was seen on a 3-node Ignite cluster: an empty value under a TTL lease key
     * after the client's connection was reset, and both servers' sweeps failed on it every tick.
     */
    private static byte @Nullable [] readable(byte @Nullable [] record) {
        return record != null && record.length >= Long.BYTES ? record : null;
    }

    private static long expiryOf(byte[] record) {
        return ByteBuffer.wrap(record).getLong();
    }

    private static String ownerOf(byte[] record) {
        return new String(record, 8, record.length - 8, StandardCharsets.UTF_8);
    }
}
