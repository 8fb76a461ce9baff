package dev.kumiko.engine.item;

import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.engine.base.EngineSettings;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.changelog.ChangeOrigin;
import dev.kumiko.engine.index.IndexChange;
import dev.kumiko.engine.index.IndexUpdates;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ItemCollectionSizeLimitExceeded;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The one write path: every change to an item goes through {@link #commit} or, for several items
 * that must commit together (a transaction), {@link #commitAll}. Either builds a single storage
 * batch holding the items, their index entries and their change records, commits it in the
 * caller's store transaction (the one the old items were read in) and then updates the statistics.
 */
public final class ItemWriter {
    private final EngineSettings settings;
    private final ChangeLog changeLog;
    private final java.util.function.IntPredicate dropped;
    // Told of every committed change, inside the writer's store transaction (so in commit order per item).
    private final dev.kumiko.engine.vector.@Nullable VectorIndexes vectors;
    // Set once the engine's global tables exist (they are built after the writer).
    private volatile SystemAttributes systemAttributes = SystemAttributes.NONE;

    public ItemWriter(EngineSettings settings, ChangeLog changeLog) {
        this(settings, changeLog, tableId -> false);
    }

    /**
     * dropped tells, inside the write's store transaction, whether a table was deleted by any
     * engine ({@link dev.kumiko.catalog.Catalog#dropped}): a write to it then fails as a write to a
     * missing table, even before this engine's catalog mirror has caught up.
     */
    public ItemWriter(EngineSettings settings, ChangeLog changeLog, java.util.function.IntPredicate dropped) {
        this(settings, changeLog, dropped, null);
    }

    /** As above; vectors (when not null) hears of every committed change, for the vector indexes. */
    public ItemWriter(
            EngineSettings settings,
            ChangeLog changeLog,
            java.util.function.IntPredicate dropped,
            dev.kumiko.engine.vector.@Nullable VectorIndexes vectors) {
        this.settings = settings;
        this.changeLog = changeLog;
        this.dropped = dropped;
        this.vectors = vectors;
    }

    /** From now on, a client's new items get what attributes says (global tables of version 2017.11.29). */
    public void systemAttributes(SystemAttributes attributes) {
        this.systemAttributes = attributes;
    }

    /**
     * One item's change: oldItem (or nothing) becomes newItem (or nothing, a delete). The caller
     * has already sized newItem (for the 400 KB check), so each item is sized once per write.
     */
    public record Change(
            Table table,
            byte[] storageKey,
            @Nullable Map<String, AttributeValue> oldItem,
            @Nullable Map<String, AttributeValue> newItem,
            long newItemBytes) {
        public Change {
            assert newItem == null ? newItemBytes == 0 : newItemBytes == ItemSize.of(newItem);
        }
    }

    /**
     * A change whose puts and deletes are in the batch; the rest is applied to the statistics.
     * sequence is its change record's number, 0 when it appended none.
     */
    private record Planned(
            Change change,
            long oldItemBytes,
            List<IndexChange> indexChanges,
            byte @Nullable [] collection,
            long collectionDeltaBytes,
            long sequence,
            byte @Nullable [] storedNewItem) {}

    /**
     * Replaces oldItem with newItem. The outcome carries oldItem's size, which billing needs too.
     * Fails with ItemCollectionSizeLimitExceeded, writing nothing, when the write would grow an LSI
     * table's item collection past the limit.
     */
    public WriteOutcome commit(
            Transaction txn,
            Table table,
            byte[] storageKey,
            @Nullable Map<String, AttributeValue> oldItem,
            @Nullable Map<String, AttributeValue> newItem,
            long newItemBytes) {
        return commitAll(txn, List.of(new Change(table, storageKey, oldItem, newItem, newItemBytes)))
                .get(0);
    }

    /**
     * Commits every change in one storage batch: all of them become visible at once, or none
     * does. The item collection limit is checked over the whole set first (two changes may grow
     * one collection); ItemCollectionSizeLimitExceeded names the offending change's index. The
     * outcomes are in the order of the changes.
     */
    public List<WriteOutcome> commitAll(Transaction txn, List<Change> changes) {
        return commitAll(txn, changes, ChangeOrigin.CLIENT);
    }

    /** As {@link #commitAll(Transaction, List)}, recording origin in the change records (TTL deletes). */
    public List<WriteOutcome> commitAll(Transaction txn, List<Change> changes, ChangeOrigin origin) {
        return commitAll(txn, changes, origin, null);
    }

    /**
     * As {@link #commitAll(Transaction, List, ChangeOrigin)}; alongside (when not null) is given the
     * outcomes before the commit and may add what must commit with the changes to the batch (a
     * ClientRequestToken's record, which holds what the transaction reports).
     */
    public List<WriteOutcome> commitAll(
            Transaction txn,
            List<Change> changes,
            ChangeOrigin origin,
            @Nullable BiConsumer<List<WriteOutcome>, WriteBatch> alongside) {
        Table checked = null;
        for (Change c : changes) {
            // A BatchWriteItem's changes come table by table: each table is asked about once.
            if (c.table() != checked) {
                checked = c.table();
                if (dropped.test(checked.descriptor().id())) {
                    throw DynamoException.resourceNotFound("Requested resource not found");
                }
            }
        }
        WriteBatch batch = new WriteBatch(expectedOps(changes));
        List<Planned> planned = new ArrayList<>(changes.size());
        List<WriteOutcome> outcomes = new ArrayList<>(changes.size());
        boolean applied = false;
        try {
            ChangeLog.Commit numbering = changeLog.numbering(txn);
            for (Change c : changes) {
                planned.add(plan(c, batch, origin, numbering));
            }
            Map<ByteBuffer, Long> sizes = checkCollectionLimits(planned);
            for (Planned p : planned) {
                outcomes.add(finish(p, sizes));
            }
            if (alongside != null) {
                alongside.accept(outcomes, batch);
            }
            txn.commit(batch);
            applied = true;
            tellVectorIndexes(changes);
        } finally {
            finishRecords(planned, applied);
        }
        return outcomes;
    }

    private void tellVectorIndexes(List<Change> changes) {
        if (vectors == null) {
            return;
        }
        for (Change c : changes) {
            if (c.oldItem() != null || c.newItem() != null) {
                vectors.changed(c.table().descriptor().id(), c.storageKey(), c.newItem());
            }
        }
    }

    /**
     * About how many ops the changes add to their batch (an estimate from the first change's table):
     * per change its item, an entry per index and a change record; per table the count and size
     * counters of the table and of each index; and the change log's sequence counter.
     */
    static int expectedOps(List<Change> changes) {
        if (changes.isEmpty()) {
            return 0;
        }
        TableDescriptor d = changes.get(0).table().descriptor();
        int indexes =
                d.globalSecondaryIndexes().size() + d.localSecondaryIndexes().size();
        return changes.size() * (2 + indexes) + 2 * (1 + indexes) + 1;
    }

    /** Tells the change log which of its records were committed, and releases their numbers. */
    private void finishRecords(List<Planned> planned, boolean applied) {
        for (Planned p : planned) {
            if (p.sequence() != 0) {
                changeLog.finish(p.change().table().descriptor().id(), p.sequence(), applied);
            }
        }
    }

    /** Adds the item's put or delete, its index entries and its change record to the batch. */
    private Planned plan(Change asked, WriteBatch batch, ChangeOrigin origin, ChangeLog.@Nullable Commit numbering) {
        if (asked.oldItem() == null && asked.newItem() == null) {
            return new Planned(asked, 0, List.of(), null, 0, 0, null);
        }
        // A client's write to a table with system attributes: the item gets them, and its change
        // record the time they name, so that the record's stamp and the item agree.
        SystemAttributes extra = systemAttributes;
        boolean timed = origin == ChangeOrigin.CLIENT && asked.newItem() != null && extra != SystemAttributes.NONE;
        long nowMillis = timed ? changeLog.nowMillis() : 0;
        Change c = timed ? withAttributes(asked, extra.of(asked.table(), nowMillis)) : asked;
        TableDescriptor d = c.table().descriptor();
        long oldItemBytes = c.oldItem() == null ? 0 : ItemSize.of(c.oldItem());
        byte[] encoded = null;
        if (c.newItem() == null) {
            batch.delete(c.storageKey());
        } else {
            encoded = ItemCodec.encode(c.newItem(), c.newItemBytes());
            batch.put(c.storageKey(), encoded);
        }
        List<IndexChange> indexChanges =
                IndexUpdates.plan(d, c.oldItem(), oldItemBytes, c.newItem(), c.newItemBytes(), encoded, batch);
        byte[] collection = d.localSecondaryIndexes().isEmpty()
                ? null
                : ItemKey.partitionPrefix(
                        d.id(),
                        d.hashKeyOf(
                                c.newItem() != null
                                        ? c.newItem()
                                        : Objects.requireNonNull(c.oldItem(), "one of two, checked above")));
        long collectionDelta = c.newItemBytes() - oldItemBytes + lsiBytesDelta(indexChanges);
        countIn(batch, c, oldItemBytes, indexChanges, collection, collectionDelta);
        long sequence = !timed
                ? changeLog.append(d, c.oldItem(), c.newItem(), encoded, origin, numbering, batch)
                : changeLog.append(d, c.oldItem(), c.newItem(), encoded, origin, numbering, batch, nowMillis);
        return new Planned(c, oldItemBytes, indexChanges, collection, collectionDelta, sequence, encoded);
    }

    /** c with attributes set on its new item, sized again; the item must stay within DynamoDB's limit. */
    private static Change withAttributes(Change c, Map<String, AttributeValue> attributes) {
        Map<String, AttributeValue> item = c.newItem();
        if (attributes.isEmpty() || item == null) {
            return c;
        }
        Map<String, AttributeValue> out = new LinkedHashMap<>(item);
        out.putAll(attributes);
        long bytes = ItemSize.of(out);
        if (bytes > ItemSize.ITEM_SIZE_BYTES_MAX) {
            // The system attributes count toward the item's size, as DynamoDB's do.
            throw DynamoException.validation("Item size has exceeded the maximum allowed size");
        }
        return new Change(c.table(), c.storageKey(), c.oldItem(), out, bytes);
    }

    /**
     * Adds the change's effect on the table's, its indexes' and its item collection's counters to
     * the batch: they commit with it (a few counter additions per write, no extra store call).
     */
    private static void countIn(
            WriteBatch batch,
            Change c,
            long oldItemBytes,
            List<IndexChange> indexChanges,
            byte @Nullable [] collection,
            long collectionDelta) {
        Table table = c.table();
        long items = (c.newItem() == null ? 0L : 1L) - (c.oldItem() == null ? 0L : 1L);
        table.stats().addTo(batch, items, c.newItemBytes() - oldItemBytes);
        for (IndexChange x : indexChanges) {
            table.indexStats(x.index().id()).addTo(batch, x.entriesDelta(), x.bytesDelta());
        }
        if (collection != null) {
            table.collections().addTo(batch, collection, collectionDelta);
        }
    }

    /**
     * The outcome of a change about to commit; sizes carries each item collection's size as of the
     * previous change to it in this commit, and is advanced past this one.
     */
    private static WriteOutcome finish(Planned p, Map<ByteBuffer, Long> sizes) {
        Change c = p.change();
        if (c.oldItem() == null && c.newItem() == null) {
            return WriteOutcome.NOTHING;
        }
        long collectionBytes = -1;
        if (p.collection() != null) {
            collectionBytes =
                    Math.max(0, sizes.merge(ByteBuffer.wrap(p.collection()), p.collectionDeltaBytes(), Long::sum));
        }
        return new WriteOutcome(p.oldItemBytes(), p.indexChanges(), collectionBytes, p.storedNewItem());
    }

    private static long lsiBytesDelta(List<IndexChange> changes) {
        long delta = 0;
        for (IndexChange c : changes) {
            if (!c.index().global()) {
                delta += c.bytesDelta();
            }
        }
        return delta;
    }

    private static boolean noCollections(List<Planned> planned) {
        for (Planned p : planned) {
            if (p.collection() != null) {
                return false;
            }
        }
        return true;
    }

    /** The summed size change of one item collection and the first change that grows it. */
    private static final class Growth {
        final Table table;
        final byte[] collection;
        int firstGrowing = -1;
        long deltaBytes;

        Growth(Table table, byte[] collection) {
            this.table = table;
            this.collection = collection;
        }
    }

    /**
     * Concurrent writers to other items of one collection may each pass this check, so a
     * collection can overshoot the limit by what they write at once; DynamoDB's own check is an
     * estimate too. Returns each touched collection's size before the commit (read once each).
     */
    private Map<ByteBuffer, Long> checkCollectionLimits(List<Planned> planned) {
        if (noCollections(planned)) {
            return Map.of(); // no LSI: nothing to check (a batch's 25 puts need no maps either)
        }
        Map<ByteBuffer, Growth> growths = new LinkedHashMap<>();
        for (int i = 0; i < planned.size(); i++) {
            Planned p = planned.get(i);
            byte[] collection = p.collection();
            if (collection == null) {
                continue;
            }
            Growth g = growths.computeIfAbsent(
                    ByteBuffer.wrap(collection), k -> new Growth(p.change().table(), collection));
            g.deltaBytes += p.collectionDeltaBytes();
            if (g.firstGrowing < 0 && p.collectionDeltaBytes() > 0) {
                g.firstGrowing = i;
            }
        }
        Map<ByteBuffer, Long> sizes = new HashMap<>();
        for (Map.Entry<ByteBuffer, Growth> e : growths.entrySet()) {
            Growth g = e.getValue();
            long before = g.table.collections().bytes(g.collection);
            if (g.deltaBytes > 0 && before + g.deltaBytes > settings.itemCollectionBytesMax()) {
                throw new ItemCollectionSizeLimitExceeded(g.firstGrowing);
            }
            sizes.put(e.getKey(), before);
        }
        return sizes;
    }
}
