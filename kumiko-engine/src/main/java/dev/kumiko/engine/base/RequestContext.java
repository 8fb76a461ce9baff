package dev.kumiko.engine.base;

/** Per-request facts that come from the transport: the region the client signed for. */
public record RequestContext(String region) {
    public static final String ACCOUNT_ID = "000000000000";

    public String tableArn(String tableName) {
        return "arn:aws:dynamodb:" + region + ":" + ACCOUNT_ID + ":table/" + tableName;
    }
}
