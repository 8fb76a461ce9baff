package dev.kumiko.engine.index;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.engine.background.BackgroundExecutor;
import dev.kumiko.engine.background.Lease;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.Bytes;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.ReadModifyWrite;
import dev.kumiko.storage.ReadModifyWrite.Claimed;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreConflictException;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * Fills a GSI created by UpdateTable with the items that existed before it, in the background,
 * then marks it ACTIVE. Writers maintain a CREATING index from the moment it is in the descriptor,
 * so the backfill only adds entries that are missing: it first waits out writers that may have
 * read the old descriptor ({@link Store#awaitTransactions}), then indexes each item in its own
 * store transaction. A
 * backfill cut short by a crash is restarted at open and is idempotent.
 *
 * <p>Of all engines over the store, one backfills an index at a time: the holder of the index's
 * lease, which saves its position after each step. Every engine looks for CREATING indexes now
 * and then ({@link #resumeAll}), so when the holder dies another takes the lease over once it
 * expires and resumes at the saved position.
 */
public final class IndexBackfill implements AutoCloseable {
    /** Items whose keys are read per step; each is then indexed in its own transaction. */
    private static final int KEYS_PER_STEP = 256;

    private final Catalog catalog;
    private final Store store;
    private final ExecutorService executor = BackgroundExecutor.start("kumiko-index-backfill");
    /** This engine's identity among the engines over the store, and its clock: for the leases. */
    private final String owner;

    private final Clock clock;
    /** The lease of the backfill running now, released at close so the next engine resumes at once. */
    private volatile @Nullable Lease running;

    /** owner and clock: of the lease each index's backfill holds ({@link Lease}). */
    public IndexBackfill(Catalog catalog, Store store, String owner, Clock clock) {
        this.catalog = catalog;
        this.store = store;
        this.owner = owner;
        this.clock = clock;
    }

    public void start(String tableName, int indexId) {
        executor.execute(() -> {
            try {
                run(tableName, indexId);
            } catch (RuntimeException e) {
                log().log(
                                System.Logger.Level.ERROR,
                                "backfill of index " + indexId + " on " + tableName + " failed",
                                e);
            }
        });
    }

    /** Restarts the backfill of every index a previous run left CREATING. */
    public void resumeAll() {
        for (Table t : catalog.tables()) {
            for (IndexDescriptor x : t.descriptor().globalSecondaryIndexes()) {
                if (IndexDescriptor.CREATING.equals(x.indexStatus())) {
                    start(t.descriptor().tableName(), x.id());
                }
            }
        }
    }

    private void run(String tableName, int indexId) {
        store.awaitTransactions();
        Table t = catalog.get(tableName);
        Lease lease = new Lease(store, "backfill/" + indexId, owner, clock);
        if (t == null || !creating(t, indexId) || !lease.hold()) {
            return;
        }
        running = lease;
        int tableId = t.descriptor().id();
        byte[] saved = lease.progress(indexId);
        byte[] from = saved != null ? saved : KeySpace.prefix(KeySpace.ITEMS, tableId);
        byte[] end = KeySpace.prefixEnd(KeySpace.ITEMS, tableId);
        while (!Thread.currentThread().isInterrupted() && lease.hold()) {
            List<byte[]> keys = keys(from, end);
            if (keys.isEmpty()) {
                catalog.activateIndex(t, indexId);
                lease.saveProgress(indexId, null);
                lease.release();
                return;
            }
            for (byte[] key : keys) {
                if (!indexOne(t, indexId, key)) {
                    return;
                }
            }
            if (Thread.currentThread().isInterrupted()) {
                return; // stopping: items of this step may be unindexed, so the position stays before it
            }
            from = Bytes.concat(keys.get(keys.size() - 1), new byte[] {0});
            lease.saveProgress(indexId, from);
        }
    }

    private static boolean creating(Table t, int indexId) {
        IndexDescriptor x = byId(t.descriptor(), indexId);
        return x != null && IndexDescriptor.CREATING.equals(x.indexStatus());
    }

    private List<byte[]> keys(byte[] from, byte[] end) {
        List<byte[]> out = new ArrayList<>(KEYS_PER_STEP);
        try (Cursor c = store.scan(from, end, false)) {
            while (out.size() < KEYS_PER_STEP && c.next()) {
                out.add(c.key());
            }
        }
        return out;
    }

    /**
     * Indexes one item if it still exists and lacks its entry; false once the index is gone or the
     * backfill is stopping.
     */
    private boolean indexOne(Table t, int indexId, byte[] key) {
        return ReadModifyWrite.SYSTEM.run(Claimed.GIVE_UP, IndexBackfill::afterConflicts, () -> {
            try (Transaction txn = store.begin(key)) {
                return indexOne(txn, t, indexId, key);
            }
        });
    }

    /**
     * Whether the backfill goes on after the runner stopped on last: an item a transaction holds
     * needs nothing (the transaction writes the entry itself, with the new descriptor); otherwise
     * the retries ran out or the backfill is stopping (engine close), and it stops here, to resume
     * at the saved position on the next look ({@link #resumeAll}).
     */
    private static boolean afterConflicts(StoreConflictException last) {
        return last.claimed() && !Thread.currentThread().isInterrupted();
    }

    private boolean indexOne(Transaction txn, Table t, int indexId, byte[] key) {
        TableDescriptor d = t.descriptor();
        IndexDescriptor x = byId(d, indexId);
        if (x == null) {
            return false;
        }
        byte[] bytes = txn.get(key);
        if (bytes == null) {
            return true;
        }
        // Left in its bytes: the entry's key reads a few attributes, and an ALL projection's entry is
        // the item's own bytes, so a backfill decodes no item whole.
        Map<String, AttributeValue> item = EncodedItem.of(bytes);
        if (!IndexKeyCheck.fitsKeySizes(x, item)) {
            return true;
        }
        byte[] entryKey = IndexEntries.key(d, x, item);
        // Read outside the transaction's protection: only writers of this item write its entry, and
        // the transaction holds the item, so no lock on the entry is needed (and none waited for).
        if (entryKey == null || store.get(entryKey) != null) {
            return true;
        }
        Map<String, AttributeValue> entry = IndexEntries.project(d, x, item);
        WriteBatch batch = new WriteBatch().put(entryKey, entry == item ? bytes : ItemCodec.encode(entry));
        t.indexStats(indexId).addTo(batch, 1, ItemSize.of(entry));
        txn.commit(batch);
        return true;
    }

    private static @Nullable IndexDescriptor byId(TableDescriptor d, int indexId) {
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            if (x.id() == indexId) {
                return x;
            }
        }
        return null;
    }

    /** Stops backfills in progress (they resume at the next open) before the store closes. */
    @Override
    public void close() {
        BackgroundExecutor.stop(executor, "index backfill");
        Lease lease = running;
        if (lease != null) {
            lease.release();
        }
    }

    /**
     * Looked up only when something goes wrong: a static logger would start the JDK's logging
     * (about 10 ms) in every Engine.open, which an embedding test pays.
     */
    private static System.Logger log() {
        return System.getLogger(IndexBackfill.class.getName());
    }
}
