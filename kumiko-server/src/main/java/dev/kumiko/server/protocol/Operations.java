package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.RequestContext;
import dev.kumiko.engine.capacity.ConsumedCapacity;
import dev.kumiko.engine.control.ListTablesResult;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.engine.item.ItemCollectionMetrics;
import dev.kumiko.engine.item.ItemResult;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Routes a decoded request to the engine and writes the response body. Operations of DynamoDB's
 * API that Kumiko does not implement yet answer UnknownOperationException naming the operation.
 */
public final class Operations {
    /** Every operation of the DynamoDB API (2012-08-10), for telling "not yet" from "no such thing". */
    static final Set<String> DYNAMODB_OPERATIONS = Set.of(
            "BatchExecuteStatement", "BatchGetItem", "BatchWriteItem", "CreateBackup", "CreateGlobalTable",
            "CreateTable", "DeleteBackup", "DeleteItem", "DeleteResourcePolicy", "DeleteTable", "DescribeBackup",
            "DescribeContinuousBackups", "DescribeContributorInsights", "DescribeEndpoints", "DescribeExport",
            "DescribeGlobalTable", "DescribeGlobalTableSettings", "DescribeImport",
            "DescribeKinesisStreamingDestination", "DescribeLimits", "DescribeTable",
            "DescribeTableReplicaAutoScaling", "DescribeTimeToLive", "DisableKinesisStreamingDestination",
            "EnableKinesisStreamingDestination", "ExecuteStatement", "ExecuteTransaction",
            "ExportTableToPointInTime", "GetItem", "GetResourcePolicy", "ImportTable", "ListBackups",
            "ListContributorInsights", "ListExports", "ListGlobalTables", "ListImports", "ListTables",
            "ListTagsOfResource", "PutItem", "PutResourcePolicy", "Query", "RestoreTableFromBackup",
            "RestoreTableToPointInTime", "Scan", "TagResource", "TransactGetItems", "TransactWriteItems",
            "UntagResource", "UpdateContinuousBackups", "UpdateContributorInsights", "UpdateGlobalTable",
            "UpdateGlobalTableSettings", "UpdateItem", "UpdateKinesisStreamingDestination", "UpdateTable",
            "UpdateTableReplicaAutoScaling", "UpdateTimeToLive");

    private final Engine engine;
    private final StreamsProtocol streams;
    private final AdminProtocol admin;

    public Operations(Engine engine) {
        this.engine = engine;
        this.streams = new StreamsProtocol(engine.streams());
        this.admin = new AdminProtocol(engine.admin());
    }

    /** Kumiko's admin endpoints (outside the DynamoDB API); null body: no such endpoint. */
    /** Whether the engine's store answers locally; if not, requests run off the event loops. */
    public boolean storeIsLocal() {
        return engine.storeIsLocal();
    }

    public byte[] handleAdmin(String method, String path, byte[] body) {
        return admin.handle(method, path, body);
    }

    /** Runs one DynamoDB Streams operation; returns the response body or throws the error to answer. */
    public byte[] handleStreams(String operation, Map<String, Object> body, RequestContext ctx) {
        try (JsonOut out = new JsonOut()) {
            JsonGenerator g = out.gen();
            g.writeStartObject();
            streams.dispatch(operation, body, ctx, g);
            g.writeEndObject();
            return out.toBytes();
        } catch (IOException e) {
            throw new IllegalStateException("writing a response body failed", e);
        }
    }

    /** Runs one operation; returns the response body or throws the DynamoException to answer. */
    public byte[] handle(String operation, Map<String, Object> body, RequestContext ctx, String hostHeader) {
        try (JsonOut out = new JsonOut()) {
            JsonGenerator g = out.gen();
            g.writeStartObject();
            dispatch(operation, body, ctx, hostHeader, g);
            g.writeEndObject();
            return out.toBytes();
        } catch (IOException e) {
            throw new IllegalStateException("writing a response body failed", e);
        }
    }

