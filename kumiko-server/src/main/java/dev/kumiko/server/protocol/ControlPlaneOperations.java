package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.control.CreateTableRequest.TagInput;
import dev.kumiko.engine.control.ListTablesResult;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.engine.ttl.TimeToLiveRequests;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.policy.ResourceChecks;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Registrations of the table operations, tagging, TTL settings, DescribeLimits and DescribeEndpoints. */
final class ControlPlaneOperations {
    /** DescribeLimits' account and table maximums, as DynamoDB reports its defaults. */
    static final int ACCOUNT_CAPACITY_UNITS_MAX = 80000;

    static final int TABLE_CAPACITY_UNITS_MAX = 40000;
    /** How long a client may keep the endpoint DescribeEndpoints names. */
    static final int ENDPOINT_CACHE_MINUTES = 1440;

    private record ListTables(
            @Nullable String exclusiveStartTableName,
            @Nullable Long limit) {}

    private record Tagging(
            @Nullable String resourceArn,
            @Nullable List<TagInput> tags,
            @Nullable List<String> tagKeys) {}

    /** This file's operations, in the order the table lists them. */
    static final List<String> NAMES = List.of(
            "CreateTable",
            "DescribeTable",
            "UpdateTable",
            "DeleteTable",
            "ListTables",
            "DescribeLimits",
            "DescribeEndpoints",
            "TagResource",
            "UntagResource",
            "ListTagsOfResource",
            "UpdateTimeToLive",
            "DescribeTimeToLive");

