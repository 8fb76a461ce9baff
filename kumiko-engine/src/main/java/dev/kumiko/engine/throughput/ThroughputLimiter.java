package dev.kumiko.engine.throughput;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.engine.capacity.UsageObserver;
import dev.kumiko.engine.insights.ContributorCounts;
import dev.kumiko.error.ThroughputExceeded;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.ReturnConsumedCapacity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Throughput enforcement, so that throttling can be tested locally. Off unless the server runs
 * with it on or the table's {@value #TAG_KEY} tag says {@code on} (the tag wins over the server
 * setting, so {@code off} exempts a table).
 *
 * <p>Each operation asks to be admitted before it runs and is charged what it consumed after:
 * a provisioned table has token buckets for its RCU and WCU and for each GSI's, refilled at the
 * provisioned rate with DynamoDB's 300 seconds of burst; every table, in either capacity mode, has
 * the per-partition-key limits of 3,000 RCU and 1,000 WCU a second. Nothing is refused or charged
 * for a table that is not enforced.
 *
 * <p>Since every read and write is admitted here, this is also where the keys of tables with
 * Contributor Insights on are counted, admitted or throttled ({@link ContributorCounts}); for other
 * tables that costs one field read of the descriptor.
 */
public final class ThroughputLimiter {
    /** The per-table switch: {@code on} or {@code off}; any other value follows the server. */
    public static final String TAG_KEY = "kumiko:throttling";

    private static final byte KEY_READ = 'r';
    private static final byte KEY_WRITE = 'w';

    private final Clock clock;
    private final boolean enforcedByDefault;
    /** Weak keys: a dropped table's buckets go with its Table object. */
    private final Map<Table, ProvisionedBuckets> provisioned = Collections.synchronizedMap(new WeakHashMap<>());

    private final KeyBuckets keys = new KeyBuckets(KeyBuckets.KEYS_MAX);
    /** Sees every charge, enforced or not: the one place that knows each request's units and key. */
    private volatile UsageObserver observer = UsageObserver.NONE;

    private final ContributorCounts contributors;

    public ThroughputLimiter(Clock clock, boolean enforcedByDefault, ContributorCounts contributors) {
        this.clock = clock;
        this.enforcedByDefault = enforcedByDefault;
        this.contributors = contributors;
    }

    public boolean enforced(TableDescriptor d) {
        String tag = d.tags() == null ? null : d.tags().get(TAG_KEY);
        if ("on".equals(tag)) {
            return true;
        }
        if ("off".equals(tag)) {
            return false;
        }
        return enforcedByDefault;
    }

    /**
     * Before a write of the item whose partition key is {@code partitionKey}: refuses it when the
     * table's write bucket or the key's is empty. GSIs are checked once the new item is known, by
     * {@link #admitIndexWrites}. {@code key} is the item or its key, when known (its sort key is
     * counted by Contributor Insights).
     */
    public void admitWrite(Table t, @Nullable AttributeValue partitionKey, @Nullable Map<String, AttributeValue> key) {
        admit(t, null, partitionKey, key, false);
    }

    /**
     * Before a read of the table, one of its indexes (null: the table), and one key (null: many);
     * {@code key} is the item's key for a read of one item, else null.
     */
    public void admitRead(
            Table t,
            @Nullable IndexDescriptor index,
            @Nullable AttributeValue partitionKey,
            @Nullable Map<String, AttributeValue> key) {
        admit(t, index, partitionKey, key, true);
    }

    /**
     * Before committing oldItem → newItem: refuses the write, which then changes nothing, when a
     * provisioned GSI it would change has an empty write bucket, naming every such GSI.
     */
    public void admitIndexWrites(
            Table t, @Nullable Map<String, AttributeValue> oldItem, @Nullable Map<String, AttributeValue> newItem) {
        TableDescriptor d = t.descriptor();
        if (d.globalSecondaryIndexes().isEmpty() || !enforced(d) || !isProvisioned(d)) {
            return;
        }
        long now = clock.nowMillis();
        List<String> empty = new ArrayList<>(0);
        for (IndexDescriptor x : IndexWrites.changedGlobalIndexes(d, oldItem, newItem)) {
            TokenBucket b = buckets(t).index(d, x, false, now);
            if (b != null && !b.admits(now)) {
                empty.add(x.indexName());
            }
        }
        if (!empty.isEmpty()) {
            if (d.contributorInsights().enabledAny() && newItem != null) {
                countIndexThrottles(d, empty, newItem);
            }
            throw ThrottleErrors.indexes(d.tableName(), empty, false);
        }
    }

