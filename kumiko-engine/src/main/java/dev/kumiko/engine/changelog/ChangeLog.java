package dev.kumiko.engine.changelog;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.EncodedEquality;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * The change log: one record per committed item change, in the item's own storage batch, so the
 * item, its index entries and its record become visible together or not at all (design.md, "One
 * commit, one change log"). Streams read it; TTL deletes write to it like any other delete.
 *
 * <p>What is recorded: a table's changes are recorded while its stream is enabled, and only then,
 * so a table without a stream pays nothing for the log (one flag test per write). A record keeps
 * the images the stream's view type asks for. A write that changes nothing (the new item equals the
 * old one, or a delete of a missing item) appends nothing, as DynamoDB writes no stream record for
 * it.
 *
 * <p>Sequence numbers are per table, start at 1, are never reused, and follow the order of the
 * commits of each item (an item's writer takes the number inside the item's store transaction).
 * They are store data ({@link SequenceCounter}), so two engines over one store never hand out one
 * number. Over a store shared by processes, a writer reads and raises the table's counter in its
 * own transaction ({@link Commit}): the number commits with the record, and every record below the
 * committed counter is final. A local store keeps a cache in this process ({@link TableSequence},
 * one per table, shared by every engine over the store through {@link Store#shared}), which
 * reserves blocks of numbers in the counter, so a write costs an in-memory increment. When a
 * table's counter is missing (a log from before it), the next number is recovered from the log's
 * last key, its trim marker, and {@code floors}: boundaries the catalog recorded (streams, shards).
 */
public final class ChangeLog {
    private final Store store;
    private final Clock clock;
    private final ToLongFunction<TableDescriptor> floors;
    /** The local store's cache of the tables' counters; null over a store shared by processes. */
    private final @Nullable ConcurrentHashMap<Integer, TableSequence> sequences;

    /** The tables' sequences, one set per store, whichever engine uses it. */
    static final class Sequences {
        final ConcurrentHashMap<Integer, TableSequence> byTable = new ConcurrentHashMap<>();
    }

    /** A class, not Sequences::new: it runs at every engine's open (see Clock.SYSTEM). */
    private static final java.util.function.Supplier<Sequences> NEW_SEQUENCES = new java.util.function.Supplier<>() {
        @Override
        public Sequences get() {
            return new Sequences();
        }
    };

    /**
     * floors gives, for a table, the lowest number its next record may take given what the
     * catalog recorded (0 when nothing).
     */
    public ChangeLog(Store store, Clock clock, ToLongFunction<TableDescriptor> floors) {
        this.store = store;
        this.clock = clock;
        this.floors = floors;
        this.sequences = store.local() ? store.shared(Sequences.class, NEW_SEQUENCES).byTable : null;
    }

    /**
     * The numbering of one store transaction's records: null over a local store (its cache needs
     * no per-commit state), otherwise the counters read and raised in txn.
     */
    public @Nullable Commit numbering(Transaction txn) {
        return sequences != null ? null : new Commit(txn);
    }

    /** The counters one transaction raised, by table, so its records take consecutive numbers. */
    public static final class Commit {
        private final Transaction txn;
        private final Map<Integer, Long> next = new java.util.HashMap<>(2);

        Commit(Transaction txn) {
            this.txn = txn;
        }
    }

    /**
     * Whether the changes of a table with this descriptor are recorded: while its stream is enabled,
     * while point-in-time recovery is on (which replays the log), whether or not a stream is, and
     * while a Kinesis streaming destination is enabling, active or updating (it ships the log).
     */
    public static boolean records(TableDescriptor d) {
        return d.stream().enabled() || d.recovery().pitrEnabled() || d.kinesis().recording();
    }

    /**
     * The view type a new record is written with. Without a stream the record is for recovery only
     * and keeps the new image; with one it is the stream's, and recovery's new image rides along
     * ({@link ChangeRecordCodec} drops what the view does not show when streams read it).
     */
    private static ChangeRecord.ViewType viewOf(TableDescriptor d) {
        return d.stream().enabled()
                ? ChangeRecord.ViewType.valueOf(
                        Objects.requireNonNull(d.stream().viewType(), "enabled stream")
                                .name())
                : ChangeRecord.ViewType.NEW_IMAGE;
    }

    /**
     * Adds the record of one item change to batch, unless the table records nothing or the change
     * changes nothing. newItemBytes is newItem in item-codec form (or null for a delete). Returns
     * the record's sequence number, which the caller must {@link #finish} once the batch is applied
     * or abandoned; 0 when nothing was appended.
     */
    public long append(
            TableDescriptor d,
            @Nullable Map<String, AttributeValue> oldItem,
            @Nullable Map<String, AttributeValue> newItem,
            byte @Nullable [] newItemBytes,
            ChangeOrigin origin,
            @Nullable Commit commit,
            WriteBatch batch) {
        return append(d, oldItem, newItem, newItemBytes, origin, commit, batch, clock.nowMillis());
    }

    /** The time records are stamped with now: the clock the log stamps its records by. */
    public long nowMillis() {
        return clock.nowMillis();
    }

    /** As above, the record made at createdMillis (the time the item's system attributes name). */
    public long append(
            TableDescriptor d,
            @Nullable Map<String, AttributeValue> oldItem,
            @Nullable Map<String, AttributeValue> newItem,
            byte @Nullable [] newItemBytes,
            ChangeOrigin origin,
            @Nullable Commit commit,
            WriteBatch batch,
            long createdMillis) {
        if (!records(d) || (oldItem == null && newItem == null)) {
            return 0;
        }
        if (oldItem != null && newItem != null && unchanged(oldItem, newItem, newItemBytes)) {
            return 0;
        }
        ChangeRecord.ViewType view = viewOf(d);
        ChangeRecord.EventName event = oldItem == null
                ? ChangeRecord.EventName.INSERT
                : newItem == null ? ChangeRecord.EventName.REMOVE : ChangeRecord.EventName.MODIFY;
        byte[] keys =
                ItemCodec.encode(keysOf(d, newItem != null ? newItem : Objects.requireNonNull(oldItem, "one of two")));
        // A Kinesis destination gets both images whatever the stream's view (ChangeRecordCodec keeps
        // a stream's reader to what its view shows).
        boolean kinesis = d.kinesis().recording();
        boolean keepNew = view.keepsNew() || d.recovery().pitrEnabled() || kinesis;
        byte[] newBytes = keepNew && newItem != null ? newItemBytes : null;
        byte[] oldBytes = (view.keepsOld() || kinesis) && oldItem != null ? ItemCodec.encodedForm(oldItem) : null;
        assert newBytes == null || newBytes.length > 0;
        long sequence = commit == null ? sequence(d).allocate() : allocate(d, commit, batch);
        batch.put(
                ChangeLogKeys.record(d.id(), sequence),
                ChangeRecordCodec.encode(event, createdMillis, view, origin, keys, newBytes, oldBytes));
        return sequence;
    }

    /** The batch holding record {@code sequence} of table tableId was applied, or abandoned. */
    public void finish(int tableId, long sequence, boolean committed) {
        TableSequence s = sequences == null ? null : sequences.get(tableId);
        if (s != null) { // null only when the table was dropped meanwhile
            s.finish(sequence, committed);
        }
    }

    /**
     * Whether a write left the item as it was, which appends no record. A stored old item is compared
     * with the new item's bytes first, as the index planning does (IndexUpdates): equal bytes, or a
     * scalar whose bytes differ, answer without decoding either item; only sets, maps or attributes
     * in another order fall back to comparing the items' values.
     */
    private static boolean unchanged(
            Map<String, AttributeValue> oldItem, Map<String, AttributeValue> newItem, byte @Nullable [] newItemBytes) {
        if (oldItem instanceof EncodedItem stored && newItemBytes != null) {
            EncodedEquality.Answer answer = EncodedEquality.compare(stored.encoded(), newItemBytes);
            if (answer != EncodedEquality.Answer.UNKNOWN) {
                return answer == EncodedEquality.Answer.SAME;
            }
        }
        return ItemEquality.same(oldItem, newItem);
    }

    private static Map<String, AttributeValue> keysOf(TableDescriptor d, Map<String, AttributeValue> item) {
        Map<String, AttributeValue> keys = new LinkedHashMap<>(4);
        keys.put(d.hashKeyName(), item.get(d.hashKeyName()));
        if (d.rangeKeyName() != null) {
            keys.put(d.rangeKeyName(), item.get(d.rangeKeyName()));
        }
        return keys;
    }

    /** Takes the next number of d's counter in the commit's transaction, raising it in batch. */
    private long allocate(TableDescriptor d, Commit commit, WriteBatch batch) {
        Long taken = commit.next.get(d.id());
        long sequence = taken != null ? taken : counterOrRecovered(d, commit.txn.get(SequenceCounter.key(d.id())));
        commit.next.put(d.id(), sequence + 1);
        batch.put(SequenceCounter.key(d.id()), ChangeLogKeys.encodeLong(sequence + 1));
        return sequence;
    }

    /** The next number from a stored counter value, or recovered from the log when there is none. */
    private long counterOrRecovered(TableDescriptor d, byte @Nullable [] counter) {
        return counter != null ? SequenceCounter.decode(counter) : recoverNext(d, lastRecord(d.id()));
    }

    private TableSequence sequence(TableDescriptor d) {
        // Only a local store numbers from memory; the callers check that first.
        ConcurrentHashMap<Integer, TableSequence> byTable = Objects.requireNonNull(sequences, "not a local store");
        TableSequence s = byTable.get(d.id());
        return s != null ? s : byTable.computeIfAbsent(d.id(), id -> recover(d));
    }

    private TableSequence recover(TableDescriptor d) {
        byte[] key = SequenceCounter.key(d.id());
        long counter = SequenceCounter.decode(store.get(key));
        long lastRecord = lastRecord(d.id());
        long next = Math.max(counter, recoverNext(d, lastRecord));
        long lastCommitted = Math.max(lastRecord, trimmedBelow(d.id()) - 1);
        return new TableSequence(
                next,
                lastCommitted,
                counter,
                below -> store.apply(new WriteBatch().put(key, ChangeLogKeys.encodeLong(below))));
    }

    private long recoverNext(TableDescriptor d, long lastRecord) {
        return Math.max(Math.max(lastRecord + 1, trimmedBelow(d.id())), Math.max(1, floors.applyAsLong(d)));
    }

    private long lastRecord(int tableId) {
        long lastRecord = 0;
        try (Cursor c = store.scan(ChangeLogKeys.tableStart(tableId), ChangeLogKeys.tableEnd(tableId), true)) {
            if (c.next()) {
                lastRecord = ChangeLogKeys.sequenceOf(c.key());
            }
        }
        return lastRecord;
    }

    /**
     * The committed counter of a store shared by processes: its records and counter commit
     * together, so every number below it is final (committed, or never to be written).
     */
    private long committedNext(TableDescriptor d) {
        return counterOrRecovered(d, store.get(SequenceCounter.key(d.id())));
    }

    /** Every record of the table below this number has been trimmed (1 when none was). */
    public long trimmedBelow(int tableId) {
        byte[] marker = store.get(ChangeLogKeys.trimMarker(tableId));
        return marker == null ? 1 : ChangeLogKeys.decodeLong(marker);
    }

    /** Records below this number are final: a reader reads only below it. */
    public long visibleBound(TableDescriptor d) {
        return sequences == null ? committedNext(d) : sequence(d).visibleBound();
    }

    /** Just after the newest record, never past one still in flight: where LATEST starts. */
    public long latest(TableDescriptor d) {
        return sequences == null ? committedNext(d) : sequence(d).latest();
    }

    /** The number the next record of the table will get: a boundary of streams and shards. */
    public long peekNext(TableDescriptor d) {
        return sequences == null ? committedNext(d) : sequence(d).peekNext();
    }

    /** Records read in order; exhausted when no record was left below the requested end. */
    public record Page(List<ChangeRecord> records, boolean exhausted) {}

    /**
     * Up to recordsMax records of table tableId with fromSequence <= sequence < toSequence, in
     * order, stopping after the one that reaches bytesMax of SizeBytes. toSequence should not exceed
     * {@link #visibleBound}.
     */
    public Page read(int tableId, long fromSequence, long toSequence, int recordsMax, long bytesMax) {
        return page(tableId, fromSequence, toSequence, recordsMax, bytesMax, false);
    }

    /**
     * Like {@link #read}, but each record with every image it was stored with, whatever the stream's
     * view type (its view type is then NEW_AND_OLD_IMAGES): what a Kinesis destination ships.
     */
    public Page readAllImages(int tableId, long fromSequence, long toSequence, int recordsMax, long bytesMax) {
        return page(tableId, fromSequence, toSequence, recordsMax, bytesMax, true);
    }

    private Page page(
            int tableId, long fromSequence, long toSequence, int recordsMax, long bytesMax, boolean allImages) {
        List<ChangeRecord> out = new ArrayList<>(Math.min(recordsMax, 64));
        if (fromSequence >= toSequence) {
            return new Page(out, true);
        }
        long bytes = 0;
        try (Cursor c = store.scan(
                ChangeLogKeys.record(tableId, Math.max(1, fromSequence)),
                ChangeLogKeys.record(tableId, toSequence),
                false)) {
            while (c.next()) {
                if (out.size() == recordsMax || bytes >= bytesMax) {
                    return new Page(out, false);
                }
                long sequence = ChangeLogKeys.sequenceOf(c.key());
                ChangeRecord r = allImages
                        ? ChangeRecordCodec.decodeAllImages(sequence, c.value())
                        : ChangeRecordCodec.decode(sequence, c.value());
                out.add(r);
                bytes += r.sizeBytes();
            }
        }
        return new Page(out, true);
    }

    /**
     * Visits the records of table tableId with fromSequence <= sequence < toSequence in order, with
     * the new image in item-codec form whatever the view type (point-in-time recovery's replay). The
     * visitor returns false to stop.
     */
    public void replay(int tableId, long fromSequence, long toSequence, ReplayVisitor visitor) {
        if (fromSequence >= toSequence) {
            return;
        }
        try (Cursor c = store.scan(
                ChangeLogKeys.record(tableId, Math.max(1, fromSequence)),
                ChangeLogKeys.record(tableId, toSequence),
                false)) {
            while (c.next()) {
                if (!visitor.visit(ChangeRecordCodec.decodeForReplay(ChangeLogKeys.sequenceOf(c.key()), c.value()))) {
                    return;
                }
            }
        }
    }

    /** One record as replay sees it: keys decoded, the new image (null for REMOVE) still encoded. */
    public record ReplayRecord(
            long sequence,
            ChangeRecord.EventName eventName,
            long createdMillis,
            Map<String, AttributeValue> keys,
            byte @Nullable [] newImageBytes) {}

    /** Visits records in sequence order; false stops. */
    @FunctionalInterface
    public interface ReplayVisitor {
        boolean visit(ReplayRecord r);
    }

    /**
     * Deletes the table's records created before cutoffMillis (oldest first, stopping at the first
     * newer one or at the visible bound, so that a record still in flight is never jumped over)
     * and raises its trim marker past them, at most chunkRecords per storage batch. Returns how
     * many records it deleted.
     */
    public long trim(int tableId, long cutoffMillis, int chunkRecords) {
        long deleted = 0;
        while (true) {
            TableSequence s = sequences == null ? null : sequences.get(tableId);
            long bound = s == null ? Long.MAX_VALUE : s.visibleBound();
            WriteBatch batch = new WriteBatch();
            long lastDeleted = trimChunk(tableId, cutoffMillis, bound, chunkRecords, batch);
            if (lastDeleted == 0) {
                return deleted;
            }
            batch.put(ChangeLogKeys.trimMarker(tableId), ChangeLogKeys.encodeLong(lastDeleted + 1));
            deleted += batch.size() - 1;
            store.apply(batch);
        }
    }

    /** Adds the deletes of one chunk to batch; returns the last sequence deleted, 0 if none. */
    private long trimChunk(int tableId, long cutoffMillis, long bound, int chunkRecords, WriteBatch batch) {
        long last = 0;
        byte[] end = bound == Long.MAX_VALUE ? ChangeLogKeys.tableEnd(tableId) : ChangeLogKeys.record(tableId, bound);
        try (Cursor c = store.scan(ChangeLogKeys.record(tableId, 1), end, false)) {
            while (batch.size() < chunkRecords && c.next()) {
                if (ChangeRecordCodec.createdMillis(c.value()) >= cutoffMillis) {
                    break;
                }
                batch.delete(c.key());
                last = ChangeLogKeys.sequenceOf(c.key());
            }
        }
        return last;
    }

    /**
     * Drops the in-memory state of tables that no longer exist (their keys went with the table).
     * exists is asked per table at the time of the check: a table has state only after its first
     * record, which comes after it entered the catalog, so a new table is never forgotten.
     */
    public void forgetDropped(java.util.function.IntPredicate exists) {
        if (sequences == null) {
            return;
        }
        sequences.keySet().removeIf(id -> !exists.test(id));
    }
}
