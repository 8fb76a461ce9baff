package dev.kumiko.engine.base;

import java.util.List;

/**
 * The control plane's enum value sets, in the order DynamoDB prints them in constraint messages
 * (the data plane's are the enums in dev.kumiko.model, declared in that order). Orders
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
}