    private void dispatch(String op, Map<String, Object> b, RequestContext ctx, String host, JsonGenerator g)
            throws IOException {
        switch (op) {
            case "CreateTable" -> tableDescription(g, "TableDescription",
                    engine.control().createTable(ctx, ControlPlaneRequests.createTable(b)));
            case "DescribeTable" -> tableDescription(g, "Table",
                    engine.control().describeTable(ctx, Fields.string(b, "TableName")));
            case "UpdateTable" -> tableDescription(g, "TableDescription",
                    engine.control().updateTable(ctx, ControlPlaneRequests.updateTable(b)));
            case "DeleteTable" -> tableDescription(g, "TableDescription",
                    engine.control().deleteTable(ctx, Fields.string(b, "TableName")));
            case "ListTables" -> listTables(g, engine.control().listTables(
                    Fields.string(b, "ExclusiveStartTableName"), Fields.longValue(b, "Limit")));
            case "DescribeLimits" -> describeLimits(g);
            case "DescribeEndpoints" -> describeEndpoints(g, ctx, host);
            case "TagResource" -> engine.control().tagResource(Fields.string(b, "ResourceArn"),
                    ControlPlaneRequests.tags(b));
            case "UntagResource" -> engine.control().untagResource(Fields.string(b, "ResourceArn"),
                    Fields.strings(b, "TagKeys"));
            case "ListTagsOfResource" -> listTags(g, engine.control().listTags(Fields.string(b, "ResourceArn")));
            case "PutItem" -> itemResult(g, "Attributes", engine.items().putItem(ItemRequestReader.putItem(b)));
            case "GetItem" -> itemResult(g, "Item", engine.items().getItem(ItemRequestReader.getItem(b)));
            case "UpdateItem" -> itemResult(g, "Attributes",
                    engine.items().updateItem(ItemRequestReader.updateItem(b)));
            case "DeleteItem" -> itemResult(g, "Attributes",
                    engine.items().deleteItem(ItemRequestReader.deleteItem(b)));
            case "Query" -> ReadResultWriter.write(g, engine.reads().query(ReadRequestReader.query(b)));
            case "Scan" -> ReadResultWriter.write(g, engine.reads().scan(ReadRequestReader.scan(b)));
            case "BatchWriteItem" -> BatchResultWriter.batchWrite(g,
                    engine.items().batchWriteItem(BatchRequestReader.batchWrite(b)));
            case "BatchGetItem" -> BatchResultWriter.batchGet(g,
                    engine.items().batchGetItem(BatchRequestReader.batchGet(b)));
            case "TransactWriteItems" -> TransactResultWriter.transactWrite(g,
                    engine.transactions().transactWriteItems(TransactRequestReader.transactWrite(b)));
            case "TransactGetItems" -> TransactResultWriter.transactGet(g,
                    engine.transactions().transactGetItems(TransactRequestReader.transactGet(b)));
            case "UpdateTimeToLive" -> TimeToLiveProtocol.update(g, engine.timeToLive(), b);
            case "DescribeTimeToLive" -> TimeToLiveProtocol.describe(g, engine.timeToLive(), b);
            default -> throw unknown(op);
        }
    }

    static DynamoException unknown(String op) {
        if (DYNAMODB_OPERATIONS.contains(op)) {
            return new DynamoException(ErrorCode.UNKNOWN_OPERATION,
                    "Kumiko does not implement the " + op + " operation yet");
        }
        return new DynamoException(ErrorCode.UNKNOWN_OPERATION, null);
    }

    private static void tableDescription(JsonGenerator g, String field, TableDescription t) throws IOException {
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
        g.writeNumberField("AccountMaxReadCapacityUnits", 80000);
        g.writeNumberField("AccountMaxWriteCapacityUnits", 80000);
        g.writeNumberField("TableMaxReadCapacityUnits", 40000);
        g.writeNumberField("TableMaxWriteCapacityUnits", 40000);
    }

    /** Points endpoint discovery back at this server, not at AWS. */
    private static void describeEndpoints(JsonGenerator g, RequestContext ctx, String host) throws IOException {
        g.writeArrayFieldStart("Endpoints");
        g.writeStartObject();
        g.writeStringField("Address", host != null ? host : "dynamodb." + ctx.region() + ".amazonaws.com");
        g.writeNumberField("CachePeriodInMinutes", 1440);
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

    private static void itemResult(JsonGenerator g, String field, ItemResult r) throws IOException {
        if (r.attributes() != null) {
            g.writeFieldName(field);
            JsonOut.item(g, r.attributes());
        }
        if (r.consumedCapacity() != null) {
            consumedCapacity(g, r.consumedCapacity());
        }
        if (r.itemCollectionMetrics() != null) {
            g.writeFieldName("ItemCollectionMetrics");
            itemCollectionMetricsObject(g, r.itemCollectionMetrics());
        }
    }

    /** A multi-table answer's ConsumedCapacity list (batch and transaction operations); absent when null. */
    static void consumedCapacities(JsonGenerator g, List<ConsumedCapacity> list) throws IOException {
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
    static void itemCollectionMetricsByTable(JsonGenerator g, Map<String, List<ItemCollectionMetrics>> byTable)
            throws IOException {
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
