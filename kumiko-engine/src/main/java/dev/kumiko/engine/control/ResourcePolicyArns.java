package dev.kumiko.engine.control;

import dev.kumiko.engine.streams.StreamArns;
import dev.kumiko.error.DynamoException;
import org.jspecify.annotations.Nullable;

/**
 * The ResourceArn of the resource-policy operations: a table ({@code .../table/T}) or one of its
 * streams ({@code .../table/T/stream/LABEL}). An index has no policy of its own (the API Reference:
 * "You can control index permissions using the base table's policy"), so its ARN is refused. The
 * ARN's service and account are judged as for tagging ({@link TagArns}).
 */
final class ResourcePolicyArns {
    private static final String STREAM_MARKER = "/stream/";

    private ResourcePolicyArns() {}

    /** The table, and the stream's label when the ARN names a stream. */
    record Resource(String tableName, @Nullable String streamLabel) {}

    static Resource parse(String arn, String operation) {
        StreamArns.Parsed stream = StreamArns.parse(arn);
        if (stream != null) {
            String tableArn = arn.substring(0, arn.indexOf(STREAM_MARKER));
            return new Resource(TagArns.tableName(tableArn, operation), stream.label());
        }
        return new Resource(tableName(arn, operation), null);
    }

    private static String tableName(String arn, String operation) {
        try {
            return TagArns.tableName(arn, operation);
        } catch (DynamoException e) {
            if (e.code() == dev.kumiko.error.ErrorCode.VALIDATION && arn.contains("/index/")) {
                // UNVERIFIED wording: DynamoDB refuses a policy on an index, whose access its table's policy governs.
                throw DynamoException.validation("Invalid ResourceArn provided as input " + arn
                        + ": resource-based policies attach to tables and streams, not to indexes");
            }
            throw e;
        }
    }
}
