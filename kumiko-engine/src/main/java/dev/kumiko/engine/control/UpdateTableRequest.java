package dev.kumiko.engine.control;

import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.engine.control.CreateTableRequest.SseInput;
import dev.kumiko.engine.control.CreateTableRequest.StreamInput;
import dev.kumiko.engine.control.CreateTableRequest.ThroughputInput;
import dev.kumiko.model.BillingMode;
import dev.kumiko.model.TableClass;
import java.util.List;

/** UpdateTable, typed (enum members are enums, checked by the server's decoder); any member may be null. */
public record UpdateTableRequest(
        String tableName,
        List<AttributeDefinitionInput> attributeDefinitions,
        BillingMode billingMode,
        ThroughputInput provisionedThroughput,
        List<GsiUpdate> globalSecondaryIndexUpdates,
        StreamInput streamSpecification,
        SseInput sseSpecification,
        boolean hasReplicaUpdates,
        TableClass tableClass,
        Boolean deletionProtectionEnabled) {

    /** One GlobalSecondaryIndexUpdates element: exactly one of its three actions in a valid request. */
    public record GsiUpdate(IndexInput create, GsiThroughputUpdate update, GsiDelete delete) {}

    /** A Delete action. */
    public record GsiDelete(String indexName) {}

    /** An Update action: new provisioned throughput for an existing GSI. */
    public record GsiThroughputUpdate(String indexName, ThroughputInput provisionedThroughput) {}

    public boolean hasGlobalSecondaryIndexUpdates() {
        return globalSecondaryIndexUpdates != null && !globalSecondaryIndexUpdates.isEmpty();
    }
}
