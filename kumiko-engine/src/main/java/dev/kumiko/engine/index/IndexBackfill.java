package dev.kumiko.engine.index;

import dev.kumiko.engine.BackgroundExecutor;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.keys.KeySpace;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.Bytes;
import dev.kumiko.storage.Cursor;
import dev.kumiko.engine.ConflictRetry;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.StoreConflictException;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * Fills a GSI created by UpdateTable with the items that existed before it, in the background,
 * then marks it ACTIVE. Writers maintain a CREATING index from the moment it is in the descriptor,
 * so the backfill only adds entries that are missing: it first waits out writers that may have
 * read the old descriptor ({@link Store#awaitTransactions}), then indexes each item in its own
 * store transaction. A
 * backfill cut short by a crash is restarted at open and is idempotent.
 */
public final class IndexBackfill implements AutoCloseable {
    /** Items whose keys are read per step; each is then indexed in its own transaction. */
    private static final int KEYS_PER_STEP = 256;

    private final Catalog catalog;
    private final Store store;
    private final ExecutorService executor = BackgroundExecutor.start("kumiko-index-backfill");

    public IndexBackfill(Catalog catalog, Store store) {
        this.catalog = catalog;
        this.store = store;
    }

    public void start(String tableName, int indexId) {
        executor.execute(() -> {
            try {
                run(tableName, indexId);
            } catch (RuntimeException e) {
                log().log(System.Logger.Level.ERROR, "backfill of index " + indexId + " on " + tableName + " failed", e);
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
        if (t == null) {
            return;
        }
        int tableId = t.descriptor().id();
        byte[] from = KeySpace.prefix(KeySpace.ITEMS, tableId);
        byte[] end = KeySpace.prefixEnd(KeySpace.ITEMS, tableId);
        while (!Thread.currentThread().isInterrupted()) {
            List<byte[]> keys = keys(from, end);
            if (keys.isEmpty()) {
                catalog.activateIndex(t, indexId);
                return;
            }
            for (byte[] key : keys) {
                if (!indexOne(t, indexId, key)) {
                    return;
                }
            }
            from = Bytes.concat(keys.get(keys.size() - 1), new byte[] {0});
        }
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

    /** Indexes one item if it still exists and lacks its entry; false once the index is gone. */
    private boolean indexOne(Table t, int indexId, byte[] key) {
        for (int attempt = 0;; attempt++) {
            try (Transaction txn = store.begin(key)) {
                return indexOne(txn, t, indexId, key);
            } catch (StoreConflictException e) {
                if (e.claimed() || attempt + 1 >= ConflictRetry.ATTEMPTS_MAX) {
                    // A transaction holds the item: it writes the entry itself, with the new descriptor.
                    return true;
                }
            }
        }
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
        Map<String, AttributeValue> item = ItemCodec.decode(bytes);
        byte[] entryKey = IndexEntries.key(d, x, item);
        if (entryKey == null || txn.get(entryKey) != null) {
            return true;
        }
        Map<String, AttributeValue> entry = IndexEntries.project(d, x, item);
        WriteBatch batch = new WriteBatch().put(entryKey, entry == item ? bytes : ItemCodec.encode(entry));
        t.indexStats(indexId).addTo(batch, 1, ItemSize.of(entry));
        txn.commit(batch);
        return true;
    }

    private static IndexDescriptor byId(TableDescriptor d, int indexId) {
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
    }

    /**
     * Looked up only when something goes wrong: a static logger would start the JDK's logging
     * (about 10 ms) in every Engine.open, which an embedding test pays.
     */
    private static System.Logger log() {
        return System.getLogger(IndexBackfill.class.getName());
    }
}
