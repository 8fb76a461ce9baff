package dev.kumiko.engine.read;

import dev.kumiko.engine.check.KeyCheck;
import dev.kumiko.error.DynamoException;
import dev.kumiko.expr.KeyCondition;
import dev.kumiko.model.AttributeValue;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * ExclusiveStartKey: must be the full key of what is read (for an index: the table's key and the
 * index's), typed right, and lie inside what the request reads. Messages are DynamoDB's as captured
 * by third parties (docs/compatibility.md): Query answers the bare "invalid" text for a schema
 * mismatch, Scan adds the reason.
 */
final class StartKey {
    private static final String INVALID = "The provided starting key is invalid";

    private StartKey() {}

    /** Query: the storage key of a valid ExclusiveStartKey inside the key condition, or null. */
    static byte @Nullable [] forQuery(
            ReadTarget target, @Nullable Map<String, AttributeValue> start, KeyCondition condition) {
        if (start == null) {
            return null;
        }
        try {
            checkSchema(target, start);
        } catch (DynamoException e) {
            throw DynamoException.validation(INVALID);
        }
        List<String> partition = condition.partitionKeyNames();
        for (int i = 0; i < partition.size(); i++) {
            if (!condition.partitionKeyValues().get(i).equals(start.get(partition.get(i)))) {
                throw DynamoException.validation(
                        "The provided starting key is outside query boundaries based on provided condition");
            }
        }
        List<String> sortNames = target.sortKeyNames();
        for (int i = 0; i < condition.sortKeyEqualities().size(); i++) {
            if (!condition.sortKeyEqualities().get(i).equals(start.get(sortNames.get(i)))) {
                throw rangeMismatch();
            }
        }
        KeyCondition.SortKeyCondition sort = condition.sortKey();
        if (sort != null && !sort.matches(start.get(sort.name()))) {
            throw rangeMismatch();
        }
        return target.storageKey(start);
    }

    private static DynamoException rangeMismatch() {
        return DynamoException.validation("The provided starting key does not match the range key predicate");
    }

    /** Scan: the storage key of a valid ExclusiveStartKey inside the segment's range, or null. */
    static byte @Nullable [] forScan(
            ReadTarget target,
            @Nullable Map<String, AttributeValue> start,
            KeyRange segmentRange,
            @Nullable Long segment,
            @Nullable Long totalSegments) {
        if (start == null) {
            return null;
        }
        try {
            checkSchema(target, start);
        } catch (DynamoException e) {
            throw DynamoException.validation(INVALID + ": " + e.getMessage());
        }
        byte[] key = target.storageKey(start);
        if (segment != null && !segmentRange.contains(key)) {
            throw DynamoException.validation(INVALID + ": Invalid ExclusiveStartKey. Please use ExclusiveStartKey "
                    + "with correct Segment. TotalSegments: " + totalSegments + " Segment: " + segment);
        }
        return key;
    }

    /** The table's key rules, and for an index: exactly the table and index key attributes, typed. */
    private static void checkSchema(ReadTarget target, Map<String, AttributeValue> start) {
        if (target.index() == null) {
            KeyCheck.key(target.table(), start);
            return;
        }
        List<String> names = target.startKeyNames();
        if (start.size() != names.size()) {
            throw KeyCheck.schemaMismatch();
        }
        for (String name : names) {
            AttributeValue v = start.get(name);
            if (v == null || v.type() != target.table().attributeType(name)) {
                throw KeyCheck.schemaMismatch();
            }
        }
    }
}
