package dev.kumiko.engine.ttl;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TimeToLiveSettings;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.engine.background.BackgroundExecutor;
import dev.kumiko.engine.background.Lease;
import dev.kumiko.engine.base.DaemonThreads;
import dev.kumiko.engine.changelog.ChangeOrigin;
import dev.kumiko.engine.item.ItemWriter;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.storage.Bytes;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Snapshot;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreConflictException;
import dev.kumiko.storage.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * Deletes expired items of the tables with TTL enabled, through the one write path
 * ({@link ItemWriter}) like a DeleteItem: the item, its index entries and its change record go in
 * one batch, and the stream record says the service deleted it (userIdentity). Until it runs, an
 * expired item is still read, queried and scanned, as in DynamoDB.
 *
 * <p>In the background it looks every sweep interval, reading at most {@link #ITEMS_PER_TICK_MAX}
 * items per table per look and resuming where it stopped, so a large table costs a bounded amount
 * of work per interval (and a table of up to that many items is swept whole every interval).
 * {@link #sweepNow} sweeps every table whole at once, for tests.
 *
 * <p>Each candidate is deleted in its own store transaction after reading it again, so an item updated
 * meanwhile to a later expiry is kept; an item a transaction holds is left to the next pass.
 */
public final class TimeToLiveSweeper implements AutoCloseable {
    /** Items read per table per background look. */
    static final int ITEMS_PER_TICK_MAX = 10_000;
    /** Items read per store scan. */
    private static final int ITEMS_PER_STEP = 256;

    private final Catalog catalog;
    private final Store store;
    private final ItemWriter writer;
    private final TimeToLiveClock clock;
    private final long intervalMillis;
    /** Of all engines over the store, the one holding it sweeps; it keeps each table's position. */
    private final Lease lease;

    private final ScheduledExecutorService executor =
            Executors.newSingleThreadScheduledExecutor(new DaemonThreads("kumiko-ttl-sweeper"));

    /** intervalMillis 0: no background sweeps, only {@link #sweepNow}. */
    public TimeToLiveSweeper(
            Catalog catalog, Store store, ItemWriter writer, TimeToLiveClock clock, long intervalMillis, Lease lease) {
        assert intervalMillis >= 0;
        this.catalog = catalog;
        this.store = store;
        this.writer = writer;
        this.clock = clock;
        this.intervalMillis = intervalMillis;
        this.lease = lease;
    }

    public void start() {
        if (intervalMillis > 0) {
            BackgroundExecutor.repeat(executor, new Tick(), intervalMillis, "TTL sweeper");
        }
    }

    /** What the executor runs: a class, not this::tickLogged, since it is scheduled at open (see Clock.SYSTEM). */
    private final class Tick implements Runnable {
        @Override
        public void run() {
            tickLogged();
        }
    }

    private void tickLogged() {
        try {
            tick();
        } catch (RuntimeException e) {
            log().log(System.Logger.Level.ERROR, "TTL sweep failed", e);
        }
    }

    /**
     * One background look, by the engine holding the lease only: a bounded step of each TTL table's
     * pass, from where the last holder stopped (saved with the lease, so a new holder resumes).
     */
    synchronized long tick() {
        if (!lease.hold()) {
            return 0;
        }
        long deleted = 0;
        for (Table t : ttlTables()) {
            int id = t.descriptor().id();
            byte[] saved = lease.progress(id);
            Pass pass = sweep(t, saved != null ? saved : KeySpace.prefix(KeySpace.ITEMS, id), ITEMS_PER_TICK_MAX);
            deleted += pass.deleted();
            lease.saveProgress(id, pass.next());
        }
        return deleted;
    }

    /** Sweeps every table with TTL enabled, whole, now; returns how many items it deleted. */
    public synchronized long sweepNow() {
        long deleted = 0;
        for (Table t : ttlTables()) {
            deleted += sweep(t, KeySpace.prefix(KeySpace.ITEMS, t.descriptor().id()), Integer.MAX_VALUE)
                    .deleted();
        }
        return deleted;
    }

    /** What part of a pass did: items deleted, and the key to resume at (null: the table's end). */
    private record Pass(long deleted, byte @Nullable [] next) {}

    private Pass sweep(Table t, byte[] from, int itemsMax) {
        byte[] end = KeySpace.prefixEnd(KeySpace.ITEMS, t.descriptor().id());
        byte[] at = from;
        long deleted = 0;
        int read = 0;
        while (read < itemsMax && !Thread.currentThread().isInterrupted()) {
            TimeToLiveSettings ttl = t.descriptor().timeToLive();
            String attribute = ttl.enabledAttribute();
            if (attribute == null) {
                return new Pass(deleted, null);
            }
            List<byte[]> expired = new ArrayList<>();
            byte[] last = candidates(at, end, Math.min(ITEMS_PER_STEP, itemsMax - read), attribute, expired);
            if (last == null) {
                return new Pass(deleted, null);
            }
            for (byte[] key : expired) {
                if (deleteIfExpired(t, key)) {
                    deleted++;
                }
            }
            read += ITEMS_PER_STEP;
            at = Bytes.concat(last, new byte[] {0});
        }
        return new Pass(deleted, at);
    }

    /**
     * Reads up to n items from 'from', adding the keys of those expired now to 'expired'; returns
     * the last key read, or null if there was none.
     */
    private byte @Nullable [] candidates(byte[] from, byte[] end, int n, String attributeName, List<byte[]> expired) {
        long now = clock.nowMillis();
        if (store.local()) {
            try (Cursor c = store.scan(from, end, false)) {
                return expiredIn(c, n, attributeName, now, expired);
            }
        }
        // A shared store's latest-data scan reads in a read-write transaction, whose range locks
        // refuse the writers of new keys in the range while it runs: two servers' sweeps every
        // 500 ms made PutItems of new items give up (TransactionConflictException) on a 3-node
        // Ignite cluster (scripts/ignite-cluster.sh). The candidates need no lock, as each
        // deletion reads its item again in its own transaction; a snapshot reads without one.
        try (Snapshot snap = store.snapshot();
                Cursor c = snap.scan(from, end, false)) {
            return expiredIn(c, n, attributeName, now, expired);
        }
    }

    /** Adds to expired the keys of up to n entries of c expired at now; returns the last key read. */
    private static byte @Nullable [] expiredIn(Cursor c, int n, String attributeName, long now, List<byte[]> expired) {
        byte[] last = null;
        for (int i = 0; i < n && c.next(); i++) {
            last = c.key();
            // One attribute is read, from the stored bytes: a pass over a table decodes no item.
            if (Expiry.isExpired(EncodedItem.of(c.value()), attributeName, now)) {
                expired.add(last);
            }
        }
        return last;
    }

    /**
     * Deletes the item if, read again in its store transaction, it is still expired. An item a
     * transaction holds, or one another writer races for, is left to the next pass rather than
     * retried (ReadModifyWrite): the sweep is background work that must not pause for one item,
     * and the next pass reads it again anyway. Another engine's sweeper over the same store finds
     * it gone, so each item is deleted once.
     */
    private boolean deleteIfExpired(Table t, byte[] key) {
        try (Transaction txn = store.begin(key)) {
            TimeToLiveSettings ttl = t.descriptor().timeToLive();
            byte[] bytes = txn.get(key);
            String attribute = ttl.enabledAttribute();
            if (attribute == null
                    || bytes == null
                    || catalog.mirrored(t.descriptor().tableName()) != t) {
                return false;
            }
            Map<String, AttributeValue> item = EncodedItem.of(bytes);
            if (!Expiry.isExpired(item, attribute, clock.nowMillis())) {
                return false;
            }
            writer.commitAll(txn, List.of(new ItemWriter.Change(t, key, item, null, 0)), ChangeOrigin.TIME_TO_LIVE);
            return true;
        } catch (StoreConflictException heldOrRaced) {
            return false;
        }
    }

    private List<Table> ttlTables() {
        return catalog.tables().stream()
                .filter(t -> t.descriptor().timeToLive().enabled())
                .toList();
    }

    /** Stops the background sweeps before the store closes. */
    @Override
    public void close() {
        BackgroundExecutor.stop(executor, "TTL sweeper");
        lease.release();
    }

    /**
     * Looked up only when something goes wrong: a static logger would start the JDK's logging
     * (about 10 ms) in every Engine.open, which an embedding test pays.
     */
    private static System.Logger log() {
        return System.getLogger(TimeToLiveSweeper.class.getName());
    }
}
