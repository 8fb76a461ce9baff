package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.replication.GlobalSettingsUpdate;
import dev.kumiko.engine.replication.ReplicaSettings;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.TableClass;
import dev.kumiko.server.policy.ResourceChecks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * DescribeGlobalTableSettings and UpdateGlobalTableSettings (global tables version 2017.11.29):
 * each region's table's billing mode, provisioned units, table class and global secondary indexes,
 * described and changed in every region of the legacy global table
 * ({@link dev.kumiko.engine.replication.GlobalTables#updateGlobalTableSettings}). Members are checked
 * as the API Reference constrains them, with DynamoDB's "N validation errors detected" wording. Kumiko
 * has no auto scaling: a request with an auto scaling member is refused with a ValidationException
 * saying so, as UpdateTableReplicaAutoScaling's is.
 */
final class GlobalTableSettingsOperations {
    static final List<String> NAMES = List.of("DescribeGlobalTableSettings", "UpdateGlobalTableSettings");

    /** API Reference: GlobalTableGlobalSecondaryIndexSettingsUpdate and each replica's index list, 1-20 items. */
    static final int INDEX_UPDATES_MAX = 20;
    /** API Reference: ReplicaSettingsUpdate, 1-50 items. */
    static final int REPLICA_UPDATES_MAX = 50;

    /** The members that would configure auto scaling, at each level of the request. */
    static final String TABLE_AUTO_SCALING = "GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate";

    static final String INDEX_WRITE_AUTO_SCALING = "ProvisionedWriteCapacityAutoScalingSettingsUpdate";
    static final String REPLICA_AUTO_SCALING = "ReplicaProvisionedReadCapacityAutoScalingSettingsUpdate";
    static final String INDEX_READ_AUTO_SCALING = "ProvisionedReadCapacityAutoScalingSettingsUpdate";

    private GlobalTableSettingsOperations() {}

    record Update(@Nullable String name, GlobalSettingsUpdate update) {}

    record Described(String name, List<ReplicaSettings> replicas) {}

    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "DescribeGlobalTableSettings" ->
                dynamodb(
                        name,
                        GlobalTableSettingsOperations::describe,
                        (e, r, c) -> new Described(named(r), e.globalTables().describeGlobalTableSettings(named(r))),
                        (g, d, c) -> write(g, d),
                        (r, f) -> ResourceChecks.table("DescribeGlobalTableSettings", r, f));
            case "UpdateGlobalTableSettings" ->
                dynamodb(
                        name,
                        GlobalTableSettingsOperations::update,
                        (e, r, c) -> new Described(
                                named(r.name()),
                                e.globalTables().updateGlobalTableSettings(named(r.name()), r.update())),
                        (g, d, c) -> write(g, d),
                        (r, f) -> ResourceChecks.table("UpdateGlobalTableSettings", r.name(), f));
            default -> throw new IllegalArgumentException("not a global table settings operation: " + name);
        };
    }

    private static String named(@Nullable String name) {
        if (name == null) {
            throw new IllegalStateException("the decoder refuses a request without GlobalTableName");
        }
        return name;
    }

    private static @Nullable String describe(Map<String, Object> b) {
        String name = Fields.string(b, "GlobalTableName");
        Constraints c = new Constraints();
        globalTableName(c, name);
        MemberViolations.check(name == null ? "" : name, c::throwIfAny);
        return name;
    }

    private static Update update(Map<String, Object> b) {
        String name = Fields.string(b, "GlobalTableName");
        String billing = Fields.string(b, "GlobalTableBillingMode");
        Long write = Fields.longValue(b, "GlobalTableProvisionedWriteCapacityUnits");
        List<Map<String, Object>> indexes = Fields.objects(b, "GlobalTableGlobalSecondaryIndexSettingsUpdate", m -> m);
        List<Map<String, Object>> replicas = Fields.objects(b, "ReplicaSettingsUpdate", m -> m);
        Constraints c = new Constraints();
        globalTableName(c, name);
        WireEnums.check(c, "globalTableBillingMode", billing, BillingMode.class);
        c.range("globalTableProvisionedWriteCapacityUnits", write, 1, Long.MAX_VALUE);
        Map<String, Long> indexWrites = indexUnits(
                c,
                "globalTableGlobalSecondaryIndexSettingsUpdate",
                indexes,
                "ProvisionedWriteCapacityUnits",
                "provisionedWriteCapacityUnits");
        List<GlobalSettingsUpdate.Replica> replicaUpdates = new ArrayList<>();
        if (replicas != null) {
            c.size("replicaSettingsUpdate", replicas, replicas.isEmpty() ? "[]" : "[...]", 1, REPLICA_UPDATES_MAX);
            for (int i = 0; i < replicas.size(); i++) {
                replicaUpdates.add(replica(c, "replicaSettingsUpdate." + (i + 1) + ".member", replicas.get(i)));
            }
        }
        GlobalSettingsUpdate u = new GlobalSettingsUpdate(
                WireEnums.lenient(BillingMode.class, billing), write, indexWrites, replicaUpdates);
        Update r = new Update(name, u);
        MemberViolations.check(r, c::throwIfAny);
        refuseAutoScaling(b, indexes, replicas);
        return r;
    }

    private static GlobalSettingsUpdate.Replica replica(Constraints c, String path, Map<String, Object> m) {
        String region = Fields.string(m, "RegionName");
        Long read = Fields.longValue(m, "ReplicaProvisionedReadCapacityUnits");
        String tableClass = Fields.string(m, "ReplicaTableClass");
        c.notNull(path + ".regionName", region);
        c.range(path + ".replicaProvisionedReadCapacityUnits", read, 1, Long.MAX_VALUE);
        WireEnums.check(c, path + ".replicaTableClass", tableClass, TableClass.class);
        Map<String, Long> indexReads = indexUnits(
                c,
                path + ".replicaGlobalSecondaryIndexSettingsUpdate",
                Fields.objects(m, "ReplicaGlobalSecondaryIndexSettingsUpdate", x -> x),
                "ProvisionedReadCapacityUnits",
                "provisionedReadCapacityUnits");
        return new GlobalSettingsUpdate.Replica(
                region == null ? "" : region, read, indexReads, WireEnums.lenient(TableClass.class, tableClass));
    }

    /** A list of index updates as index name to units (an index without units is left out). */
    private static Map<String, Long> indexUnits(
            Constraints c,
            String path,
            @Nullable List<Map<String, Object>> list,
            String unitsMember,
            String unitsPath) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (list == null) {
            return out;
        }
        c.size(path, list, list.isEmpty() ? "[]" : "[...]", 1, INDEX_UPDATES_MAX);
        for (int i = 0; i < list.size(); i++) {
            String at = path + "." + (i + 1) + ".member";
            String index = Fields.string(list.get(i), "IndexName");
            Long units = Fields.longValue(list.get(i), unitsMember);
            if (c.notNull(at + ".indexName", index)) {
                c.length(at + ".indexName", index, 3, 255);
                c.pattern(at + ".indexName", index, Constraints.TABLE_NAME_PATTERN);
            }
            c.range(at + "." + unitsPath, units, 1, Long.MAX_VALUE);
            if (index != null && units != null) {
                out.put(index, units);
            }
        }
        return out;
    }

    /** Kumiko has no auto scaling: the first auto scaling member named, at any level, is refused. */
    private static void refuseAutoScaling(
            Map<String, Object> b,
            @Nullable List<Map<String, Object>> indexes,
            @Nullable List<Map<String, Object>> replicas) {
        String member = b.get(TABLE_AUTO_SCALING) != null ? TABLE_AUTO_SCALING : null;
        for (Map<String, Object> x : indexes == null ? List.<Map<String, Object>>of() : indexes) {
            member =
                    member != null ? member : x.get(INDEX_WRITE_AUTO_SCALING) != null ? INDEX_WRITE_AUTO_SCALING : null;
        }
        for (Map<String, Object> r : replicas == null ? List.<Map<String, Object>>of() : replicas) {
            member = member != null ? member : r.get(REPLICA_AUTO_SCALING) != null ? REPLICA_AUTO_SCALING : null;
            List<Map<String, Object>> rx = Fields.objects(r, "ReplicaGlobalSecondaryIndexSettingsUpdate", x -> x);
            for (Map<String, Object> x : rx == null ? List.<Map<String, Object>>of() : rx) {
                member = member != null
                        ? member
                        : x.get(INDEX_READ_AUTO_SCALING) != null ? INDEX_READ_AUTO_SCALING : null;
            }
        }
        if (member != null) {
            // Kumiko's wording, as UpdateTableReplicaAutoScaling's: DynamoDB has no answer for a
            // service without auto scaling.
            throw DynamoException.validation(
                    member
                            + ": Kumiko does not support auto scaling; set provisioned capacity with UpdateGlobalTableSettings");
        }
    }

    private static void globalTableName(Constraints c, @Nullable String name) {
        if (c.notNull("globalTableName", name)) {
            c.tableName("globalTableName", name);
        }
    }

    private static void write(JsonGenerator g, Described d) throws IOException {
        g.writeStringField("GlobalTableName", d.name());
        g.writeArrayFieldStart("ReplicaSettings");
        for (ReplicaSettings s : d.replicas()) {
            ReplicaSettingsJson.write(g, s);
        }
        g.writeEndArray();
    }
}
