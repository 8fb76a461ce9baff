package dev.kumiko.engine.control;

import dev.kumiko.engine.control.CreateTableRequest.AttributeDefinitionInput;
import dev.kumiko.engine.control.CreateTableRequest.IndexInput;
import dev.kumiko.engine.control.CreateTableRequest.KeySchemaInput;
import dev.kumiko.engine.control.CreateTableRequest.TagInput;
import dev.kumiko.engine.control.CreateTableRequest.ThroughputInput;
import dev.kumiko.engine.control.UpdateTableRequest.GsiUpdate;
import dev.kumiko.error.DynamoException;
import java.util.List;

/**
 * The members CreateTable and UpdateTable cannot run without. The API model's member constraints
 * (lengths, patterns, enum values, required members) are checked by the caller: the server's
 * decoder answers them with DynamoDB's "N validation errors detected" texts before the engine is
 * called. An in-process caller that skips them gets this plain refusal instead of a crash.
 */
final class RequiredMembers {
    /** A table's key: a HASH and an optional RANGE element. */
    private static final int TABLE_KEY_ELEMENTS_MAX = 2;

    private RequiredMembers() {}

    static void check(CreateTableRequest r) {
        require(r.tableName() != null, "TableName");
        definitions(r.attributeDefinitions());
        require(r.attributeDefinitions() != null, "AttributeDefinitions");
        keySchema(r.keySchema(), TABLE_KEY_ELEMENTS_MAX, "KeySchema");
        indexes(r.localSecondaryIndexes(), TABLE_KEY_ELEMENTS_MAX);
        indexes(r.globalSecondaryIndexes(), CreateTableValidator.GSI_KEY_ELEMENTS_MAX);
        throughput(r.provisionedThroughput());
        require(
                r.streamSpecification() == null || r.streamSpecification().streamEnabled() != null,
                "StreamSpecification.StreamEnabled");
        if (r.tags() != null) {
            for (TagInput t : r.tags()) {
                require(t != null && t.key() != null && t.value() != null, "Tags (Key, Value)");
            }
        }
    }

    static void check(UpdateTableRequest r) {
        require(r.tableName() != null, "TableName");
        definitions(r.attributeDefinitions());
        throughput(r.provisionedThroughput());
        require(
                r.streamSpecification() == null || r.streamSpecification().streamEnabled() != null,
                "StreamSpecification.StreamEnabled");
        if (r.globalSecondaryIndexUpdates() == null) {
            return;
        }
        for (GsiUpdate u : r.globalSecondaryIndexUpdates()) {
            if (u == null) {
                continue;
            }
            if (u.create() != null) {
                index(u.create(), CreateTableValidator.GSI_KEY_ELEMENTS_MAX);
            }
            if (u.update() != null) {
                require(u.update().indexName() != null, "GlobalSecondaryIndexUpdates.Update.IndexName");
                throughput(u.update().provisionedThroughput());
            }
            require(
                    u.delete() == null || u.delete().indexName() != null,
                    "GlobalSecondaryIndexUpdates.Delete.IndexName");
        }
    }

    private static void definitions(List<AttributeDefinitionInput> definitions) {
        if (definitions == null) {
            return;
        }
        for (AttributeDefinitionInput d : definitions) {
            require(
                    d != null && d.attributeName() != null && d.attributeType() != null,
                    "AttributeDefinitions (AttributeName, AttributeType)");
        }
    }

    private static void keySchema(List<KeySchemaInput> keySchema, int max, String what) {
        require(
                keySchema != null && !keySchema.isEmpty() && keySchema.size() <= max,
                what + " (1 to " + max + " elements)");
        for (KeySchemaInput k : keySchema) {
            require(k != null && k.attributeName() != null && k.keyType() != null, what + " (AttributeName, KeyType)");
        }
    }

    private static void indexes(List<IndexInput> indexes, int keyElementsMax) {
        if (indexes == null) {
            return;
        }
        for (IndexInput x : indexes) {
            require(x != null, "index");
            index(x, keyElementsMax);
        }
    }

    private static void index(IndexInput x, int keyElementsMax) {
        require(x.indexName() != null, "IndexName");
        keySchema(x.keySchema(), keyElementsMax, "index KeySchema");
        require(x.projection() != null, "Projection");
        throughput(x.provisionedThroughput());
    }

    private static void throughput(ThroughputInput t) {
        require(
                t == null
                        || (t.readCapacityUnits() != null
                                && t.writeCapacityUnits() != null
                                && t.readCapacityUnits() >= 1
                                && t.writeCapacityUnits() >= 1),
                "ProvisionedThroughput (ReadCapacityUnits and WriteCapacityUnits, at least 1)");
    }

    private static void require(boolean given, String member) {
        if (!given) {
            throw DynamoException.validation("The request needs " + member);
        }
    }
}
