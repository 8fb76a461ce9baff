package dev.kumiko.engine.control;

import java.util.List;

/**
 * CreateTable as the client sent it: enum-valued members stay strings so that validation can echo
 * an invalid value back, exactly as DynamoDB does. Any member may be null (absent).
 */
public record CreateTableRequest(
        String tableName,
        List<AttributeDefinitionInput> attributeDefinitions,
        List<KeySchemaInput> keySchema,
        List<IndexInput> localSecondaryIndexes,
        List<IndexInput> globalSecondaryIndexes,
        String billingMode,
        ThroughputInput provisionedThroughput,
        StreamInput streamSpecification,
        SseInput sseSpecification,
        List<TagInput> tags,
        String tableClass,
        Boolean deletionProtectionEnabled) {

    public record AttributeDefinitionInput(String attributeName, String attributeType) {}

    public record KeySchemaInput(String attributeName, String keyType) {
        @Override
        public String toString() {
            return "KeySchemaElement(attributeName=" + attributeName + ", keyType=" + keyType + ")";
        }
    }

    public record ThroughputInput(Long readCapacityUnits, Long writeCapacityUnits) {}

    public record ProjectionInput(String projectionType, List<String> nonKeyAttributes) {}

    public record IndexInput(String indexName, List<KeySchemaInput> keySchema, ProjectionInput projection,
            ThroughputInput provisionedThroughput) {}

    public record StreamInput(Boolean streamEnabled, String streamViewType) {}

    public record SseInput(Boolean enabled, String sseType, String kmsMasterKeyId) {}

    public record TagInput(String key, String value) {}
}
