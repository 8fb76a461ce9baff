package dev.kumiko.server.metrics;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * {@code --request-log}: one line per DynamoDB request, in logfmt (key=value, greppable and
 * parseable), flushed at once so that {@code tail -f} shows each request as it is answered:
 * <pre>time=2026-03-01T09:00:00.123Z op=Query table=Chat status=200 latency_ms=0.412 rcu=0.5 wcu=0</pre>
 * A failed request adds {@code error=<exception name>}. Writes are serialized; the log costs a
 * formatted line and a write per request, so it is off unless asked for.
 */
public final class RequestLog implements AutoCloseable {
    public static final String STDOUT = "stdout";

    private final Writer out;
    private final boolean ownsStream;
    private boolean failed;

    private RequestLog(Writer out, boolean ownsStream) {
        this.out = out;
        this.ownsStream = ownsStream;
    }

    /** {@code stdout}, or a file appended to (created if missing). */
    public static RequestLog open(String target) throws IOException {
        if (STDOUT.equals(target)) {
            return new RequestLog(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
        }
        BufferedWriter w = Files.newBufferedWriter(
                Path.of(target),
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND,
                StandardOpenOption.WRITE);
        return new RequestLog(w, true);
    }

    void write(
            @Nullable String operation,
            @Nullable String tableName,
            int status,
            @Nullable String error,
            long latencyNanos,
            double readUnits,
            double writeUnits) {
        StringBuilder b = new StringBuilder(160);
        b.append("time=")
                .append(Instant.now().truncatedTo(ChronoUnit.MILLIS))
                .append(" op=")
                .append(operation == null ? "-" : operation)
                .append(" table=")
                .append(tableName == null || tableName.isEmpty() ? "-" : tableName)
                .append(" status=")
                .append(status)
                .append(" latency_ms=")
                .append(String.format(Locale.ROOT, "%.3f", latencyNanos / 1e6))
                .append(" rcu=")
                .append(units(readUnits))
                .append(" wcu=")
                .append(units(writeUnits));
        if (error != null) {
            b.append(" error=").append(error);
        }
        b.append('\n');
        synchronized (this) {
            try {
                out.write(b.toString());
                out.flush();
            } catch (IOException e) {
                // The request was answered; a full disk must not fail it. Say so once.
                if (!failed) {
                    failed = true;
                    System.err.println("kumiko: writing the request log failed: " + e.getMessage());
                }
            }
        }
    }

    /** Units are whole or halves (eventually consistent reads): no trailing ".0" on whole ones. */
    private static String units(double u) {
        return u == Math.rint(u) ? Long.toString((long) u) : Double.toString(u);
    }

    @Override
    public synchronized void close() throws IOException {
        out.flush();
        if (ownsStream) {
            out.close();
        }
    }
}