    /**
     * The registration of one of {@link #NAMES}, made when the table first looks the operation up:
     * its lambdas are linked then, so a process links only the operations it serves.
     */
    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "CreateTable" ->
                dynamodb(
                        name,
                        ResourcePolicyOperations::creating,
                        (e, r, c) -> ResourcePolicyOperations.create(
                                e,
                                r,
                                () -> withVectors(
                                        e,
                                        e.vectors()
                                                .createTable(
                                                        c.engine(),
                                                        r.table().table(),
                                                        r.table().vectorIndexes()))),
                        (g, t, c) -> VectorOperationsRegistration.table(g, "TableDescription", t),
                        ResourcePolicyOperations::createTableChecks);
            case "DescribeTable" ->
                dynamodb(
                        name,
                        tableName(),
                        (e, r, c) -> described(e, e.control().describeTable(c.engine(), r)),
                        (g, t, c) -> answer(g, "Table", t),
                        (r, f) -> ResourceChecks.table("DescribeTable", r, f));
            case "UpdateTable" ->
                dynamodb(
                        name,
                        ControlPlaneOperations::updateTableCall,
                        (e, r, c) -> r.replicas().global()
                                ? ReplicaUpdates.run(e, replicasAlone(r), c.engine())
                                : described(
                                        e,
                                        e.vectors()
                                                .updateTable(
                                                        c.engine(),
                                                        ReplicaUpdates.plain(
                                                                e, r.vectors().table()),
                                                        r.vectors().vectorIndexUpdates())),
                        (g, t, c) -> answer(g, "TableDescription", t),
                        (r, f) -> ResourceChecks.table(
                                "UpdateTable", r.vectors().table().tableName(), f));
            case "DeleteTable" ->
                dynamodb(
                        name,
                        tableName(),
                        (e, r, c) -> e.vectors().deleteTable(c.engine(), ReplicaUpdates.deletable(e, r)),
                        (g, t, c) -> table(g, "TableDescription", t),
                        (r, f) -> ResourceChecks.table("DeleteTable", r, f));
            case "ListTables" ->
                dynamodb(
                        name,
                        body -> new ListTables(
                                Fields.string(body, "ExclusiveStartTableName"), Fields.longValue(body, "Limit")),
                        (e, r, c) -> e.control().listTables(r.exclusiveStartTableName(), r.limit()),
                        (g, t, c) -> listTables(g, t),
                        (r, f) -> ResourceChecks.account("ListTables"));
            case "DescribeLimits" ->
                dynamodb(
                        name,
                        body -> Operation.Nothing.NOTHING,
                        (e, r, c) -> Operation.Nothing.NOTHING,
                        (g, t, c) -> describeLimits(g),
                        (r, f) -> ResourceChecks.account("DescribeLimits"));
            case "DescribeEndpoints" ->
                dynamodb(
                        name,
                        body -> Operation.Nothing.NOTHING,
                        (e, r, c) -> Operation.Nothing.NOTHING,
                        (g, t, c) -> describeEndpoints(g, c),
                        (r, f) -> ResourceChecks.account("DescribeEndpoints"));
            case "TagResource" ->
                dynamodb(
                        name,
                        body -> new Tagging(Fields.string(body, "ResourceArn"), ControlPlaneRequests.tags(body), null),
                        (e, r, c) -> {
                            e.control().tagResource(r.resourceArn(), r.tags());
                            return Operation.Nothing.NOTHING;
                        },
                        Operation.Encoder.empty(),
                        (r, f) -> ResourceChecks.arn("TagResource", r.resourceArn(), f));
            case "UntagResource" ->
                dynamodb(
                        name,
                        body -> new Tagging(Fields.string(body, "ResourceArn"), null, Fields.strings(body, "TagKeys")),
                        (e, r, c) -> {
                            e.control().untagResource(r.resourceArn(), r.tagKeys());
                            return Operation.Nothing.NOTHING;
                        },
                        Operation.Encoder.empty(),
                        (r, f) -> ResourceChecks.arn("UntagResource", r.resourceArn(), f));
            case "ListTagsOfResource" ->
                dynamodb(
                        name,
                        DataPlaneOperations.member("ResourceArn"),
                        (e, r, c) -> e.control().listTags(r),
                        (g, t, c) -> listTags(g, t),
                        (r, f) -> ResourceChecks.arn("ListTagsOfResource", r, f));
            case "UpdateTimeToLive" ->
                dynamodb(
                        name,
                        ControlPlaneOperations::updateTimeToLive,
                        (e, r, c) -> e.timeToLive().updateTimeToLive(r),
                        (g, t, c) -> timeToLiveSpecification(g, t),
                        (r, f) -> ResourceChecks.table("UpdateTimeToLive", r.tableName(), f));
            case "DescribeTimeToLive" ->
                dynamodb(
                        name,
                        tableName(),
                        (e, r, c) -> e.timeToLive().describeTimeToLive(r),
                        (g, t, c) -> timeToLiveDescription(g, t),
                        (r, f) -> ResourceChecks.table("DescribeTimeToLive", r, f));
            default ->
                throw new IllegalArgumentException("not a table, tag, TTL, limits or endpoints operation: " + name);
        };
    }

    private ControlPlaneOperations() {}

    /** A table's description with its vector indexes. */
    private static VectorOperationsRegistration.Described withVectors(Engine e, TableDescription t) {
        return new VectorOperationsRegistration.Described(t, e.vectors().describe(t.descriptor()));
    }

    private static Operation.Decoder<@Nullable String> tableName() {
        return DataPlaneOperations.member("TableName");
    }

    private static TimeToLiveRequests.UpdateTimeToLive updateTimeToLive(Map<String, Object> b) {
        Map<String, Object> spec = Fields.object(b, "TimeToLiveSpecification");
        return new TimeToLiveRequests.UpdateTimeToLive(
                Fields.string(b, "TableName"),
                spec == null
                        ? null
                        : new TimeToLiveRequests.Specification(
                                Fields.string(spec, "AttributeName"), Fields.bool(spec, "Enabled")));
    }

    /** A table's description with its replica set, if it is a global table, and its vector indexes. */
    private static TableAnswer described(dev.kumiko.engine.Engine e, TableDescription t) {
        return new TableAnswer(
                t,
                e.globalTables().replicas(t.descriptor().tableName()),
                e.globalTables().region(),
                e.vectors().describe(t.descriptor()));
    }

    private static void answer(JsonGenerator g, String field, TableAnswer t) throws IOException {
        g.writeFieldName(field);
        TableDescriptionWriter.write(
                g,
                t.description(),
                t.replicas(),
                t.localRegion(),
                out -> VectorOperationsRegistration.vectorIndexes(out, t.description(), t.vectorIndexes()));
    }

    /** UpdateTable's members as the two parts that run them read them: replicas, and the rest with vector updates. */
    private record UpdateTableCall(ReplicaUpdates.Call replicas, VectorRequestReader.UpdateTable vectors) {}

    private static UpdateTableCall updateTableCall(Map<String, Object> body) {
        return new UpdateTableCall(ReplicaUpdates.decode(body), VectorRequestReader.updateTable(body));
    }

    /** A request with global-table members runs them alone: vector index updates go in one of their own. */
    private static ReplicaUpdates.Call replicasAlone(UpdateTableCall r) {
        if (r.vectors().vectorIndexUpdates() != null) {
            throw DynamoException.validation("Kumiko runs ReplicaUpdates alone: send the other changes of this "
                    + "UpdateTable in a request of their own");
        }
        return r.replicas();
    }

    private static void table(JsonGenerator g, String field, TableDescription t) throws IOException {
        g.writeFieldName(field);
        TableDescriptionWriter.write(g, t);
    }

    private static void listTables(JsonGenerator g, ListTablesResult r) throws IOException {
        JsonOut.stringArray(g, "TableNames", r.tableNames());
        if (r.lastEvaluatedTableName() != null) {
            g.writeStringField("LastEvaluatedTableName", r.lastEvaluatedTableName());
        }
    }

    private static void describeLimits(JsonGenerator g) throws IOException {
        g.writeNumberField("AccountMaxReadCapacityUnits", ACCOUNT_CAPACITY_UNITS_MAX);
        g.writeNumberField("AccountMaxWriteCapacityUnits", ACCOUNT_CAPACITY_UNITS_MAX);
        g.writeNumberField("TableMaxReadCapacityUnits", TABLE_CAPACITY_UNITS_MAX);
        g.writeNumberField("TableMaxWriteCapacityUnits", TABLE_CAPACITY_UNITS_MAX);
    }

    /** Points endpoint discovery back at this server, not at AWS. */
    private static void describeEndpoints(JsonGenerator g, CallContext c) throws IOException {
        g.writeArrayFieldStart("Endpoints");
        g.writeStartObject();
        g.writeStringField("Address", c.host() != null ? c.host() : "dynamodb." + c.region() + ".amazonaws.com");
        g.writeNumberField("CachePeriodInMinutes", ENDPOINT_CACHE_MINUTES);
        g.writeEndObject();
        g.writeEndArray();
    }

    private static void listTags(JsonGenerator g, Map<String, String> tags) throws IOException {
        g.writeArrayFieldStart("Tags");
        for (Map.Entry<String, String> e : tags.entrySet()) {
            g.writeStartObject();
            g.writeStringField("Key", e.getKey());
            g.writeStringField("Value", e.getValue());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void timeToLiveSpecification(JsonGenerator g, TimeToLiveRequests.Specification s)
            throws IOException {
        g.writeObjectFieldStart("TimeToLiveSpecification");
        g.writeStringField("AttributeName", s.attributeName());
        g.writeBooleanField("Enabled", s.enabled());
        g.writeEndObject();
    }

    private static void timeToLiveDescription(JsonGenerator g, TimeToLiveRequests.Description d) throws IOException {
        g.writeObjectFieldStart("TimeToLiveDescription");
        g.writeStringField("TimeToLiveStatus", d.timeToLiveStatus());
        if (d.attributeName() != null) {
            g.writeStringField("AttributeName", d.attributeName());
        }
        g.writeEndObject();
    }
}
