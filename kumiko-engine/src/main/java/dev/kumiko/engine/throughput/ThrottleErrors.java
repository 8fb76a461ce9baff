package dev.kumiko.engine.throughput;

import dev.kumiko.error.ErrorCode;
import dev.kumiko.error.ThroughputExceeded;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The errors DynamoDB throttles with, and the ThrottlingReason names (API Reference,
 * ThrottlingReason: ResourceType + OperationType + LimitType).
 */
public final class ThrottleErrors {
    /**
     * Verified: SDK v1 and v2 exception texts captured from DynamoDB carry this sentence, final
     * period included.
     */
    public static final String TABLE_MESSAGE = "The level of configured provisioned throughput for the table was "
            + "exceeded. Consider increasing your provisioning level with the UpdateTable API.";
    /**
     * Verified for writes: SDK v1 exception texts captured from DynamoDB, with no final period
     * (the API Reference's transaction cancellation list prints one). UNVERIFIED for reads of a
     * GSI, which are assumed to answer the same.
     */
    public static final String INDEX_MESSAGE = "The level of configured provisioned throughput for one or more "
            + "global secondary indexes of the table was exceeded. Consider increasing your provisioning level for "
            + "the under-provisioned global secondary indexes with the UpdateTable API";
    /**
     * Verified for an on-demand table: a ThrottlingException body captured from DynamoDB, with no
     * period after the URL. UNVERIFIED that a provisioned table's hot key answers the same text.
     */
    public static final String HOT_KEY_MESSAGE = "Throughput exceeds the current capacity of your table or index. "
            + "DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions "
            + "persist, check if you have a hot key: "
            + "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";

    private ThrottleErrors() {}

    static ThroughputExceeded table(String tableName, boolean read) {
        return new ThroughputExceeded(
                ErrorCode.PROVISIONED_THROUGHPUT_EXCEEDED,
                TABLE_MESSAGE,
                List.of(new ThroughputExceeded.Reason(
                        reason("Table", read, "ProvisionedThroughputExceeded"), tableName, null)));
    }

    /** One reason per GSI whose bucket was empty, in the table's index order. */
    static ThroughputExceeded indexes(String tableName, List<String> indexNames, boolean read) {
        List<ThroughputExceeded.Reason> reasons = new ArrayList<>(indexNames.size());
        for (String x : indexNames) {
            reasons.add(new ThroughputExceeded.Reason(
                    reason("Index", read, "ProvisionedThroughputExceeded"), tableName, x));
        }
        return new ThroughputExceeded(ErrorCode.PROVISIONED_THROUGHPUT_EXCEEDED, INDEX_MESSAGE, reasons);
    }

    /**
     * A partition key over its per-partition limit. The API Reference for BatchWriteItem says
     * partition-level throttling answers ThrottlingException in every capacity mode.
     */
    static ThroughputExceeded hotKey(String tableName, boolean read) {
        return new ThroughputExceeded(
                ErrorCode.THROTTLING,
                HOT_KEY_MESSAGE,
                List.of(new ThroughputExceeded.Reason(
                        reason("Table", read, "KeyRangeThroughputExceeded"), tableName, null)));
    }

    /**
     * What a batch answers when it could process none of its items. The API Reference: "For tables
     * and indexes with provisioned capacity, if none of the items can be processed due to
     * insufficient provisioned throughput on all of the tables in the request, then BatchWriteItem
     * returns a ProvisionedThroughputExceededException. For all tables and indexes, if none of the
     * items can be processed due to other throttling scenarios (such as exceeding partition level
     * limits), then BatchWriteItem returns a ThrottlingException." A mix of both is not described;
     * Kumiko answers ProvisionedThroughputExceededException when any item hit provisioned
     * throughput, with every distinct reason.
     */
    public static ThroughputExceeded nothingProcessed(List<ThroughputExceeded> throttles) {
        assert !throttles.isEmpty();
        ThroughputExceeded first = throttles.get(0);
        for (ThroughputExceeded t : throttles) {
            if (t.code() == ErrorCode.PROVISIONED_THROUGHPUT_EXCEEDED) {
                first = t;
                break;
            }
        }
        Set<ThroughputExceeded.Reason> reasons = new LinkedHashSet<>();
        for (ThroughputExceeded t : throttles) {
            reasons.addAll(t.reasons());
        }
        return new ThroughputExceeded(first.code(), first.getMessage(), new ArrayList<>(reasons));
    }

    private static String reason(String resourceType, boolean read, String limitType) {
        return resourceType + (read ? "Read" : "Write") + limitType;
    }
}
