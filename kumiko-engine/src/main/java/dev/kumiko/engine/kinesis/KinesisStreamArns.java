package dev.kumiko.engine.kinesis;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Kinesis data stream ARNs: {@code arn:PARTITION:kinesis:REGION:ACCOUNT:stream/NAME}. */
public final class KinesisStreamArns {
    /** The API model's length bounds of StreamArn. */
    public static final int ARN_LENGTH_MIN = 37;

    public static final int ARN_LENGTH_MAX = 1024;
    /** Kinesis' StreamName: 1 to 128 of [a-zA-Z0-9_.-]. */
    private static final Pattern STREAM_NAME = Pattern.compile("[a-zA-Z0-9_.-]{1,128}");

    private KinesisStreamArns() {}

    /** The stream's name, or null when arn is not a Kinesis data stream's ARN. */
    public static @Nullable String streamName(String arn) {
        String[] parts = arn.split(":", 6);
        if (parts.length != 6
                || !"arn".equals(parts[0])
                || parts[1].isEmpty()
                || !"kinesis".equals(parts[2])
                || parts[3].isEmpty()
                || parts[4].isEmpty()
                || !parts[5].startsWith("stream/")) {
            return null;
        }
        String name = parts[5].substring("stream/".length());
        return STREAM_NAME.matcher(name).matches() ? name : null;
    }
}
