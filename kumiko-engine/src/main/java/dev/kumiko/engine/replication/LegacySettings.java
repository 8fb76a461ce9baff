package dev.kumiko.engine.replication;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.ControlPlane;
import dev.kumiko.engine.control.CreateTableRequest.ThroughputInput;
import dev.kumiko.engine.control.UpdateTableRequest;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.model.BillingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The settings of a legacy global table (DescribeGlobalTableSettings, UpdateGlobalTableSettings):
 * each region's table is described and changed in that region, by UpdateTable there, so the
 * table's own rules (units at least 1, no units on demand, a change that changes nothing) hold as
 * they do for UpdateTable. The region that receives the request checks what it can first
 * (replicas, indexes, statuses), changes its own table, then each peer's in the set's order. A
 * peer that refuses or does not answer stops the request with the regions before it changed.
 */
final class LegacySettings {
    private final Catalog catalog;
    private final ControlPlane control;

    LegacySettings(Catalog catalog, ControlPlane control) {
        this.catalog = catalog;
        this.control = control;
    }

    /** Every region's settings, in the set's order, each with the status the set gives it. */
    List<ReplicaSettings> describe(ReplicaSet set, String local, Function<String, PeerLink> peer) {
        List<ReplicaSettings> out = new ArrayList<>(set.replicas().size());
        for (ReplicaSet.Replica r : set.replicas()) {
            ReplicaSettings s = r.region().equals(local)
                    ? of(table(set.tableName()).descriptor(), local)
                    : reach(r.region(), () -> peer.apply(r.region()).settings(set.tableName(), null));
            out.add(s.withStatus(r.status()));
        }
        return out;
    }

    /** Checks u against the set and this region's table, then changes each region's table. */
    List<ReplicaSettings> update(
            ReplicaSet set, GlobalSettingsUpdate u, String local, Function<String, PeerLink> peer) {
        TableDescriptor d = table(set.tableName()).descriptor();
        check(set, u, d);
        Map<String, PeerLink> links = new HashMap<>();
        for (String r : set.peersOf(local)) {
            links.put(r, peer.apply(r)); // every region a peer before any table changes
        }
        List<ReplicaSettings> out = new ArrayList<>(set.replicas().size());
        for (ReplicaSet.Replica r : set.replicas()) {
            SettingsChange c = u.changeFor(r.region());
            ReplicaSettings s = r.region().equals(local)
                    ? apply(set.tableName(), c, local)
                    : reach(r.region(), () -> linkOf(links, r.region()).settings(set.tableName(), c));
            out.add(s.withStatus(r.status()));
        }
        return out;
    }

    /** What a region does with its own table: applies c (when not null), then describes the table. */
    ReplicaSettings apply(String tableName, @Nullable SettingsChange c, String local) {
        if (c != null) {
            TableDescriptor d = table(tableName).descriptor();
            UpdateTableRequest r = request(d, c);
            if (r != null) {
                control.updateTable(new RequestContext(local), r);
            }
        }
        return of(table(tableName).descriptor(), local);
    }

