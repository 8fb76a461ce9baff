package dev.kumiko.engine.kinesis;

import dev.kumiko.catalog.KinesisDestinations;
import dev.kumiko.engine.changelog.ChangeRecord;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How Kumiko reaches a Kinesis-compatible service (the server's {@code --kinesis-endpoint}). The
 * server implements it over HTTP with Kinesis' JSON protocol; a call that gets no answer, or an
 * answer of the service's own failure, throws {@link Unreachable} and is tried again later.
 */
public interface KinesisLink {
    /** The stream's StreamStatus (CREATING, DELETING, ACTIVE, UPDATING), or null when it does not exist. */
    @Nullable
    String streamStatus(String streamName);

    /**
     * Puts records into the stream in one PutRecords call, in order. Returns how many of them, from
     * the first, were accepted before the first one Kinesis refused (records.size(): all were).
     */
    int putRecords(String streamName, List<Outgoing> records);

    /**
     * One change as it goes to Kinesis: the change-log record (both images), the table it is of,
     * the record's eventID and the Kinesis partition key, and the destination's precision.
     */
    record Outgoing(
            String tableName,
            ChangeRecord change,
            String eventId,
            String partitionKey,
            KinesisDestinations.Precision precision) {}

    /** The service did not answer, or answered that it failed. */
    final class Unreachable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unreachable(String message, @Nullable Throwable cause) {
            super(message, cause);
        }
    }
}
