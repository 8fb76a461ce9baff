package dev.kumiko.engine.control;

import dev.kumiko.model.BillingMode;
import dev.kumiko.model.KeyType;
import dev.kumiko.model.ProjectionType;
import dev.kumiko.model.ScalarAttributeType;
import dev.kumiko.model.SseType;
import dev.kumiko.model.StreamViewType;
import dev.kumiko.model.TableClass;
import java.util.List;

/**
 * CreateTable, typed: enum members are enums (the server's decoder checks the wire values against
 * the API model's member constraints before the engine sees the request). Any member may be null
 * (absent); the engine refuses a request without the members it cannot do without.
 */
public record CreateTableRequest(
        String tableName,
        List<AttributeDefinitionInput> attributeDefinitions,
        List<KeySchemaInput> keySchema,
        List<IndexInput> localSecondaryIndexes,
        List<IndexInput> globalSecondaryIndexes,
        BillingMode billingMode,
        ThroughputInput provisionedThroughput,
        StreamInput streamSpecification,
        SseInput sseSpecification,
        List<TagInput> tags,
        TableClass tableClass,
        Boolean deletionProtectionEnabled) {

    public record AttributeDefinitionInput(String attributeName, ScalarAttributeType attributeType) {}

    public record KeySchemaInput(String attributeName, KeyType keyType) {
        @Override
        public String toString() {
            return "KeySchemaElement(attributeName=" + attributeName + ", keyType=" + keyType + ")";
        }
    }

    public record ThroughputInput(Long readCapacityUnits, Long writeCapacityUnits) {}

    public record ProjectionInput(ProjectionType projectionType, List<String> nonKeyAttributes) {}

    public record IndexInput(
            String indexName,
            List<KeySchemaInput> keySchema,
            ProjectionInput projection,
            ThroughputInput provisionedThroughput) {}

    public record StreamInput(Boolean streamEnabled, StreamViewType streamViewType) {}

    public record SseInput(Boolean enabled, SseType sseType, String kmsMasterKeyId) {}

    public record TagInput(String key, String value) {}
}
