package dev.kumiko.server.protocol;

import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import dev.kumiko.model.ReturnValue;
import dev.kumiko.model.ReturnValuesOnConditionCheckFailure;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Decodes PutItem, GetItem, UpdateItem and DeleteItem bodies: members are read in the model's
 * order (a member of the wrong JSON type fails first), typed, then checked ({@link ItemMembers};
 * violations are answered after authorization, see {@link MemberViolations}).
 */
final class ItemRequestReader {
    private ItemRequestReader() {}

    /** The enum members of the write operations, as the wire sent them. */
    private record WriteOptions(
            @Nullable String returnValues,
            @Nullable String returnConsumedCapacity,
            @Nullable String returnItemCollectionMetrics,
            @Nullable String returnValuesOnConditionCheckFailure) {

        static WriteOptions read(Map<String, Object> b) {
            return new WriteOptions(
                    Fields.string(b, "ReturnValues"),
                    Fields.string(b, "ReturnConsumedCapacity"),
                    Fields.string(b, "ReturnItemCollectionMetrics"),
                    Fields.string(b, "ReturnValuesOnConditionCheckFailure"));
        }

        void check(@Nullable String tableName, String itemPath, @Nullable Map<String, AttributeValue> item) {
            ItemMembers.write(
                    tableName,
                    itemPath,
                    item,
                    returnValues,
                    returnConsumedCapacity,
                    returnItemCollectionMetrics,
                    returnValuesOnConditionCheckFailure);
        }

        @Nullable
        ReturnValue values() {
            return WireEnums.lenient(ReturnValue.class, returnValues);
        }

        @Nullable
        ReturnConsumedCapacity capacity() {
            return WireEnums.lenient(ReturnConsumedCapacity.class, returnConsumedCapacity);
        }

        @Nullable
        ReturnItemCollectionMetrics metrics() {
            return WireEnums.lenient(ReturnItemCollectionMetrics.class, returnItemCollectionMetrics);
        }

        @Nullable
        ReturnValuesOnConditionCheckFailure onConditionFailure() {
            return WireEnums.lenient(ReturnValuesOnConditionCheckFailure.class, returnValuesOnConditionCheckFailure);
        }
    }

    static ItemRequests.PutItem putItem(Map<String, Object> b) {
        String tableName = Fields.string(b, "TableName");
        Map<String, AttributeValue> item = AttributeValues.item(b, "Item");
        WriteOptions o = WriteOptions.read(b);
        ItemRequests.Conditions conditions = conditions(b);
        var r = new ItemRequests.PutItem(
                tableName, item, o.values(), o.capacity(), o.metrics(), o.onConditionFailure(), conditions);
        MemberViolations.check(r, () -> o.check(tableName, "item", item));
        return r;
    }

    static ItemRequests.GetItem getItem(Map<String, Object> b) {
        String tableName = Fields.string(b, "TableName");
        Map<String, AttributeValue> key = AttributeValues.item(b, "Key");
        Boolean consistentRead = Fields.bool(b, "ConsistentRead");
        String returnConsumedCapacity = Fields.string(b, "ReturnConsumedCapacity");
        String projectionExpression = Fields.string(b, "ProjectionExpression");
        Map<String, String> names = Fields.stringMap(b, "ExpressionAttributeNames");
        var attributesToGet = Fields.strings(b, "AttributesToGet");
        var r = new ItemRequests.GetItem(
                tableName,
                key,
                consistentRead,
                WireEnums.lenient(ReturnConsumedCapacity.class, returnConsumedCapacity),
                projectionExpression,
                names,
                attributesToGet);
        MemberViolations.check(r, () -> ItemMembers.get(tableName, key, returnConsumedCapacity));
        return r;
    }

    static ItemRequests.UpdateItem updateItem(Map<String, Object> b) {
        String tableName = Fields.string(b, "TableName");
        Map<String, AttributeValue> key = AttributeValues.item(b, "Key");
        String updateExpression = Fields.string(b, "UpdateExpression");
        WriteOptions o = WriteOptions.read(b);
        var attributeUpdates = LegacyMembers.attributeUpdates(b);
        ItemRequests.Conditions conditions = conditions(b);
        var r = new ItemRequests.UpdateItem(
                tableName,
                key,
                updateExpression,
                o.values(),
                o.capacity(),
                o.metrics(),
                o.onConditionFailure(),
                attributeUpdates,
                conditions);
        MemberViolations.check(r, () -> o.check(tableName, "key", key));
        return r;
    }

    static ItemRequests.DeleteItem deleteItem(Map<String, Object> b) {
        String tableName = Fields.string(b, "TableName");
        Map<String, AttributeValue> key = AttributeValues.item(b, "Key");
        WriteOptions o = WriteOptions.read(b);
        ItemRequests.Conditions conditions = conditions(b);
        var r = new ItemRequests.DeleteItem(
                tableName, key, o.values(), o.capacity(), o.metrics(), o.onConditionFailure(), conditions);
        MemberViolations.check(r, () -> o.check(tableName, "key", key));
        return r;
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