    /**
     * The API Reference's errors, in the order Kumiko checks them: a region not in the set
     * (ReplicaNotFoundException), an index the table does not have (IndexNotFoundException), a
     * replica or table that is not ACTIVE (ResourceInUseException). The messages are Kumiko's own:
     * the API Reference quotes none.
     */
    static void check(ReplicaSet set, GlobalSettingsUpdate u, TableDescriptor d) {
        for (GlobalSettingsUpdate.Replica r : u.replicas()) {
            if (!set.holds(r.region())) {
                throw new DynamoException(ErrorCode.REPLICA_NOT_FOUND, "Replica not found: " + r.region());
            }
        }
        checkIndexes(d, u.indexWriteCapacityUnits().keySet());
        for (GlobalSettingsUpdate.Replica r : u.replicas()) {
            checkIndexes(d, r.indexReadCapacityUnits().keySet());
        }
        for (ReplicaSet.Replica r : set.replicas()) {
            if (r.status() != ReplicaStatus.ACTIVE) {
                throw new DynamoException(
                        ErrorCode.RESOURCE_IN_USE,
                        "Global table " + set.tableName() + " is being updated: replica " + r.region() + " is "
                                + r.status());
            }
        }
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            if (!x.indexStatus().equals(IndexDescriptor.ACTIVE)) {
                throw new DynamoException(
                        ErrorCode.RESOURCE_IN_USE,
                        "Global table " + set.tableName() + " is being updated: index " + x.indexName() + " is "
                                + x.indexStatus());
            }
        }
    }

    private static void checkIndexes(TableDescriptor d, Set<String> names) {
        for (String name : names) {
            if (gsi(d, name) == null) {
                throw new DynamoException(
                        ErrorCode.INDEX_NOT_FOUND,
                        "Requested resource not found: Index: " + name + " not found in table " + d.tableName());
            }
        }
    }

    /** A region's table's settings; its status is the set's business (ACTIVE here). */
    static ReplicaSettings of(TableDescriptor d, String region) {
        List<ReplicaSettings.IndexSettings> indexes = new ArrayList<>();
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            indexes.add(new ReplicaSettings.IndexSettings(
                    x.indexName(),
                    x.indexStatus(),
                    x.throughput().readCapacityUnits(),
                    x.throughput().writeCapacityUnits()));
        }
        boolean provisioned = d.billingMode() == BillingMode.PROVISIONED;
        return new ReplicaSettings(
                region,
                ReplicaStatus.ACTIVE,
                d.billingMode(),
                provisioned ? 0 : Math.max(0, d.billingModeChangeEpochMillis()),
                provisioned ? d.throughput().readCapacityUnits() : 0,
                provisioned ? d.throughput().writeCapacityUnits() : 0,
                indexes,
                d.tableClass());
    }

    /**
     * The UpdateTable that makes c of d, or null when c changes nothing: a member is sent only when
     * it differs from the table's (UpdateTable refuses a change to the same units), and units the
     * change leaves alone keep the table's values.
     */
    @SuppressWarnings("NullAway") // UpdateTableRequest's members are null when absent (issue #64)
    static @Nullable UpdateTableRequest request(TableDescriptor d, SettingsChange c) {
        BillingMode target = c.billingMode() == null ? d.billingMode() : c.billingMode();
        boolean switching = target != d.billingMode();
        ThroughputInput units = null;
        if (c.readCapacityUnits() != null || c.writeCapacityUnits() != null) {
            long read = c.readCapacityUnits() == null ? d.throughput().readCapacityUnits() : c.readCapacityUnits();
            long write = c.writeCapacityUnits() == null ? d.throughput().writeCapacityUnits() : c.writeCapacityUnits();
            boolean same = read == d.throughput().readCapacityUnits()
                    && write == d.throughput().writeCapacityUnits();
            if (switching || !same || target == BillingMode.PAY_PER_REQUEST) {
                units = new ThroughputInput(read, write); // on demand: UpdateTable refuses the units
            }
        }
        List<UpdateTableRequest.GsiUpdate> gsis = new ArrayList<>();
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            UpdateTableRequest.GsiThroughputUpdate g = gsiUpdate(x, c, switching);
            if (g != null) {
                gsis.add(new UpdateTableRequest.GsiUpdate(null, g, null));
            }
        }
        boolean classChange = c.tableClass() != null && c.tableClass() != d.tableClass();
        if (!switching && units == null && gsis.isEmpty() && !classChange) {
            return null;
        }
        return new UpdateTableRequest(
                d.tableName(),
                null,
                switching ? target : null,
                units,
                gsis.isEmpty() ? null : gsis,
                null,
                null,
                false,
                classChange ? c.tableClass() : null,
                null);
    }

    private static UpdateTableRequest.@Nullable GsiThroughputUpdate gsiUpdate(
            IndexDescriptor x, SettingsChange c, boolean switching) {
        Long read = c.indexReadCapacityUnits().get(x.indexName());
        Long write = c.indexWriteCapacityUnits().get(x.indexName());
        if (read == null && write == null) {
            return null;
        }
        long r = read == null ? x.throughput().readCapacityUnits() : read;
        long w = write == null ? x.throughput().writeCapacityUnits() : write;
        if (!switching
                && r == x.throughput().readCapacityUnits()
                && w == x.throughput().writeCapacityUnits()) {
            return null;
        }
        return new UpdateTableRequest.GsiThroughputUpdate(x.indexName(), new ThroughputInput(r, w));
    }

    private static @Nullable IndexDescriptor gsi(TableDescriptor d, String name) {
        for (IndexDescriptor x : d.globalSecondaryIndexes()) {
            if (x.indexName().equals(name)) {
                return x;
            }
        }
        return null;
    }

    private static PeerLink linkOf(Map<String, PeerLink> links, String region) {
        PeerLink l = links.get(region);
        if (l == null) {
            throw new IllegalStateException("no link to " + region + ", a region of the set");
        }
        return l;
    }

    private Table table(String name) {
        Table t = catalog.get(name);
        if (t == null) {
            throw DynamoException.resourceNotFound("Requested resource not found: Table: " + name + " not found");
        }
        return t;
    }

    private static ReplicaSettings reach(String region, java.util.function.Supplier<ReplicaSettings> call) {
        try {
            return call.get();
        } catch (PeerLink.Unreachable e) {
            throw new DynamoException(
                    ErrorCode.INTERNAL_SERVER_ERROR, "Region " + region + " did not answer: " + e.getMessage());
        }
    }
}
