package dev.kumiko.server.http;

import io.netty.handler.codec.DateFormatter;
import java.util.Date;

/**
 * The Date header's value (RFC 1123, whole seconds), formatted once per second rather than once per
 * response: every response carries it, and formatting a date costs more than the rest of the
 * headers together.
 */
final class HttpDate {
    private record Formatted(long second, String text) {}

    private static volatile Formatted last = new Formatted(-1, "");

    private HttpDate() {}

    static String now() {
        return at(System.currentTimeMillis());
    }

    static String at(long nowMillis) {
        long second = Math.floorDiv(nowMillis, 1000L);
        Formatted f = last;
        if (f.second() != second) {
            // Racing threads may each format the same second; any of their results is right.
            f = new Formatted(second, DateFormatter.format(new Date(second * 1000L)));
            last = f;
        }
        return f.text();
    }
}
