package dev.kumiko.engine;

import java.util.List;

/**
 * The API's enum value sets, in the order DynamoDB prints them in constraint messages. Orders
 * marked "observed" come from real responses quoted in bug reports; the others follow the API
 * Reference's order and are uncertain (docs/notes/error-messages.md).
 */
public final class Enums {
    private Enums() {}

    /** Observed. */
    public static final List<String> SCALAR_ATTRIBUTE_TYPE = List.of("B", "N", "S");
    /** Observed. */
    public static final List<String> KEY_TYPE = List.of("HASH", "RANGE");
    public static final List<String> BILLING_MODE = List.of("PROVISIONED", "PAY_PER_REQUEST");
    public static final List<String> PROJECTION_TYPE = List.of("ALL", "KEYS_ONLY", "INCLUDE");
    public static final List<String> STREAM_VIEW_TYPE =
            List.of("NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY");
    public static final List<String> TABLE_CLASS = List.of("STANDARD", "STANDARD_INFREQUENT_ACCESS");
    public static final List<String> SSE_TYPE = List.of("AES256", "KMS");
    public static final List<String> RETURN_VALUE =
            List.of("NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW");
    public static final List<String> RETURN_CONSUMED_CAPACITY = List.of("INDEXES", "TOTAL", "NONE");
    public static final List<String> RETURN_ITEM_COLLECTION_METRICS = List.of("SIZE", "NONE");
    public static final List<String> RETURN_VALUES_ON_CONDITION_CHECK_FAILURE = List.of("ALL_OLD", "NONE");
    /** Observed (third-party capture). */
    public static final List<String> SELECT =
            List.of("SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES");
}
