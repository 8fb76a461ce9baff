package dev.kumiko.server.protocol;

import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.engine.read.Segments;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import dev.kumiko.model.ReturnValue;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import dev.kumiko.model.Select;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The API model's member constraints of the item, batch and read operations, checked in the
 * decoder before the engine sees the request, as DynamoDB's front end checks them before anything
 * else: the TableName first (a message of its own), then every other member, all violations in one
 * "N validation errors detected: ..." message in the order listed here.
 */
final class ItemMembers {
    private ItemMembers() {}

    /** PutItem (itemPath "item"), UpdateItem and DeleteItem ("key"). */
    static void write(
            @Nullable String tableName,
            String itemPath,
            @Nullable Map<String, AttributeValue> item,
            @Nullable String returnValues,
            @Nullable String returnConsumedCapacity,
            @Nullable String returnItemCollectionMetrics,
            @Nullable String returnValuesOnConditionCheckFailure) {
        TableNames.resolve(tableName, "tableName");
        Constraints c = new Constraints();
        c.notNull(itemPath, item);
        WireEnums.check(c, "returnValues", returnValues, ReturnValue.class);
        WireEnums.check(c, "returnConsumedCapacity", returnConsumedCapacity, ReturnConsumedCapacity.class);
        WireEnums.check(
                c, "returnItemCollectionMetrics", returnItemCollectionMetrics, ReturnItemCollectionMetrics.class);
        WireEnums.check(
                c,
                "returnValuesOnConditionCheckFailure",
                returnValuesOnConditionCheckFailure,
                ReturnValuesOnConditionCheckFailure.class);
        c.throwIfAny();
    }

    static void get(
            @Nullable String tableName,
            @Nullable Map<String, AttributeValue> key,
            @Nullable String returnConsumedCapacity) {
        TableNames.resolve(tableName, "tableName");
        Constraints c = new Constraints();
        c.notNull("key", key);
        WireEnums.check(c, "returnConsumedCapacity", returnConsumedCapacity, ReturnConsumedCapacity.class);
        c.throwIfAny();
    }

    /**
     * BatchWriteItem and BatchGetItem: RequestItems present with at least one table. A missing or
     * empty map gets DynamoDB's own sentence ahead of every member constraint (conformance suites
     * run against AWS pin "The requestItems parameter is required for BatchWriteItem", also when
     * ReturnConsumedCapacity is invalid).
     */
    static void batch(
            @Nullable Map<String, ?> requestItems, @Nullable String returnConsumedCapacity, String operation) {
        if (requestItems == null || requestItems.isEmpty()) {
            throw DynamoException.validation("The requestItems parameter is required for " + operation);
        }
        Constraints c = new Constraints();
        WireEnums.check(c, "returnConsumedCapacity", returnConsumedCapacity, ReturnConsumedCapacity.class);
        c.throwIfAny();
    }

    /** Query (no segments) and Scan. */
    static void read(
            @Nullable String tableName,
            @Nullable String indexName,
            @Nullable String select,
            @Nullable Long limit,
            @Nullable Long segment,
            @Nullable Long totalSegments,
            @Nullable String returnConsumedCapacity) {
        TableNames.resolve(tableName, "tableName");
        Constraints c = new Constraints();
        WireEnums.check(c, "select", select, Select.class);
        c.range("limit", limit, 1, Integer.MAX_VALUE);
        c.range("segment", segment, 0, Segments.TOTAL_SEGMENTS_MAX - 1);
        c.range("totalSegments", totalSegments, 1, Segments.TOTAL_SEGMENTS_MAX);
        WireEnums.check(c, "returnConsumedCapacity", returnConsumedCapacity, ReturnConsumedCapacity.class);
        if (indexName != null) {
            c.tableName("indexName", indexName);
        }
        c.throwIfAny();
    }
}
