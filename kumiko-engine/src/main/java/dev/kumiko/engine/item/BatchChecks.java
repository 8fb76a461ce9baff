package dev.kumiko.engine.item;

import dev.kumiko.engine.check.TableNames;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.MemberConstraintException;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/** Request-shape checks shared by BatchWriteItem and BatchGetItem. */
final class BatchChecks {
    private BatchChecks() {}

    /**
     * RequestItems: present, 1..maxTables tables, each with 1..perTableMax entries, at most totalMax
     * in all. A missing or empty map gets DynamoDB's own sentence, ahead of every member constraint
     * (conformance suites run against AWS pin "The requestItems parameter is required for
     * BatchWriteItem", also when ReturnConsumedCapacity is invalid; some regions have begun to word
     * BatchGetItem's as a constraint instead). The server's decoder checks this first
     * (ItemMembers.batch); it is repeated here for in-process callers.
     */
    static <T> void requestItems(
            Map<String, T> items, ToIntFunction<T> size, int perTableMax, int totalMax, String operation) {
        if (items == null || items.isEmpty()) {
            throw DynamoException.validation("The requestItems parameter is required for " + operation);
        }
        int total = 0;
        for (Map.Entry<String, T> e : items.entrySet()) {
            TableNames.resolve(e.getKey(), "requestItems.key");
            int n = e.getValue() == null ? 0 : size.applyAsInt(e.getValue());
            if (n < 1 || (perTableMax > 0 && n > perTableMax)) {
                // Model constraint text; the "{...}" rendering of the map is not DynamoDB's.
                throw new MemberConstraintException(
                        "1 validation error detected: Value '{...}' at 'requestItems' failed "
                                + "to satisfy constraint: Map value must satisfy constraint: [Member must have length less "
                                + "than or equal to " + perTableMax
                                + ", Member must have length greater than or equal to 1]");
            }
            total += n;
        }
        if (total > totalMax) {
            throw DynamoException.validation("Too many items requested for the " + operation + " call");
        }
    }

    static final String DUPLICATE_KEYS = "Provided list of item keys contains duplicates";

    static int size(List<?> list) {
        return list.size();
    }
}
