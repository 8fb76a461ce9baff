package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.catalog.AttributeDefinition;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.catalog.Projection;
import dev.kumiko.catalog.RecoverySettings;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.catalog.Throughput;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.TableClass;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Writes a TableDescription object exactly as DynamoDB's DescribeTable shapes it. */
final class TableDescriptionWriter {
    private TableDescriptionWriter() {}

    static void write(JsonGenerator g, TableDescription t) throws IOException {
        write(g, t, null, "", out -> {});
    }

    /** Members written by a part of the protocol other than this one (the vector indexes). */
    @FunctionalInterface
    interface Extra {
        void write(JsonGenerator g) throws IOException;
    }

    /**
     * With a global table's replicas (ReplicaDescriptions, null for other tables) as the region
     * localRegion sees them, and extra's members before the object closes.
     */
    static void write(
            JsonGenerator g,
            TableDescription t,
            dev.kumiko.engine.replication.@Nullable ReplicaSet replicas,
            String localRegion,
            Extra extra)
            throws IOException {
        if ("DELETING".equals(t.tableStatus())) {
            deleting(g, t);
            return;
        }
        TableDescriptor d = t.descriptor();
        g.writeStartObject();
        g.writeArrayFieldStart("AttributeDefinitions");
        for (AttributeDefinition a : d.attributeDefinitions()) {
            g.writeStartObject();
            g.writeStringField("AttributeName", a.attributeName());
            g.writeStringField("AttributeType", a.attributeType().name());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeStringField("TableName", d.tableName());
        keySchema(g, d.keySchema());
        g.writeStringField("TableStatus", t.tableStatus());
        JsonOut.epochSeconds(g, "CreationDateTime", d.creationEpochMillis());
        throughput(g, d.throughput());
        g.writeNumberField("TableSizeBytes", t.sizeBytes());
        g.writeNumberField("ItemCount", t.itemCount());
        g.writeStringField("TableArn", t.tableArn());
        g.writeStringField("TableId", d.tableId());
        if (d.billingModeChangeEpochMillis() != 0 || d.billingMode() == BillingMode.PAY_PER_REQUEST) {
            g.writeObjectFieldStart("BillingModeSummary");
            g.writeStringField("BillingMode", d.billingMode().name());
            if (d.billingMode() == BillingMode.PAY_PER_REQUEST) {
                JsonOut.epochSeconds(g, "LastUpdateToPayPerRequestDateTime", d.billingModeChangeEpochMillis());
            }
            g.writeEndObject();
        }
        indexes(g, "LocalSecondaryIndexes", d.localSecondaryIndexes(), t);
        indexes(g, "GlobalSecondaryIndexes", d.globalSecondaryIndexes(), t);
        stream(g, d, t);
        if (d.sse().enabled()) {
            g.writeObjectFieldStart("SSEDescription");
            g.writeStringField("Status", "ENABLED");
            if (d.sse().sseType() != null) {
                g.writeStringField("SSEType", d.sse().sseType().name());
            }
            g.writeStringField(
                    "KMSMasterKeyArn",
                    d.sse().kmsMasterKeyId() != null
                            ? d.sse().kmsMasterKeyId()
                            : "arn:aws:kms:" + t.region() + ":000000000000:key/aws-managed-dynamodb");
            g.writeEndObject();
        }
        if (d.tableClass() != TableClass.STANDARD) {
            g.writeObjectFieldStart("TableClassSummary");
            g.writeStringField("TableClass", d.tableClass().name());
            g.writeEndObject();
        }
        g.writeBooleanField("DeletionProtectionEnabled", d.deletionProtectionEnabled());
        if (replicas != null && !replicas.legacy()) { // a legacy table shows neither (DescribeGlobalTable does)
            ReplicaDescriptions.write(g, replicas, localRegion);
        }
        restoreSummary(g, d);
        extra.write(g);
        g.writeEndObject();
    }

    /** A restored table's RestoreSummary; RestoreInProgress until its items are all written. */
    private static void restoreSummary(JsonGenerator g, TableDescriptor d) throws IOException {
        RecoverySettings.RestoreSummary r = d.recovery().restore();
        if (r == null) {
            return;
        }
        g.writeObjectFieldStart("RestoreSummary");
        if (r.sourceBackupArn() != null) {
            g.writeStringField("SourceBackupArn", r.sourceBackupArn());
        }
        g.writeStringField("SourceTableArn", r.sourceTableArn());
        JsonOut.epochSeconds(g, "RestoreDateTime", r.restoreDateTimeMillis());
        g.writeBooleanField("RestoreInProgress", r.restoreInProgress());
        g.writeEndObject();
    }

    /**
     * DeleteTable's answer is shorter than DescribeTable's: the AWS CLI reference shows name, status,
     * throughput, size and count; the ARN, id, billing summary and deletion protection are those
     * recent SDK captures add (UNVERIFIED beyond the CLI example). No key schema, attribute
     * definitions, creation time or indexes.
     */
    private static void deleting(JsonGenerator g, TableDescription t) throws IOException {
        TableDescriptor d = t.descriptor();
        g.writeStartObject();
        g.writeStringField("TableName", d.tableName());
        g.writeStringField("TableStatus", t.tableStatus());
        throughput(g, d.throughput());
        g.writeNumberField("TableSizeBytes", t.sizeBytes());
        g.writeNumberField("ItemCount", t.itemCount());
        g.writeStringField("TableArn", t.tableArn());
        g.writeStringField("TableId", d.tableId());
        if (d.billingMode() == BillingMode.PAY_PER_REQUEST) {
            g.writeObjectFieldStart("BillingModeSummary");
            g.writeStringField("BillingMode", d.billingMode().name());
            JsonOut.epochSeconds(g, "LastUpdateToPayPerRequestDateTime", d.billingModeChangeEpochMillis());
            g.writeEndObject();
        }
        g.writeBooleanField("DeletionProtectionEnabled", d.deletionProtectionEnabled());
        g.writeEndObject();
    }

    private static void stream(JsonGenerator g, TableDescriptor d, TableDescription t) throws IOException {
        if (d.stream().enabled()) {
            g.writeObjectFieldStart("StreamSpecification");
            g.writeBooleanField("StreamEnabled", true);
            g.writeStringField(
                    "StreamViewType",
                    Objects.requireNonNull(d.stream().viewType(), "an enabled stream has a view type")
                            .name());
            g.writeEndObject();
        }
        if (d.stream().label() != null) {
            g.writeStringField("LatestStreamLabel", d.stream().label());
            g.writeStringField(
                    "LatestStreamArn", t.tableArn() + "/stream/" + d.stream().label());
        }
    }

    static void keySchema(JsonGenerator g, List<KeySchemaElement> keySchema) throws IOException {
        g.writeArrayFieldStart("KeySchema");
        for (KeySchemaElement k : keySchema) {
            g.writeStartObject();
            g.writeStringField("AttributeName", k.attributeName());
            g.writeStringField("KeyType", k.keyType().name());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void throughput(JsonGenerator g, Throughput t) throws IOException {
        g.writeObjectFieldStart("ProvisionedThroughput");
        if (t.lastDecreaseEpochMillis() != 0) {
            JsonOut.epochSeconds(g, "LastDecreaseDateTime", t.lastDecreaseEpochMillis());
        }
        if (t.lastIncreaseEpochMillis() != 0) {
            JsonOut.epochSeconds(g, "LastIncreaseDateTime", t.lastIncreaseEpochMillis());
        }
        g.writeNumberField("NumberOfDecreasesToday", t.decreasesOnLastDecreaseDay());
        g.writeNumberField("ReadCapacityUnits", t.readCapacityUnits());
        g.writeNumberField("WriteCapacityUnits", t.writeCapacityUnits());
        g.writeEndObject();
    }

    private static void indexes(JsonGenerator g, String field, List<IndexDescriptor> indexes, TableDescription t)
            throws IOException {
        if (indexes.isEmpty()) {
            return;
        }
        g.writeArrayFieldStart(field);
        for (IndexDescriptor x : indexes) {
            g.writeStartObject();
            g.writeStringField("IndexName", x.indexName());
            keySchema(g, x.keySchema());
            projection(g, x.projection());
            if (x.global()) {
                g.writeStringField("IndexStatus", x.indexStatus());
                if (IndexDescriptor.CREATING.equals(x.indexStatus()) && !"CREATING".equals(t.tableStatus())) {
                    g.writeBooleanField("Backfilling", true);
                }
                throughput(g, x.throughput());
            }
            TableDescription.IndexCounts counts = t.indexCounts(x.id());
            g.writeNumberField("IndexSizeBytes", counts.sizeBytes());
            g.writeNumberField("ItemCount", counts.itemCount());
            g.writeStringField("IndexArn", t.tableArn() + "/index/" + x.indexName());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    static void projection(JsonGenerator g, Projection p) throws IOException {
        g.writeObjectFieldStart("Projection");
        g.writeStringField("ProjectionType", p.projectionType().name());
        if (p.nonKeyAttributes() != null) {
            JsonOut.stringArray(g, "NonKeyAttributes", p.nonKeyAttributes());
        }
        g.writeEndObject();
    }
}
