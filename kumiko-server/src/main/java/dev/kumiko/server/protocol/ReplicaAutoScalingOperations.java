package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.engine.replication.ReplicaSet;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.policy.ResourceChecks;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * DescribeTableReplicaAutoScaling and UpdateTableReplicaAutoScaling (global tables version
 * 2019.11.21). Kumiko has no auto scaling, so every table answers as a DynamoDB table without auto
 * scaling policies does: each replica with its status and its global secondary indexes, and no
 * ReplicaProvisioned*AutoScalingSettings. An update that asks for auto scaling is refused with a
 * ValidationException saying so; one that asks for nothing answers the description.
 *
 * <p>UNVERIFIED: what DynamoDB lists for a table without replicas. The API Reference describes the
 * answer only for global tables; Kumiko lists no replicas then, as DescribeTable does.
 */
final class ReplicaAutoScalingOperations {
    static final List<String> NAMES = List.of("DescribeTableReplicaAutoScaling", "UpdateTableReplicaAutoScaling");

    /** The update members that would configure auto scaling, in the API Reference's order. */
    static final List<String> UPDATE_MEMBERS =
            List.of("GlobalSecondaryIndexUpdates", "ProvisionedWriteCapacityAutoScalingUpdate", "ReplicaUpdates");

    private ReplicaAutoScalingOperations() {}

    /** An UpdateTableReplicaAutoScaling request: the table, and the first auto scaling member it names. */
    record Update(@Nullable String tableName, @Nullable String autoScalingMember) {}

    /** What both operations answer: the table and its replica set (null: none). */
    record Described(TableDescription table, @Nullable ReplicaSet replicas) {}

    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "DescribeTableReplicaAutoScaling" ->
                dynamodb(
                        name,
                        DataPlaneOperations.member("TableName"),
                        (e, r, c) -> described(e, c.engine(), r),
                        (g, d, c) -> write(g, d),
                        (r, f) -> ResourceChecks.table("DescribeTableReplicaAutoScaling", r, f));
            case "UpdateTableReplicaAutoScaling" ->
                dynamodb(
                        name,
                        ReplicaAutoScalingOperations::update,
                        (e, r, c) -> updated(e, c.engine(), r),
                        (g, d, c) -> write(g, d),
                        (r, f) -> ResourceChecks.table("UpdateTableReplicaAutoScaling", r.tableName(), f));
            default -> throw new IllegalArgumentException("not a replica auto scaling operation: " + name);
        };
    }

    private static Update update(Map<String, Object> body) {
        String member = null;
        for (String m : UPDATE_MEMBERS) {
            if (body.get(m) != null) {
                member = m;
                break;
            }
        }
        return new Update(Fields.string(body, "TableName"), member);
    }

    private static Described described(Engine e, RequestContext ctx, @Nullable String tableName) {
        TableDescription t = e.control().describeTable(ctx, tableName);
        ReplicaSet set = e.globalTables().replicas(t.descriptor().tableName());
        return new Described(t, set == null || set.legacy() ? null : set); // version 2019.11.21 only
    }

    /** The table is looked up first: an unknown table is ResourceNotFound whatever the update asks. */
    private static Described updated(Engine e, RequestContext ctx, Update r) {
        Described d = described(e, ctx, r.tableName());
        if (r.autoScalingMember() != null) {
            // Kumiko's wording: DynamoDB has no answer for a service without auto scaling.
            throw DynamoException.validation(r.autoScalingMember()
                    + ": Kumiko does not support auto scaling; set provisioned capacity with UpdateTable");
        }
        return d;
    }

    private static void write(JsonGenerator g, Described d) throws IOException {
        TableDescription t = d.table();
        g.writeObjectFieldStart("TableAutoScalingDescription");
        g.writeStringField("TableName", t.descriptor().tableName());
        g.writeStringField("TableStatus", t.tableStatus());
        g.writeArrayFieldStart("Replicas");
        if (d.replicas() != null) {
            for (ReplicaSet.Replica r : d.replicas().replicas()) {
                replica(g, r, t.descriptor().globalSecondaryIndexes());
            }
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** Every replica has the table's global secondary indexes (a replica is made in its shape). */
    private static void replica(JsonGenerator g, ReplicaSet.Replica r, List<IndexDescriptor> indexes)
            throws IOException {
        g.writeStartObject();
        g.writeStringField("RegionName", r.region());
        g.writeStringField("ReplicaStatus", r.status().name());
        g.writeArrayFieldStart("GlobalSecondaryIndexes");
        for (IndexDescriptor x : indexes) {
            g.writeStartObject();
            g.writeStringField("IndexName", x.indexName());
            g.writeStringField("IndexStatus", x.indexStatus());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }
}
