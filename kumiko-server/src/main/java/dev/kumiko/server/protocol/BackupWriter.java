package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.catalog.Throughput;
import dev.kumiko.engine.backup.BackupRequests;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/** The parts of DescribeBackup's and ListBackups' answers that describe the backed-up table. */
final class BackupWriter {
    private BackupWriter() {}

    static void summary(JsonGenerator g, BackupRequests.BackupDescription b) throws IOException {
        TableDescriptor d = b.table();
        g.writeStartObject();
        g.writeStringField("TableName", d.tableName());
        g.writeStringField("TableId", d.tableId());
        g.writeStringField("TableArn", b.tableArn());
        g.writeStringField("BackupArn", b.backupArn());
        g.writeStringField("BackupName", b.backupName());
        JsonOut.epochSeconds(g, "BackupCreationDateTime", b.creationMillis());
        g.writeStringField("BackupStatus", b.status());
        g.writeStringField("BackupType", b.type());
        g.writeNumberField("BackupSizeBytes", b.sizeBytes());
        g.writeEndObject();
    }

    static void sourceTable(JsonGenerator g, BackupRequests.BackupDescription b) throws IOException {
        TableDescriptor d = b.table();
        g.writeObjectFieldStart("SourceTableDetails");
        g.writeStringField("TableName", d.tableName());
        g.writeStringField("TableId", d.tableId());
        g.writeStringField("TableArn", b.tableArn());
        g.writeNumberField("TableSizeBytes", b.sizeBytes());
        TableDescriptionWriter.keySchema(g, d.keySchema());
        JsonOut.epochSeconds(g, "TableCreationDateTime", d.creationEpochMillis());
        throughput(g, d.throughput());
        g.writeNumberField("ItemCount", b.itemCount());
        g.writeStringField("BillingMode", d.billingMode().name());
        g.writeEndObject();
    }

    static void features(JsonGenerator g, BackupRequests.BackupDescription b) throws IOException {
        TableDescriptor d = b.table();
        g.writeObjectFieldStart("SourceTableFeatureDetails");
        indexes(g, "LocalSecondaryIndexes", d.localSecondaryIndexes());
        indexes(g, "GlobalSecondaryIndexes", d.globalSecondaryIndexes());
        if (d.stream().enabled()) {
            g.writeObjectFieldStart("StreamDescription");
            g.writeBooleanField("StreamEnabled", true);
            g.writeStringField(
                    "StreamViewType",
                    Objects.requireNonNull(d.stream().viewType(), "an enabled stream has a view type")
                            .name());
            g.writeEndObject();
        }
        if (d.timeToLive().enabled()) {
            g.writeObjectFieldStart("TimeToLiveDescription");
            g.writeStringField("TimeToLiveStatus", "ENABLED");
            g.writeStringField("AttributeName", d.timeToLive().attributeName());
            g.writeEndObject();
        }
        if (d.sse().enabled()) {
            g.writeObjectFieldStart("SSEDescription");
            g.writeStringField("Status", "ENABLED");
            if (d.sse().sseType() != null) {
                g.writeStringField("SSEType", d.sse().sseType().name());
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void indexes(JsonGenerator g, String field, List<IndexDescriptor> indexes) throws IOException {
        if (indexes.isEmpty()) {
            return;
        }
        g.writeArrayFieldStart(field);
        for (IndexDescriptor x : indexes) {
            g.writeStartObject();
            g.writeStringField("IndexName", x.indexName());
            TableDescriptionWriter.keySchema(g, x.keySchema());
            TableDescriptionWriter.projection(g, x.projection());
            if (x.global()) {
                throughput(g, x.throughput());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static void throughput(JsonGenerator g, Throughput t) throws IOException {
        g.writeObjectFieldStart("ProvisionedThroughput");
        g.writeNumberField("ReadCapacityUnits", t.readCapacityUnits());
        g.writeNumberField("WriteCapacityUnits", t.writeCapacityUnits());
        g.writeEndObject();
    }
}