    /** A write refused for these GSIs is a throttled key of each, the new item's index key. */
    private void countIndexThrottles(TableDescriptor d, List<String> indexNames, Map<String, AttributeValue> item) {
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            if (indexNames.contains(x.indexName())) {
                contributors.count(d, x, true, item.get(x.hashKeyName()), item);
            }
        }
    }

    /** After a write: the table (with its LSIs), the key and each GSI pay what they consumed. */
    public void chargeWrite(Table t, @Nullable AttributeValue partitionKey, CapacityTally units) {
        charge(t, null, partitionKey, units, false);
    }

    /** After a read of the table or one of its indexes (index null: the table). */
    public void chargeRead(
            Table t, @Nullable IndexDescriptor index, @Nullable AttributeValue partitionKey, CapacityTally units) {
        charge(t, index, partitionKey, units, true);
    }

    /**
     * After UpdateTable changed t's descriptor: its buckets refill at the old rates up to now and
     * at the new ones from now on.
     */
    public void throughputChanged(Table t) {
        ProvisionedBuckets b = provisioned.get(t);
        if (b != null) {
            b.sync(t.descriptor(), clock.nowMillis());
        }
    }

    private void admit(
            Table t,
            @Nullable IndexDescriptor index,
            @Nullable AttributeValue partitionKey,
            @Nullable Map<String, AttributeValue> key,
            boolean read) {
        TableDescriptor d = t.descriptor();
        if (!d.contributorInsights().enabledAny()) {
            check(t, d, index, partitionKey, read);
            return;
        }
        try {
            check(t, d, index, partitionKey, read);
        } catch (ThroughputExceeded e) {
            contributors.count(d, index, true, partitionKey, key);
            throw e;
        }
        contributors.count(d, index, false, partitionKey, key);
    }

    private void check(
            Table t,
            TableDescriptor d,
            @Nullable IndexDescriptor index,
            @Nullable AttributeValue partitionKey,
            boolean read) {
        if (!enforced(d)) {
            return;
        }
        long now = clock.nowMillis();
        IndexDescriptor gsi = index != null && index.global() ? index : null;
        boolean onGsi = gsi != null;
        if (isProvisioned(d)) {
            TokenBucket b = gsi != null
                    ? buckets(t).index(d, gsi, read, now)
                    : buckets(t).table(d, read, now);
            if (b != null && !b.admits(now)) {
                throw gsi != null
                        ? ThrottleErrors.indexes(d.tableName(), List.of(gsi.indexName()), read)
                        : ThrottleErrors.table(d.tableName(), read);
            }
        }
        if (partitionKey != null
                && !onGsi
                && !keyBucket(d, partitionKey, read, now).admits(now)) {
            throw ThrottleErrors.hotKey(d.tableName(), read);
        }
    }

    /** Sets who is told about every charge and read page (UsageObserver.NONE: nobody). */
    public void observe(UsageObserver o) {
        observer = o;
    }

    public UsageObserver observer() {
        return observer;
    }

    private void charge(
            Table t,
            @Nullable IndexDescriptor index,
            @Nullable AttributeValue partitionKey,
            CapacityTally units,
            boolean read) {
        TableDescriptor d = t.descriptor();
        observer.consumed(d, index, partitionKey, read, units);
        if (!enforced(d)) {
            return;
        }
        long now = clock.nowMillis();
        ConsumedCapacity c =
                Objects.requireNonNull(units.report(ReturnConsumedCapacity.INDEXES), "INDEXES is reported");
        boolean onGsi = index != null && index.global();
        // LSIs live in the table's partitions and share its throughput; GSIs have their own.
        long tableMilli = onGsi ? 0 : milli(c.tableUnits() + sum(c.localIndexes()));
        if (isProvisioned(d)) {
            ProvisionedBuckets buckets = buckets(t);
            chargeIfAny(buckets.table(d, read, now), tableMilli, now);
            for (IndexDescriptor x : d.globalSecondaryIndexes()) {
                Double u = c.globalIndexes().get(x.indexName());
                if (u != null) {
                    chargeIfAny(buckets.index(d, x, read, now), milli(u), now);
                }
            }
        }
        if (partitionKey != null && !onGsi) {
            keyBucket(d, partitionKey, read, now).charge(tableMilli, now);
        }
    }

    private ProvisionedBuckets buckets(Table t) {
        return provisioned.computeIfAbsent(t, x -> new ProvisionedBuckets());
    }

    private TokenBucket keyBucket(TableDescriptor d, AttributeValue partitionKey, boolean read, long now) {
        byte[] prefix = ItemKey.partitionPrefix(d.id(), partitionKey);
        byte[] key = new byte[prefix.length + 1];
        key[0] = read ? KEY_READ : KEY_WRITE;
        System.arraycopy(prefix, 0, key, 1, prefix.length);
        return keys.bucket(key, read, now);
    }

    private static void chargeIfAny(@Nullable TokenBucket b, long milliUnits, long now) {
        if (b != null && milliUnits > 0) {
            b.charge(milliUnits, now);
        }
    }

    private static boolean isProvisioned(TableDescriptor d) {
        return d.billingMode() == BillingMode.PROVISIONED;
    }

    private static double sum(Map<String, Double> units) {
        double s = 0;
        for (double u : units.values()) {
            s += u;
        }
        return s;
    }

    /** Units are whole or half (eventually consistent reads), so thousandths are exact. */
    private static long milli(double units) {
        return Math.round(units * TokenBucket.MILLI_UNITS_PER_UNIT);
    }
}
