package dev.kumiko.engine.control;

import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.SseInput;
import dev.kumiko.engine.control.CreateTableRequest.StreamInput;
import dev.kumiko.engine.control.CreateTableRequest.ThroughputInput;
import java.util.List;

/** UpdateTable as the client sent it; any member may be null. */
public record UpdateTableRequest(
        String tableName,
        List<AttributeDefinitionInput> attributeDefinitions,
        String billingMode,
        ThroughputInput provisionedThroughput,
        boolean hasGlobalSecondaryIndexUpdates,
        StreamInput streamSpecification,
        SseInput sseSpecification,
        boolean hasReplicaUpdates,
        String tableClass,
        Boolean deletionProtectionEnabled) {}
