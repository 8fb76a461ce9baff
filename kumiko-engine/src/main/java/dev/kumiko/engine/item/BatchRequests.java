package dev.kumiko.engine.item;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import java.util.List;
import java.util.Map;

/** BatchWriteItem and BatchGetItem as the client sent them; maps keep the request's table order. */
public final class BatchRequests {
    private BatchRequests() {}

    /** Exactly one of put (an item) or delete (a key) is set in a valid request. */
    public record WriteRequest(Map<String, AttributeValue> put, Map<String, AttributeValue> delete) {}

    public record BatchWrite(Map<String, List<WriteRequest>> requestItems, ReturnConsumedCapacity returnConsumedCapacity,
            ReturnItemCollectionMetrics returnItemCollectionMetrics) {}

    public record KeysAndAttributes(List<Map<String, AttributeValue>> keys, String projectionExpression,
            Map<String, String> expressionAttributeNames, List<String> attributesToGet, Boolean consistentRead) {

        KeysAndAttributes withKeys(List<Map<String, AttributeValue>> newKeys) {
            return new KeysAndAttributes(newKeys, projectionExpression, expressionAttributeNames, attributesToGet,
                    consistentRead);
        }
    }

    public record BatchGet(Map<String, KeysAndAttributes> requestItems, ReturnConsumedCapacity returnConsumedCapacity) {}
}
