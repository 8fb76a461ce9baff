package dev.kumiko.engine.streams;

import dev.kumiko.engine.base.RequestContext;
import org.jspecify.annotations.Nullable;

/**
 * Stream ARNs: the table's ARN, "/stream/", and the stream label, as DescribeTable's
 * LatestStreamArn shows them (API Reference examples:
 * arn:aws:dynamodb:us-west-2:111122223333:table/Forum/stream/2015-05-20T20:51:10.252).
 */
public final class StreamArns {
    private static final String STREAM_MARKER = "/stream/";

    private StreamArns() {}

    /** A parsed stream ARN: which table and which of its streams. */
    public record Parsed(String tableName, String label) {}

    public static String of(RequestContext ctx, String tableName, String label) {
        return ctx.tableArn(tableName) + STREAM_MARKER + label;
    }

    /** The table and label an ARN names, or null if it is not a DynamoDB stream ARN. */
    public static @Nullable Parsed parse(String arn) {
        String[] parts = arn.split(":", 6);
        if (parts.length != 6
                || !"arn".equals(parts[0])
                || !"dynamodb".equals(parts[2])
                || !parts[5].startsWith("table/")) {
            return null;
        }
        String rest = parts[5].substring("table/".length());
        int marker = rest.indexOf(STREAM_MARKER);
        if (marker <= 0) {
            return null;
        }
        String table = rest.substring(0, marker);
        String label = rest.substring(marker + STREAM_MARKER.length());
        if (table.contains("/") || label.isEmpty() || label.contains("/")) {
            return null;
        }
        return new Parsed(table, label);
    }
}
