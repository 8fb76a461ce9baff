package dev.kumiko.engine.streams;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.StreamEpoch;
import dev.kumiko.catalog.StreamLabels;
import dev.kumiko.catalog.StreamSettings;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.changelog.ChangeLogTrimmer;
import dev.kumiko.model.StreamViewType;
import dev.kumiko.storage.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Streams being enabled, disabled and cut into shards. A stream covers the change log numbers
 * from the moment it is enabled to the moment it is disabled:
 *
 * <ul>
 *   <li>Enabling takes the next number before the new descriptor is published. Writers that still
 *       see the old descriptor record nothing, writers that see the new one take later numbers, so
 *       the stream starts exactly at its first record.
 *   <li>Disabling publishes the new descriptor, then waits out every writer that may still hold
 *       the old one ({@link Store#awaitTransactions}: writers read the descriptor in their item's
 *       lock), then records the next number as the stream's end. No record of the stream can
 *       land past it.
 *   <li>A shard is closed and a child opened every {@link #SHARD_ROLL_MILLIS}, as DynamoDB does
 *       about every four hours; the boundary is the next number, taken under the catalog's lock.
 * </ul>
 *
 * These boundaries are stored in the catalog, so they also give the change log a floor for its
 * numbers after a restart.
 */
public final class StreamLifecycle {
    /** How long a shard stays open before it is closed and a child shard takes over. */
    public static final long SHARD_ROLL_MILLIS = 4L * 60 * 60 * 1000;
    /** Streams of one table remembered at most (the enabled one and recently disabled ones). */
    static final int EPOCHS_MAX = 16;

    private final Catalog catalog;
    private final ChangeLog changeLog;
    private final Store store;

    public StreamLifecycle(Catalog catalog, ChangeLog changeLog, Store store) {
        this.catalog = catalog;
        this.changeLog = changeLog;
        this.store = store;
    }

    /** The stream settings of a new table (its change log is empty: the stream starts at 1). */
    public StreamSettings onCreate(StreamRequests.@Nullable Specification s, long nowMillis) {
        if (s == null || !Boolean.TRUE.equals(s.streamEnabled())) {
            return StreamSettings.NONE;
        }
        StreamEpoch epoch = open(viewType(s), nowMillis, 1, List.of());
        return new StreamSettings(true, epoch.viewType(), epoch.label(), List.of(epoch));
    }

    /**
     * The stream settings after UpdateTable's StreamSpecification (already validated against d).
     * A disabled stream still needs {@link #closeDisabled} once the new descriptor is published.
     */
    public StreamSettings onUpdate(StreamRequests.@Nullable Specification s, TableDescriptor d, long nowMillis) {
        StreamSettings current = d.stream();
        if (s == null) {
            return current;
        }
        List<StreamEpoch> kept = retained(current.epochs(), nowMillis);
        if (Boolean.TRUE.equals(s.streamEnabled())) {
            StreamEpoch epoch = open(viewType(s), nowMillis, changeLog.peekNext(d), kept);
            kept.add(epoch);
            return new StreamSettings(true, epoch.viewType(), epoch.label(), bounded(kept));
        }
        StreamEpoch open = current.current();
        if (open != null) {
            kept.set(kept.indexOf(open), open.disabled(nowMillis));
        }
        return new StreamSettings(false, null, current.label(), kept);
    }

    /**
     * After a descriptor that disabled the stream was published: once no writer can still hold
     * the old descriptor, the disabled stream's end is known and recorded. Call under the
     * catalog's lock.
     */
    public void closeDisabled(Table t) {
        StreamEpoch closing = closing(t.descriptor().stream());
        if (closing == null) {
            return;
        }
        store.awaitTransactions();
        long end = changeLog.peekNext(t.descriptor());
        catalog.modify(t, d -> {
            StreamEpoch open = closing(d.stream());
            if (open == null) {
                return d;
            }
            List<StreamEpoch> epochs = new ArrayList<>(d.stream().epochs());
            epochs.set(epochs.indexOf(open), open.closed(end));
            return d.withStream(new StreamSettings(
                    d.stream().enabled(), d.stream().viewType(), d.stream().label(), epochs));
        });
    }

    private static @Nullable StreamEpoch closing(StreamSettings s) {
        for (StreamEpoch e : s.epochs()) {
            if (!e.isEnabled() && !e.isClosed()) {
                return e;
            }
        }
        return null;
    }

    /**
     * Closes the enabled stream's open shard and opens its child when the shard is old enough.
     * Streams API calls run this first, so shard lineage follows the engine's clock without a
     * timer.
     */
    public void rollShards(Table t, long nowMillis) {
        StreamEpoch current = t.descriptor().stream().current();
        if (current == null || nowMillis - lastShard(current).createdMillis() < SHARD_ROLL_MILLIS) {
            return;
        }
        synchronized (catalog) {
            TableDescriptor d = t.descriptor();
            StreamEpoch e = d.stream().current();
            if (catalog.get(d.tableName()) != t
                    || e == null
                    || nowMillis - lastShard(e).createdMillis() < SHARD_ROLL_MILLIS) {
                return;
            }
            long boundary = changeLog.peekNext(d);
            catalog.modify(t, stored -> {
                StreamEpoch open = stored.stream().current();
                if (open == null || nowMillis - lastShard(open).createdMillis() < SHARD_ROLL_MILLIS) {
                    return stored; // another engine rolled it meanwhile
                }
                // Shards closed more than a day ago hold only trimmed records: forget them.
                List<StreamEpoch.ShardSpan> shards = recentShards(open, nowMillis);
                shards.add(new StreamEpoch.ShardSpan(boundary, nowMillis));
                List<StreamEpoch> epochs = new ArrayList<>(stored.stream().epochs());
                epochs.set(epochs.size() - 1, open.withShards(shards));
                return stored.withStream(new StreamSettings(
                        true, stored.stream().viewType(), stored.stream().label(), epochs));
            });
        }
    }

    /** The epoch's shards minus those closed more than the retention period ago. */
    private static List<StreamEpoch.ShardSpan> recentShards(StreamEpoch e, long nowMillis) {
        List<StreamEpoch.ShardSpan> all = e.shards();
        List<StreamEpoch.ShardSpan> out = new ArrayList<>(all.size() + 1);
        for (int i = 0; i < all.size(); i++) {
            boolean closedLongAgo = i + 1 < all.size()
                    && all.get(i + 1).createdMillis() < nowMillis - ChangeLogTrimmer.RETENTION_MILLIS;
            if (!closedLongAgo) {
                out.add(all.get(i));
            }
        }
        return out;
    }

    private static StreamEpoch.ShardSpan lastShard(StreamEpoch e) {
        return e.shards().get(e.shards().size() - 1);
    }

    /** An enabling specification's view type: the validators refused one without it. */
    private static StreamViewType viewType(StreamRequests.Specification s) {
        return Objects.requireNonNull(s.streamViewType(), "enabled stream without a view type");
    }

    private static StreamEpoch open(
            StreamViewType viewType, long nowMillis, long startSequence, List<StreamEpoch> others) {
        long labelMillis = nowMillis;
        // A label names the stream's ARN: never give two streams of a table the same one.
        while (hasLabel(others, StreamLabels.of(labelMillis))) {
            labelMillis++;
        }
        return new StreamEpoch(
                StreamLabels.of(labelMillis),
                viewType,
                nowMillis,
                0,
                0,
                List.of(new StreamEpoch.ShardSpan(startSequence, nowMillis)));
    }

    private static boolean hasLabel(List<StreamEpoch> epochs, String label) {
        return epochs.stream().anyMatch(e -> e.label().equals(label));
    }

    /** Streams still readable: enabled, or disabled less than the retention period ago. */
    private static List<StreamEpoch> retained(List<StreamEpoch> epochs, long nowMillis) {
        List<StreamEpoch> out = new ArrayList<>(epochs.size() + 1);
        for (StreamEpoch e : epochs) {
            if (isReadable(e, nowMillis)) {
                out.add(e);
            }
        }
        return out;
    }

    /** ListStreams shows a stream while it is enabled and for 24 hours after it was disabled. */
    public static boolean isReadable(StreamEpoch e, long nowMillis) {
        return e.isEnabled() || e.disabledMillis() >= nowMillis - ChangeLogTrimmer.RETENTION_MILLIS;
    }

    private static List<StreamEpoch> bounded(List<StreamEpoch> epochs) {
        return epochs.size() <= EPOCHS_MAX ? epochs : epochs.subList(epochs.size() - EPOCHS_MAX, epochs.size());
    }

    /**
     * The lowest number the table's next record may take, by the boundaries the catalog holds: a
     * stream's end, a shard's start. After a restart, the change log starts no lower.
     */
    public static long sequenceFloor(TableDescriptor d) {
        long floor = 0;
        for (StreamEpoch e : d.stream().epochs()) {
            floor = Math.max(floor, Math.max(e.endSequence(), lastShard(e).startSequence()));
        }
        return floor;
    }
}
