package dev.kumiko.engine.capacity;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.model.AttributeValue;
import org.jspecify.annotations.Nullable;

/**
 * Told what each request consumes, so that a server can export metrics and find hot keys. Called
 * on the thread that runs the request, once per table (or per item of a batch) after the work is
 * done; implementations must be fast and must not throw. The engine never depends on what it does.
 */
public interface UsageObserver {
    /** Observes nothing: the engine's default. */
    UsageObserver NONE = new UsageObserver() {};

    /**
     * Units consumed on {@code table}: {@code index} is the index read (null: the table, and always
     * null for writes, whose index units are in {@code units}); {@code partitionKey} is the key's
     * value (of the index for an index query), null when the read spans many keys (Scan).
     */
    default void consumed(
            TableDescriptor table,
            @Nullable IndexDescriptor index,
            @Nullable AttributeValue partitionKey,
            boolean read,
            CapacityTally units) {}

    /** One Query or Scan page: the items returned (after the filter) and those read. */
    default void readPage(TableDescriptor table, int count, int scannedCount) {}

    /** A GetRecords call on the table's stream read every record below {@code nextSequence}. */
    default void streamRead(TableDescriptor table, long nextSequence) {}
}
