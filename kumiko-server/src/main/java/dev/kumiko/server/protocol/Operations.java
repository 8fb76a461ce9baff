package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.engine.item.ItemCollectionMetrics;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.server.json.JsonTree;
import dev.kumiko.server.policy.RequestAuthorizer;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Runs one request through its registration in the {@link OperationTable}: decode, authorize,
 * call the engine, encode. Operations of DynamoDB's API that Kumiko does not implement yet answer
 * UnknownOperationException naming the operation. To add an operation, see {@link OperationTable}.
 */
public final class Operations {
    /** Every operation of the DynamoDB API (2012-08-10), for telling "not yet" from "no such thing". */
    static final Set<String> DYNAMODB_OPERATIONS = Set.of(
            "BatchExecuteStatement",
            "BatchGetItem",
            "BatchWriteItem",
            "CreateBackup",
            "CreateGlobalTable",
            "CreateTable",
            "DeleteBackup",
            "DeleteItem",
            "DeleteResourcePolicy",
            "DeleteTable",
            "DescribeBackup",
            "DescribeContinuousBackups",
            "DescribeContributorInsights",
            "DescribeEndpoints",
            "DescribeExport",
            "DescribeGlobalTable",
            "DescribeGlobalTableSettings",
            "DescribeImport",
            "DescribeKinesisStreamingDestination",
            "DescribeLimits",
            "DescribeTable",
            "DescribeTableReplicaAutoScaling",
            "DescribeTimeToLive",
            "DisableKinesisStreamingDestination",
            "EnableKinesisStreamingDestination",
            "ExecuteStatement",
            "ExecuteTransaction",
            "ExportTableToPointInTime",
            "GetItem",
            "GetResourcePolicy",
            "ImportTable",
            "ListBackups",
            "ListContributorInsights",
            "ListExports",
            "ListGlobalTables",
            "ListImports",
            "ListTables",
            "ListTagsOfResource",
            "PutItem",
            "PutResourcePolicy",
            "Query",
            "RestoreTableFromBackup",
            "RestoreTableToPointInTime",
            "Scan",
            "SearchVectors",
            "TagResource",
            "TransactGetItems",
            "TransactWriteItems",
            "UntagResource",
            "UpdateContinuousBackups",
            "UpdateContributorInsights",
            "UpdateGlobalTable",
            "UpdateGlobalTableSettings",
            "UpdateItem",
            "UpdateKinesisStreamingDestination",
            "UpdateTable",
            "UpdateTableReplicaAutoScaling",
            "UpdateTimeToLive");

    private final Engine engine;
    private final OperationTable table;

    /**
     * What a caller makes of a response body that lies in the thread's response buffer: the bytes
     * are valid only until {@code read} returns, so the caller copies them or writes them out there.
     */
    @FunctionalInterface
    public interface BodyReader<A> {
        A read(byte[] buffer, int lengthBytes);
    }

    private static final BodyReader<byte[]> COPY = Arrays::copyOf;

    public Operations(Engine engine) {
        this.engine = engine;
        this.table = OperationTable.standard();
    }

    /** Whether the engine's store answers locally; if not, requests run off the event loops. */
    public boolean storeIsLocal() {
        return engine.storeIsLocal();
    }

    /** Kumiko's admin endpoints (outside the DynamoDB API); null body: no such endpoint. */
    public byte @Nullable [] handleAdmin(String method, String path, byte[] body, CallContext ctx) {
        Operation<?, ?> op = table.find(Operation.Api.ADMIN, method + " " + path);
        if (op == null) {
            return null;
        }
        Map<String, Object> parsed =
                body.length == 0 ? AdminOperations.NO_BODY : JsonTree.parseObject(body, 0, body.length);
        return run(op, parsed, ctx, RequestAuthorizer.ALLOW_ALL, COPY);
    }

    /**
     * Runs one DynamoDB or DynamoDB Streams operation; returns the response body or throws the
     * DynamoException to answer. The authorizer is asked only when the request has a verified caller.
     */
    public byte[] handle(
            Operation.Api api,
            String operation,
            Map<String, Object> body,
            CallContext ctx,
            RequestAuthorizer authorizer) {
        return handle(api, operation, body, ctx, authorizer, COPY);
    }

    /**
     * The same, handing the response body to {@code reader} in the thread's buffer (the server
     * writes it into its answer from there) and returning what {@code reader} made of it.
     */
    public <A> A handle(
            Operation.Api api,
            String operation,
            Map<String, Object> body,
            CallContext ctx,
            RequestAuthorizer authorizer,
            BodyReader<A> reader) {
        Operation<?, ?> op = table.find(api, operation);
        if (op == null) {
            throw api == Operation.Api.DYNAMODB
                    ? unknown(operation)
                    : new DynamoException(ErrorCode.UNKNOWN_OPERATION, null);
        }
        return run(op, body, ctx, authorizer, reader);
    }

    /** Runs one DynamoDB operation for an unsigned, in-process caller (tests, benchmarks). */
    public byte[] handle(String operation, Map<String, Object> body, RequestContext ctx, String hostHeader) {
        return handle(
                Operation.Api.DYNAMODB,
                operation,
                body,
                new CallContext(ctx, null, null, hostHeader),
                RequestAuthorizer.ALLOW_ALL);
    }

