package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.replication.ReplicaSet;
import dev.kumiko.engine.replication.ReplicaSetPage;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.policy.ResourceChecks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The legacy global tables API (version 2017.11.29): CreateGlobalTable, UpdateGlobalTable,
 * DescribeGlobalTable and ListGlobalTables ({@link dev.kumiko.engine.replication.GlobalTables}).
 * Members are checked as the API Reference constrains them (GlobalTableName 3-255 characters of
 * [a-zA-Z0-9_.-], ListGlobalTables' Limit 1-100), with DynamoDB's "N validation errors detected"
 * wording.
 */
final class LegacyGlobalTableOperations {
    static final List<String> NAMES =
            List.of("CreateGlobalTable", "UpdateGlobalTable", "DescribeGlobalTable", "ListGlobalTables");

    /** ListGlobalTables' page size when the request names none (UNVERIFIED: the API Reference gives no default). */
    static final int LIST_LIMIT_DEFAULT = 100;

    static final int LIST_LIMIT_MAX = 100;

    private LegacyGlobalTableOperations() {}

    record Create(@Nullable String name, List<String> regions) {}

    record Update(@Nullable String name, List<String> creates, List<String> deletes) {}

    record ListRequest(
            @Nullable String exclusiveStart,
            int limit,
            @Nullable String region) {}

    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "CreateGlobalTable" ->
                dynamodb(
                        name,
                        LegacyGlobalTableOperations::create,
                        (e, r, c) -> e.globalTables().createGlobalTable(named(r.name()), r.regions()),
                        (g, s, c) -> description(g, s),
                        (r, f) -> ResourceChecks.table("CreateGlobalTable", r.name(), f));
            case "UpdateGlobalTable" ->
                dynamodb(
                        name,
                        LegacyGlobalTableOperations::update,
                        (e, r, c) -> e.globalTables().updateGlobalTable(named(r.name()), r.creates(), r.deletes()),
                        (g, s, c) -> description(g, s),
                        (r, f) -> ResourceChecks.table("UpdateGlobalTable", r.name(), f));
            case "DescribeGlobalTable" ->
                dynamodb(
                        name,
                        LegacyGlobalTableOperations::describe,
                        (e, r, c) -> e.globalTables().describeGlobalTable(named(r)),
                        (g, s, c) -> description(g, s),
                        (r, f) -> ResourceChecks.table("DescribeGlobalTable", r, f));
            case "ListGlobalTables" ->
                dynamodb(
                        name,
                        LegacyGlobalTableOperations::list,
                        (e, r, c) -> e.globalTables().listGlobalTables(r.exclusiveStart(), r.limit(), r.region()),
                        (g, p, c) -> page(g, p),
                        (r, f) -> ResourceChecks.table("ListGlobalTables", null, f));
            default -> throw new IllegalArgumentException("not a legacy global table operation: " + name);
        };
    }

    private static String named(@Nullable String name) {
        if (name == null) {
            throw new IllegalStateException("the decoder refuses a request without GlobalTableName");
        }
        return name;
    }

    private static Create create(Map<String, Object> b) {
        String name = Fields.string(b, "GlobalTableName");
        List<Map<String, Object>> group = Fields.objects(b, "ReplicationGroup", m -> m);
        Constraints c = new Constraints();
        globalTableName(c, name);
        List<String> regions = new ArrayList<>();
        if (c.notNull("replicationGroup", group) && group != null) {
            for (int i = 0; i < group.size(); i++) {
                String region = Fields.string(group.get(i), "RegionName");
                if (c.notNull("replicationGroup." + (i + 1) + ".member.regionName", region)) {
                    regions.add(region);
                }
            }
        }
        Create r = new Create(name, regions);
        MemberViolations.check(r, c::throwIfAny);
        return r;
    }

    private static Update update(Map<String, Object> b) {
        String name = Fields.string(b, "GlobalTableName");
        List<Map<String, Object>> updates = Fields.objects(b, "ReplicaUpdates", m -> m);
        Constraints c = new Constraints();
        globalTableName(c, name);
        List<String> creates = new ArrayList<>();
        List<String> deletes = new ArrayList<>();
        if (c.notNull("replicaUpdates", updates) && updates != null) {
            for (Map<String, Object> u : updates) {
                Map<String, Object> create = Fields.object(u, "Create");
                Map<String, Object> delete = Fields.object(u, "Delete");
                if ((create == null) == (delete == null)) {
                    // UNVERIFIED wording: each ReplicaUpdate holds exactly one action (API Reference).
                    throw DynamoException.validation("One or more parameter values were invalid: "
                            + "a ReplicaUpdate must specify exactly one of Create or Delete");
                }
                String region = Fields.string(create != null ? create : delete, "RegionName");
                if (region == null || region.isEmpty()) {
                    throw DynamoException.validation(
                            "One or more parameter values were invalid: RegionName is required");
                }
                (create != null ? creates : deletes).add(region);
            }
        }
        Update r = new Update(name, creates, deletes);
        MemberViolations.check(r, c::throwIfAny);
        if (creates.isEmpty() && deletes.isEmpty()) {
            // UNVERIFIED wording: the API Reference requires ReplicaUpdates without giving a minimum.
            throw DynamoException.validation("One or more parameter values were invalid: ReplicaUpdates is empty");
        }
        return r;
    }

    private static @Nullable String describe(Map<String, Object> b) {
        String name = Fields.string(b, "GlobalTableName");
        Constraints c = new Constraints();
        globalTableName(c, name);
        MemberViolations.check(name == null ? "" : name, c::throwIfAny);
        return name;
    }

    private static ListRequest list(Map<String, Object> b) {
        String start = Fields.string(b, "ExclusiveStartGlobalTableName");
        Long limit = Fields.longValue(b, "Limit");
        String region = Fields.string(b, "RegionName");
        Constraints c = new Constraints();
        if (start != null) {
            c.tableName("exclusiveStartGlobalTableName", start);
        }
        c.range("limit", limit, 1, LIST_LIMIT_MAX);
        ListRequest r = new ListRequest(start, limit == null ? LIST_LIMIT_DEFAULT : limit.intValue(), region);
        MemberViolations.check(r, c::throwIfAny);
        return r;
    }

    private static void globalTableName(Constraints c, @Nullable String name) {
        if (c.notNull("globalTableName", name)) {
            c.tableName("globalTableName", name);
        }
    }

    /** GlobalTableDescription, every region of the group with its status. */
    private static void description(JsonGenerator g, ReplicaSet s) throws IOException {
        g.writeObjectFieldStart("GlobalTableDescription");
        g.writeArrayFieldStart("ReplicationGroup");
        for (ReplicaSet.Replica r : s.replicas()) {
            g.writeStartObject();
            g.writeStringField("RegionName", r.region());
            g.writeStringField("ReplicaStatus", r.status().name());
            g.writeEndObject();
        }
        g.writeEndArray();
        // A global table's ARN names no region (it spans them), as DynamoDB's does.
        g.writeStringField(
                "GlobalTableArn", "arn:aws:dynamodb::" + RequestContext.ACCOUNT_ID + ":global-table/" + s.tableName());
        g.writeNumberField("CreationDateTime", s.createdMillis() / 1000.0);
        g.writeStringField("GlobalTableStatus", status(s));
        g.writeStringField("GlobalTableName", s.tableName());
        g.writeEndObject();
    }

    /** UPDATING while a replica is being added (its items copied), ACTIVE otherwise. */
    private static String status(ReplicaSet s) {
        for (ReplicaSet.Replica r : s.replicas()) {
            if (r.status() != dev.kumiko.engine.replication.ReplicaStatus.ACTIVE) {
                return "UPDATING";
            }
        }
        return "ACTIVE";
    }

    private static void page(JsonGenerator g, ReplicaSetPage p) throws IOException {
        g.writeArrayFieldStart("GlobalTables");
        for (ReplicaSet s : p.sets()) {
            g.writeStartObject();
            g.writeStringField("GlobalTableName", s.tableName());
            g.writeArrayFieldStart("ReplicationGroup");
            for (ReplicaSet.Replica r : s.replicas()) {
                g.writeStartObject();
                g.writeStringField("RegionName", r.region());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        if (p.lastName() != null) {
            g.writeStringField("LastEvaluatedGlobalTableName", p.lastName());
        }
    }
}
