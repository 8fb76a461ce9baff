package dev.kumiko.server.protocol;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.engine.control.UpdateTableRequest;
import dev.kumiko.engine.replication.GlobalTables;
import dev.kumiko.engine.replication.ReplicaSet;
import dev.kumiko.error.DynamoException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * UpdateTable's global-table members (version 2019.11.21): {@code ReplicaUpdates}, and the
 * multi-region strong consistency members Kumiko refuses. A request with replica updates is run
 * here, by the engine's {@link GlobalTables}; every other UpdateTable goes to the control plane.
 *
 * <p>The messages of the refusals are Kumiko's wording where the API Reference quotes none: the
 * error types follow DynamoDB (ValidationException, HTTP 400).
 */
final class ReplicaUpdates {
    private ReplicaUpdates() {}

    /** One ReplicaUpdates element's action. */
    enum Kind {
        CREATE,
        UPDATE,
        DELETE
    }

    /** One ReplicaUpdates element; overrides: whether it carries a member Kumiko does not model. */
    record Action(Kind kind, @Nullable String regionName, boolean overrides) {}

    /** UpdateTable as decoded: the control plane's request, and what this class runs. */
    record Call(
            UpdateTableRequest request,
            List<Action> replicaUpdates,
            @Nullable String multiRegionConsistency,
            boolean witnessUpdates) {
        boolean global() {
            return !replicaUpdates.isEmpty() || multiRegionConsistency != null || witnessUpdates;
        }
    }

    static Call decode(Map<String, Object> b) {
        UpdateTableRequest r = ControlPlaneRequests.updateTable(b);
        List<Action> actions = new ArrayList<>();
        List<Object> raw = Fields.list(b, "ReplicaUpdates");
        if (raw != null) {
            for (Object o : raw) {
                actions.add(action(Fields.objectValue(o)));
            }
        }
        List<Object> witness = Fields.list(b, "GlobalTableWitnessUpdates");
        return new Call(r, actions, Fields.string(b, "MultiRegionConsistency"), witness != null && !witness.isEmpty());
    }

    private static Action action(Map<String, Object> m) {
        Map<String, Object> create = Fields.object(m, "Create");
        Map<String, Object> update = Fields.object(m, "Update");
        Map<String, Object> delete = Fields.object(m, "Delete");
        int given = (create != null ? 1 : 0) + (update != null ? 1 : 0) + (delete != null ? 1 : 0);
        if (given != 1) {
            throw DynamoException.validation(
                    "One or more parameter values were invalid: One of Create, Update or Delete must be "
                            + "specified in each ReplicaUpdates element");
        }
        Map<String, Object> a = create != null ? create : update != null ? update : delete;
        Kind kind = create != null ? Kind.CREATE : update != null ? Kind.UPDATE : Kind.DELETE;
        return new Action(kind, Fields.string(a, "RegionName"), a.size() > 1);
    }

    /** Runs a request with global-table members; answers the table as it is now, with its replicas. */
    static TableAnswer run(Engine e, Call c, dev.kumiko.engine.base.RequestContext ctx) {
        UpdateTableRequest r = c.request();
        if (c.multiRegionConsistency() != null || c.witnessUpdates()) {
            throw DynamoException.validation("MultiRegionConsistency and GlobalTableWitnessUpdates (multi-region "
                    + "strong consistency) are not supported by Kumiko yet");
        }
        if (otherUpdates(r)) {
            throw DynamoException.validation("Kumiko runs ReplicaUpdates alone: send the other changes of this "
                    + "UpdateTable in a request of their own");
        }
        if (c.replicaUpdates().size() > 1) {
            throw DynamoException.validation(
                    "One or more parameter values were invalid: Only one replica update is allowed per request");
        }
        Action a = c.replicaUpdates().get(0);
        String region = a.regionName();
        if (region == null || region.isEmpty()) {
            throw DynamoException.validation("One or more parameter values were invalid: RegionName is required");
        }
        GlobalTables global = e.globalTables();
        ReplicaSet after = switch (a.kind()) {
            case CREATE -> {
                if (a.overrides()) {
                    throw DynamoException.validation("Kumiko does not support a replica's overrides yet "
                            + "(GlobalSecondaryIndexes, KMSMasterKeyId, ProvisionedThroughputOverride, "
                            + "OnDemandThroughputOverride, TableClassOverride): give RegionName alone");
                }
                yield global.createReplica(r.tableName(), region);
            }
            case UPDATE ->
                throw DynamoException.validation(
                        "ReplicaUpdates Update is not supported by Kumiko yet: a replica has its table's settings");
            case DELETE -> global.deleteReplica(r.tableName(), region);
        };
        TableDescription t = e.control().describeTable(ctx, r.tableName());
        return new TableAnswer(
                t,
                after.replicas().size() < 2 ? null : after,
                global.region(),
                e.vectors().describe(t.descriptor()));
    }

    /**
     * An UpdateTable without replica updates, refused when it would take a global table's stream or
     * its images away: replication reads them (DynamoDB keeps the stream of a replica on as well).
     */
    static UpdateTableRequest plain(Engine e, UpdateTableRequest r) {
        dev.kumiko.engine.control.CreateTableRequest.StreamInput stream = r.streamSpecification();
        if (stream != null && r.tableName() != null && e.globalTables().replicas(r.tableName()) != null) {
            boolean keeps = Boolean.TRUE.equals(stream.streamEnabled())
                    && stream.streamViewType() == dev.kumiko.model.StreamViewType.NEW_AND_OLD_IMAGES;
            if (!keeps) {
                throw DynamoException.validation("Table " + r.tableName() + " has replicas: its stream stays enabled "
                        + "with StreamViewType NEW_AND_OLD_IMAGES while it does");
            }
        }
        return r;
    }

    /**
     * DeleteTable's table, refused while it has replicas: Kumiko drops a replica through UpdateTable's
     * ReplicaUpdates Delete, sent to a region that keeps the table, so that every region hears of it.
     */
    static @Nullable String deletable(Engine e, @Nullable String tableNameOrArn) {
        if (tableNameOrArn != null) {
            int slash = tableNameOrArn.indexOf(":table/");
            String name = slash < 0 ? tableNameOrArn : tableNameOrArn.substring(slash + ":table/".length());
            dev.kumiko.engine.replication.ReplicaSet set = e.globalTables().replicas(name);
            if (set != null) {
                throw DynamoException.validation("Table " + name + " has replicas: delete them with "
                        + (set.legacy() ? "UpdateGlobalTable" : "UpdateTable ReplicaUpdates")
                        + " Delete first (Kumiko does not delete a global table's replica by DeleteTable)");
            }
        }
        return tableNameOrArn;
    }

    private static boolean otherUpdates(UpdateTableRequest r) {
        return r.billingMode() != null
                || r.provisionedThroughput() != null
                || r.streamSpecification() != null
                || r.sseSpecification() != null
                || r.tableClass() != null
                || r.deletionProtectionEnabled() != null
                || r.hasGlobalSecondaryIndexUpdates();
    }
}
