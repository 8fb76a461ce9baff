package dev.kumiko.catalog;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A table's Kinesis streaming destinations (EnableKinesisStreamingDestination and the operations
 * after it), in the order they were first enabled. Immutable; a change produces a new instance.
 * A destination stays listed after it was disabled or failed, as DescribeKinesisStreamingDestination
 * shows it. {@link #recording} is computed once, since the change log asks it on every write.
 */
public final class KinesisDestinations {
    public static final KinesisDestinations NONE = new KinesisDestinations(List.of());

    /** At most this many destinations are kept per table (every one ever enabled, until the table goes). */
    public static final int DESTINATIONS_MAX = 16;

    /** DynamoDB's DestinationStatus. */
    public enum Status {
        ENABLING,
        ACTIVE,
        DISABLING,
        DISABLED,
        ENABLE_FAILED,
        UPDATING;

        /** Whether the table's changes go (or are about to go) to the stream. */
        public boolean shipping() {
            return this == ENABLING || this == ACTIVE || this == UPDATING;
        }
    }

    /** DynamoDB's ApproximateCreationDateTimePrecision. */
    public enum Precision {
        MILLISECOND,
        MICROSECOND
    }

    /**
     * One destination. {@code fromSequence} is the first change-log record it ships (the change
     * log's next number when it was enabled); {@code description} is DestinationStatusDescription.
     */
    public record Destination(
            String streamArn,
            Status status,
            Precision precision,
            @Nullable String description,
            long fromSequence,
            long updatedMillis) {
        public Destination {
            assert streamArn.length() >= 37 && streamArn.length() <= 1024 : "a checked stream ARN";
            assert fromSequence >= 0;
        }

        public Destination with(Status newStatus, @Nullable String newDescription, long nowMillis) {
            return new Destination(streamArn, newStatus, precision, newDescription, fromSequence, nowMillis);
        }
    }

    private final List<Destination> destinations;
    private final boolean recording;

    public KinesisDestinations(List<Destination> destinations) {
        assert destinations.size() <= DESTINATIONS_MAX;
        this.destinations = List.copyOf(destinations);
        boolean any = false;
        for (Destination d : this.destinations) {
            any |= d.status().shipping();
        }
        this.recording = any;
    }

    /** Whether some destination needs the table's changes: the change log then records both images. */
    public boolean recording() {
        return recording;
    }

    public List<Destination> destinations() {
        return destinations;
    }

    /** The destination of that stream ARN, or null. */
    public @Nullable Destination of(String streamArn) {
        for (Destination d : destinations) {
            if (d.streamArn().equals(streamArn)) {
                return d;
            }
        }
        return null;
    }

    /** These destinations with d in place of the one of its stream ARN, or added at the end. */
    public KinesisDestinations with(Destination d) {
        List<Destination> next = new ArrayList<>(destinations.size() + 1);
        boolean replaced = false;
        for (Destination x : destinations) {
            if (x.streamArn().equals(d.streamArn())) {
                next.add(d);
                replaced = true;
            } else {
                next.add(x);
            }
        }
        if (!replaced) {
            next.add(d);
        }
        return new KinesisDestinations(next);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof KinesisDestinations k && k.destinations.equals(destinations);
    }

    @Override
    public int hashCode() {
        return destinations.hashCode();
    }

    @Override
    public String toString() {
        return "KinesisDestinations" + destinations;
    }
}
