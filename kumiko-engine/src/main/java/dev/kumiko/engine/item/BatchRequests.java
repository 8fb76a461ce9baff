package dev.kumiko.engine.item;

import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ReturnConsumedCapacity;
import dev.kumiko.model.ReturnItemCollectionMetrics;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** BatchWriteItem and BatchGetItem as the client sent them; maps keep the request's table order. */
public final class BatchRequests {
    private BatchRequests() {}

    /** Exactly one of put (an item) or delete (a key) is set in a valid request. */
    public record WriteRequest(
            @Nullable Map<String, AttributeValue> put,
            @Nullable Map<String, AttributeValue> delete) {}

    public record BatchWrite(
            Map<String, List<WriteRequest>> requestItems,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity,
            @Nullable ReturnItemCollectionMetrics returnItemCollectionMetrics) {}

    public record KeysAndAttributes(
            List<Map<String, AttributeValue>> keys,
            @Nullable String projectionExpression,
            @Nullable Map<String, String> expressionAttributeNames,
            @Nullable List<String> attributesToGet,
            @Nullable Boolean consistentRead) {

        KeysAndAttributes withKeys(List<Map<String, AttributeValue>> newKeys) {
            return new KeysAndAttributes(
                    newKeys, projectionExpression, expressionAttributeNames, attributesToGet, consistentRead);
        }
    }

    public record BatchGet(
            Map<String, KeysAndAttributes> requestItems,
            @Nullable ReturnConsumedCapacity returnConsumedCapacity) {}
}
