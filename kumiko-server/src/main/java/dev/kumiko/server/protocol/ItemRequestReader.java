package dev.kumiko.server.protocol;

import dev.kumiko.engine.item.ItemRequests;
import java.util.Map;

/** Decodes PutItem, GetItem and DeleteItem bodies. */
final class ItemRequestReader {
    private ItemRequestReader() {}

    static ItemRequests.PutItem putItem(Map<String, Object> b) {
        return new ItemRequests.PutItem(
                Fields.string(b, "TableName"),
                AttributeValues.item(b, "Item"),
                Fields.string(b, "ReturnValues"),
                Fields.string(b, "ReturnConsumedCapacity"),
                Fields.string(b, "ReturnItemCollectionMetrics"),
                Fields.string(b, "ReturnValuesOnConditionCheckFailure"),
                conditions(b));
    }

    static ItemRequests.GetItem getItem(Map<String, Object> b) {
        return new ItemRequests.GetItem(
                Fields.string(b, "TableName"),
                AttributeValues.item(b, "Key"),
                Fields.bool(b, "ConsistentRead"),
                Fields.string(b, "ReturnConsumedCapacity"),
                Fields.string(b, "ProjectionExpression"),
                Fields.stringMap(b, "ExpressionAttributeNames"),
                Fields.strings(b, "AttributesToGet"));
    }

    static ItemRequests.UpdateItem updateItem(Map<String, Object> b) {
        return new ItemRequests.UpdateItem(
                Fields.string(b, "TableName"),
                AttributeValues.item(b, "Key"),
                Fields.string(b, "UpdateExpression"),
                Fields.string(b, "ReturnValues"),
                Fields.string(b, "ReturnConsumedCapacity"),
                Fields.string(b, "ReturnItemCollectionMetrics"),
                Fields.string(b, "ReturnValuesOnConditionCheckFailure"),
                LegacyMembers.attributeUpdates(b),
                conditions(b));
    }

    static ItemRequests.DeleteItem deleteItem(Map<String, Object> b) {
        return new ItemRequests.DeleteItem(
                Fields.string(b, "TableName"),
                AttributeValues.item(b, "Key"),
                Fields.string(b, "ReturnValues"),
                Fields.string(b, "ReturnConsumedCapacity"),
                Fields.string(b, "ReturnItemCollectionMetrics"),
                Fields.string(b, "ReturnValuesOnConditionCheckFailure"),
                conditions(b));
    }

    static ItemRequests.Conditions conditions(Map<String, Object> b) {
        return new ItemRequests.Conditions(
                Fields.string(b, "ConditionExpression"),
                Fields.stringMap(b, "ExpressionAttributeNames"),
                AttributeValues.item(b, "ExpressionAttributeValues"),
                LegacyMembers.conditions(b, "Expected"),
                Fields.string(b, "ConditionalOperator"));
    }
}
