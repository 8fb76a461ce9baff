package dev.kumiko.catalog;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A stream's label, the last part of its ARN: its creation time in UTC to the millisecond, as
 * DynamoDB writes it (2015-05-11T21:21:33.291). A class of its own so that java.time's formatting
 * classes (some 45 class loads) are loaded when a table first gets a stream, not when an engine
 * opens.
 */
public final class StreamLabels {
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private StreamLabels() {}

    public static String of(long epochMillis) {
        return FORMAT.format(Instant.ofEpochMilli(epochMillis));
    }

    public static long epochMillisOf(String label) {
        return Instant.from(FORMAT.parse(label)).toEpochMilli();
    }
}
