package dev.kumiko.engine.backup;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.changelog.ChangeRecord;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.storage.Cursor;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A table's past, as point-in-time recovery keeps it: reads of "the items of table X as of time T"
 * and "the changes of table X between T1 and T2", for restores and exports.
 *
 * <p>The state at T is rebuilt from the newest base copy taken at or before T (a consistent copy of
 * the table's items, {@link ContinuousBackups} takes one when recovery is turned on and then every
 * {@code EngineSettings.pitrBaseIntervalMillis}) plus the change log's records from the copy's
 * sequence floor whose time is at or before T, the last one per item winning. Resolution is the
 * change log's: one millisecond, and a change belongs to the time its record was written (just
 * before its commit). Both calls need point-in-time recovery on for the table, and T inside
 * {@link #window}; they answer PointInTimeRecoveryUnavailableException or
 * InvalidRestoreTimeException otherwise.
 *
 * <p>Memory: the changes between the base copy and T are gathered (one entry per changed item)
 * before items are handed out, so it grows with the writes of one base interval, not with the
 * table.
 */
public final class TableHistory {
    /** How far behind now the newest restorable time stays, so no in-flight write is missed. */
    public static final long LATEST_LAG_MILLIS = 1_000;
    /** Records are written just before their commit; one later than T by this much ends a replay. */
    static final long RECORD_ORDER_SLACK_MILLIS = 60_000;

    private static final byte[] REMOVED = new byte[0];

    private final Catalog catalog;
    private final ChangeLog changeLog;
    private final BackupStore backups;
    private final Clock clock;

    /** What a table's recovery can reach: every millisecond from earliest to latest, inclusive. */
    public record Window(long earliestMillis, long latestMillis) {}

    /** One change as history keeps it; newImage is null for a REMOVE. */
    public record Change(
            long sequence,
            ChangeRecord.EventName eventName,
            long createdMillis,
            Map<String, AttributeValue> keys,
            @Nullable Map<String, AttributeValue> newImage) {}

    /** An item in key order: rest is its key after the table id, item its stored form. */
    @FunctionalInterface
    interface RawItemVisitor {
        void visit(byte[] rest, byte[] item);
    }

    TableHistory(Catalog catalog, ChangeLog changeLog, BackupStore backups, Clock clock) {
        this.catalog = catalog;
        this.changeLog = changeLog;
        this.backups = backups;
        this.clock = clock;
    }

    /** The restorable window of a table (a name or an ARN). */
    public Window window(String tableNameOrArn) {
        return window(recovering(tableNameOrArn).descriptor());
    }

    /**
     * Hands every item of the table (a name or an ARN) as it was at epochMillis to consumer, in the
     * table's storage order (partition-key hash, then keys).
     */
    public void forEachItemAt(String tableNameOrArn, long epochMillis, Consumer<Map<String, AttributeValue>> consumer) {
        TableDescriptor d = recovering(tableNameOrArn).descriptor();
        checkInside(window(d), epochMillis);
        // Each item stays in its stored bytes: an export's DynamoDB JSON line is written from them.
        itemsAt(d, epochMillis, null, (rest, item) -> consumer.accept(EncodedItem.of(item)));
    }

    /**
     * Hands every change of the table with fromMillisExclusive < time <= toMillisInclusive to
     * consumer, in sequence order (per item, in commit order). Both times must be in the window.
     */
    public void forEachChangeBetween(
            String tableNameOrArn, long fromMillisExclusive, long toMillisInclusive, Consumer<Change> consumer) {
        TableDescriptor d = recovering(tableNameOrArn).descriptor();
        Window w = window(d);
        checkInside(w, fromMillisExclusive);
        checkInside(w, toMillisInclusive);
        changeLog.replay(d.id(), changeLog.trimmedBelow(d.id()), changeLog.visibleBound(d), r -> {
            if (r.createdMillis() > fromMillisExclusive && r.createdMillis() <= toMillisInclusive) {
                consumer.accept(new Change(
                        r.sequence(),
                        r.eventName(),
                        r.createdMillis(),
                        r.keys(),
                        r.newImageBytes() == null ? null : EncodedItem.of(r.newImageBytes())));
            }
            return r.createdMillis() <= toMillisInclusive + RECORD_ORDER_SLACK_MILLIS;
        });
    }

    Table recovering(String tableNameOrArn) {
        String name = TableNames.resolve(tableNameOrArn, "tableName");
        Table t = catalog.get(name);
        if (t == null) {
            throw BackupErrors.tableNotFound(name);
        }
        if (!t.descriptor().recovery().pitrEnabled()) {
            throw BackupErrors.pitrUnavailable(name);
        }
        return t;
    }

    Window window(TableDescriptor d) {
        long now = clock.nowMillis();
        long periodStart = now - d.recovery().recoveryPeriodInDays() * 86_400_000L;
        long earliest = Long.MAX_VALUE;
        for (BackupRecord b : backups.bases(d.id())) {
            if (b.status() != BackupRecord.Status.FAILED) {
                earliest = Math.min(earliest, b.createdMillis());
            }
        }
        earliest = earliest == Long.MAX_VALUE ? d.recovery().pitrEnabledMillis() : Math.max(earliest, periodStart);
        return new Window(earliest, Math.max(earliest, now - LATEST_LAG_MILLIS));
    }

    static void checkInside(Window w, long epochMillis) {
        if (epochMillis < w.earliestMillis() || epochMillis > w.latestMillis()) {
            throw BackupErrors.invalidRestoreTime();
        }
    }

    /**
     * The items of table d at pointMillis in key order, starting after resumeAfter (null: from the
     * first): the base copy merged with the changes replayed on it.
     */
    void itemsAt(TableDescriptor d, long pointMillis, byte @Nullable [] resumeAfter, RawItemVisitor visitor) {
        BackupRecord base = awaitBase(d.id(), pointMillis);
        NavigableMap<byte[], byte[]> changes = changesUpTo(d, base, pointMillis);
        if (resumeAfter != null) {
            changes = changes.tailMap(resumeAfter, false);
        }
        merge(base.copyId(), resumeAfter, changes, visitor);
    }

    /** Every item of a copy in key order, starting after resumeAfter. */
    void itemsOf(int copyId, byte @Nullable [] resumeAfter, RawItemVisitor visitor) {
        merge(copyId, resumeAfter, new TreeMap<>(Arrays::compareUnsigned), visitor);
    }

    /** The newest base at or before pointMillis, waiting for it if it is still being copied. */
    private BackupRecord awaitBase(int tableId, long pointMillis) {
        for (long waitedMillis = 0; ; waitedMillis += BASE_POLL_MILLIS) {
            BackupRecord chosen = null;
            for (BackupRecord b : backups.bases(tableId)) {
                if (b.createdMillis() <= pointMillis && b.status() != BackupRecord.Status.FAILED) {
                    chosen = b;
                }
            }
            if (chosen == null) {
                throw BackupErrors.invalidRestoreTime();
            }
            if (chosen.status() == BackupRecord.Status.AVAILABLE) {
                return chosen;
            }
            if (waitedMillis > BASE_WAIT_MILLIS_MAX) {
                throw new IllegalStateException("the recovery base of table " + tableId + " is not ready");
            }
            sleep(BASE_POLL_MILLIS);
        }
    }

    private static final long BASE_POLL_MILLIS = 50;
    /** A restore waits at most this long for the base copy it needs to finish. */
    private static final long BASE_WAIT_MILLIS_MAX = 30L * 60 * 1000;

    private NavigableMap<byte[], byte[]> changesUpTo(TableDescriptor d, BackupRecord base, long pointMillis) {
        NavigableMap<byte[], byte[]> changes = new TreeMap<>(Arrays::compareUnsigned);
        changeLog.replay(d.id(), base.sequenceFloor(), changeLog.visibleBound(d), r -> {
            if (r.createdMillis() <= pointMillis) {
                changes.put(
                        restOf(d, r.keys()),
                        r.eventName() == ChangeRecord.EventName.REMOVE ? REMOVED : requireImage(r));
            }
            return r.createdMillis() <= pointMillis + RECORD_ORDER_SLACK_MILLIS;
        });
        return changes;
    }

    private static byte[] requireImage(ChangeLog.ReplayRecord r) {
        if (r.newImageBytes() == null) {
            throw new IllegalStateException("change record " + r.sequence() + " has no new image to recover from");
        }
        return r.newImageBytes();
    }

    private static byte[] restOf(TableDescriptor d, Map<String, AttributeValue> keys) {
        AttributeValue sk = d.rangeKeyName() == null ? null : keys.get(d.rangeKeyName());
        return BackupKeys.restOfItemKey(ItemKey.of(0, d.hashKeyOf(keys), sk));
    }

    private void merge(
            int copyId, byte @Nullable [] resumeAfter, NavigableMap<byte[], byte[]> changes, RawItemVisitor visitor) {
        byte[] start = resumeAfter == null
                ? BackupKeys.copyStart(copyId)
                : after(BackupKeys.copyItem(copyId, BackupKeys.itemKey(0, resumeAfter)));
        Iterator<Map.Entry<byte[], byte[]>> pending = changes.entrySet().iterator();
        Map.Entry<byte[], byte[]> change = pending.hasNext() ? pending.next() : null;
        try (Cursor c = backups.store().scan(start, BackupKeys.copyEnd(copyId), false)) {
            while (c.next()) {
                byte[] rest = BackupKeys.restOfCopyKey(c.key());
                while (change != null && Arrays.compareUnsigned(change.getKey(), rest) < 0) {
                    emit(change, visitor);
                    change = pending.hasNext() ? pending.next() : null;
                }
                if (change != null && Arrays.equals(change.getKey(), rest)) {
                    emit(change, visitor);
                    change = pending.hasNext() ? pending.next() : null;
                } else {
                    visitor.visit(rest, c.value());
                }
            }
        }
        for (; change != null; change = pending.hasNext() ? pending.next() : null) {
            emit(change, visitor);
        }
    }

    private static void emit(Map.Entry<byte[], byte[]> change, RawItemVisitor visitor) {
        if (change.getValue() != REMOVED) {
            visitor.visit(change.getKey(), change.getValue());
        }
    }

    /** The smallest key after k. */
    private static byte[] after(byte[] k) {
        return Arrays.copyOf(k, k.length + 1);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JobRunner.Stopped(); // the engine is closing: the job resumes at the next open
        }
    }

    /** For callers that list a table's bases (tests, docs). */
    List<BackupRecord> bases(int tableId) {
        return backups.bases(tableId);
    }
}
