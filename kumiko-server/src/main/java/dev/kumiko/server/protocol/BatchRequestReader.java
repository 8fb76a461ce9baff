package dev.kumiko.server.protocol;

import dev.kumiko.engine.item.BatchRequests;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Decodes BatchWriteItem and BatchGetItem bodies. */
final class BatchRequestReader {
    private BatchRequestReader() {}

    static BatchRequests.BatchWrite batchWrite(Map<String, Object> b) {
        Map<String, Object> raw = Fields.object(b, "RequestItems");
        Map<String, List<BatchRequests.WriteRequest>> items = null;
        if (raw != null) {
            items = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : raw.entrySet()) {
                List<Object> list = Fields.asList(e.getValue());
                items.put(e.getKey(), list == null ? null : writeRequests(list));
            }
        }
        String returnConsumedCapacity = Fields.string(b, "ReturnConsumedCapacity");
        String returnItemCollectionMetrics = Fields.string(b, "ReturnItemCollectionMetrics");
        // Kumiko does not check ReturnItemCollectionMetrics of BatchWriteItem against its enum:
        // an unknown value reads as absent.
        var r = new BatchRequests.BatchWrite(
                items,
                WireEnums.lenient(ReturnConsumedCapacity.class, returnConsumedCapacity),
                WireEnums.lenient(ReturnItemCollectionMetrics.class, returnItemCollectionMetrics));
        Map<String, List<BatchRequests.WriteRequest>> checked = items;
        MemberViolations.check(r, () -> ItemMembers.batch(checked, returnConsumedCapacity, "BatchWriteItem"));
        return r;
    }

    private static List<BatchRequests.WriteRequest> writeRequests(List<Object> list) {
        List<BatchRequests.WriteRequest> out = new ArrayList<>(list.size());
        for (Object o : list) {
            Map<String, Object> w = Fields.asObject(o);
            Map<String, Object> put = w == null ? null : Fields.object(w, "PutRequest");
            Map<String, Object> delete = w == null ? null : Fields.object(w, "DeleteRequest");
            out.add(new BatchRequests.WriteRequest(
                    put == null ? null : AttributeValues.item(put, "Item"),
                    delete == null ? null : AttributeValues.item(delete, "Key")));
        }
        return out;
    }

    static BatchRequests.BatchGet batchGet(Map<String, Object> b) {
        Map<String, Object> raw = Fields.object(b, "RequestItems");
        Map<String, BatchRequests.KeysAndAttributes> items = null;
        if (raw != null) {
            items = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : raw.entrySet()) {
                items.put(e.getKey(), keysAndAttributes(Fields.asObject(e.getValue())));
            }
        }
        String returnConsumedCapacity = Fields.string(b, "ReturnConsumedCapacity");
        var r = new BatchRequests.BatchGet(
                items, WireEnums.lenient(ReturnConsumedCapacity.class, returnConsumedCapacity));
        Map<String, BatchRequests.KeysAndAttributes> checked = items;
        MemberViolations.check(r, () -> ItemMembers.batch(checked, returnConsumedCapacity, "BatchGetItem"));
        return r;
    }

    private static BatchRequests.KeysAndAttributes keysAndAttributes(@Nullable Map<String, Object> k) {
        if (k == null) {
            return new BatchRequests.KeysAndAttributes(null, null, null, null, null);
        }
        List<Object> rawKeys = Fields.list(k, "Keys");
        List<Map<String, AttributeValue>> keys = null;
        if (rawKeys != null) {
            keys = new ArrayList<>(rawKeys.size());
            for (Object o : rawKeys) {
                keys.add(AttributeValues.listedMap(o));
            }
        }
        return new BatchRequests.KeysAndAttributes(
                keys,
                Fields.string(k, "ProjectionExpression"),
                Fields.stringMap(k, "ExpressionAttributeNames"),
                Fields.strings(k, "AttributesToGet"),
                Fields.bool(k, "ConsistentRead"));
    }
}