    /** Runs one DynamoDB Streams operation for an unsigned, in-process caller (tests, benchmarks). */
    public byte[] handleStreams(String operation, Map<String, Object> body, RequestContext ctx) {
        return handle(
                Operation.Api.STREAMS,
                operation,
                body,
                new CallContext(ctx, null, null, null),
                RequestAuthorizer.ALLOW_ALL);
    }

    private <R, T, A> A run(
            Operation<R, T> op,
            Map<String, Object> body,
            CallContext ctx,
            RequestAuthorizer authorizer,
            BodyReader<A> reader) {
        R request;
        DynamoException violations = null;
        try {
            request = op.decoder().decode(body);
        } catch (MemberViolations v) {
            request = v.request();
            violations = v.failure();
        }
        if (ctx.caller() != null) {
            authorizer.authorize(ctx.caller(), ctx.region(), op.authorization(), request);
        }
        if (violations != null) {
            throw violations;
        }
        T result = op.call().call(engine, request, ctx);
        try (JsonOut out = new JsonOut()) {
            JsonGenerator g = out.gen();
            g.writeStartObject();
            op.encoder().write(g, result, ctx);
            g.writeEndObject();
            return out.read(reader);
        } catch (IOException e) {
            throw new IllegalStateException("writing a response body failed", e);
        }
    }

    static DynamoException unknown(String op) {
        if (DYNAMODB_OPERATIONS.contains(op)) {
            return new DynamoException(
                    ErrorCode.UNKNOWN_OPERATION, "Kumiko does not implement the " + op + " operation yet");
        }
        return new DynamoException(ErrorCode.UNKNOWN_OPERATION, null);
    }

    /** A multi-table answer's ConsumedCapacity list (batch and transaction operations); absent when null. */
    static void consumedCapacities(JsonGenerator g, @Nullable List<ConsumedCapacity> list) throws IOException {
        if (list == null) {
            return;
        }
        g.writeArrayFieldStart("ConsumedCapacity");
        for (ConsumedCapacity c : list) {
            consumedCapacityObject(g, c);
        }
        g.writeEndArray();
    }

    /** ItemCollectionMetrics by table name, as BatchWriteItem and TransactWriteItems answer it. */
    static void itemCollectionMetricsByTable(
            JsonGenerator g, @Nullable Map<String, List<ItemCollectionMetrics>> byTable) throws IOException {
        if (byTable == null) {
            return;
        }
        g.writeObjectFieldStart("ItemCollectionMetrics");
        for (Map.Entry<String, List<ItemCollectionMetrics>> e : byTable.entrySet()) {
            g.writeArrayFieldStart(e.getKey());
            for (ItemCollectionMetrics m : e.getValue()) {
                itemCollectionMetricsObject(g, m);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    static void itemCollectionMetricsObject(JsonGenerator g, ItemCollectionMetrics m) throws IOException {
        g.writeStartObject();
        g.writeFieldName("ItemCollectionKey");
        JsonOut.item(g, m.itemCollectionKey());
        g.writeArrayFieldStart("SizeEstimateRangeGB");
        g.writeNumber(m.lowerGb());
        g.writeNumber(m.upperGb());
        g.writeEndArray();
        g.writeEndObject();
    }

    static void consumedCapacity(JsonGenerator g, ConsumedCapacity c) throws IOException {
        g.writeFieldName("ConsumedCapacity");
        consumedCapacityObject(g, c);
    }

    static void consumedCapacityObject(JsonGenerator g, ConsumedCapacity c) throws IOException {
        g.writeStartObject();
        g.writeStringField("TableName", c.tableName());
        g.writeNumberField("CapacityUnits", c.capacityUnits());
        if (c.withBreakdown()) {
            units(g, c.isRead(), c.capacityUnits());
            g.writeFieldName("Table");
            unitsObject(g, c.isRead(), c.tableUnits());
            indexUnits(g, "LocalSecondaryIndexes", c.isRead(), c.localIndexes());
            indexUnits(g, "GlobalSecondaryIndexes", c.isRead(), c.globalIndexes());
        }
        g.writeEndObject();
    }

    private static void indexUnits(JsonGenerator g, String field, boolean read, Map<String, Double> byIndex)
            throws IOException {
        if (byIndex.isEmpty()) {
            return;
        }
        g.writeObjectFieldStart(field);
        for (Map.Entry<String, Double> e : byIndex.entrySet()) {
            g.writeFieldName(e.getKey());
            unitsObject(g, read, e.getValue());
        }
        g.writeEndObject();
    }

    private static void unitsObject(JsonGenerator g, boolean read, double units) throws IOException {
        g.writeStartObject();
        g.writeNumberField("CapacityUnits", units);
        units(g, read, units);
        g.writeEndObject();
    }

    private static void units(JsonGenerator g, boolean read, double units) throws IOException {
        g.writeNumberField(read ? "ReadCapacityUnits" : "WriteCapacityUnits", units);
    }
}
