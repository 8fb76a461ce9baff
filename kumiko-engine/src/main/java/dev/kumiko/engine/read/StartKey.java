package dev.kumiko.engine.read;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.item.KeyCheck;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.KeyCondition;
import dev.kumiko.keys.ItemKey;
import dev.kumiko.model.AttributeValue;
import java.util.Map;

/**
 * ExclusiveStartKey: must be the table's full primary key, typed right, and lie inside what the
 * request reads. Messages are DynamoDB's as captured by third parties (docs/compatibility.md):
 * Query answers the bare "invalid" text for a schema mismatch, Scan adds the reason.
 */
final class StartKey {
    private static final String INVALID = "The provided starting key is invalid";

    private StartKey() {}

    /** Query: the storage key of a valid ExclusiveStartKey inside the key condition, or null. */
    static byte[] forQuery(TableDescriptor t, Map<String, AttributeValue> start, KeyCondition condition) {
        if (start == null) {
            return null;
        }
        try {
            KeyCheck.key(t, start);
        } catch (DynamoException e) {
            throw DynamoException.validation(INVALID);
        }
        if (!start.get(t.hashKeyName()).equals(condition.partitionKeyValue())) {
            throw DynamoException.validation(
                    "The provided starting key is outside query boundaries based on provided condition");
        }
        KeyCondition.SortKeyCondition sort = condition.sortKey();
        if (sort != null && !sort.matches(start.get(sort.name()))) {
            throw DynamoException.validation("The provided starting key does not match the range key predicate");
        }
        return storageKey(t, start);
    }

    /** Scan: the storage key of a valid ExclusiveStartKey inside the segment's range, or null. */
    static byte[] forScan(TableDescriptor t, Map<String, AttributeValue> start, KeyRange segmentRange, Long segment,
            Long totalSegments) {
        if (start == null) {
            return null;
        }
        try {
            KeyCheck.key(t, start);
        } catch (DynamoException e) {
            throw DynamoException.validation(INVALID + ": " + e.getMessage());
        }
        byte[] key = storageKey(t, start);
        if (segment != null && !segmentRange.contains(key)) {
            throw DynamoException.validation(INVALID + ": Invalid ExclusiveStartKey. Please use ExclusiveStartKey "
                    + "with correct Segment. TotalSegments: " + totalSegments + " Segment: " + segment);
        }
        return key;
    }

    private static byte[] storageKey(TableDescriptor t, Map<String, AttributeValue> start) {
        String range = t.rangeKeyName();
        return ItemKey.of(t.id(), start.get(t.hashKeyName()), range == null ? null : start.get(range));
    }
}
