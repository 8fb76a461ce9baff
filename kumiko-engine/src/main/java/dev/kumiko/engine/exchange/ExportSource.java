package dev.kumiko.engine.exchange;

import dev.kumiko.model.AttributeValue;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What an export reads: a table's items as of one time. {@link SnapshotExportSource} reads a
 * consistent snapshot of the store (an export "now"); an export time in the past is read from the
 * table's point-in-time history ({@code TableHistory.forEachItemAt}). Incremental exports (the changes
 * between two times) are not items as of one time: the server builds them from
 * {@code TableHistory.forEachChangeBetween} instead.
 */
public interface ExportSource {
    /** The time the items are as of, epoch milliseconds. */
    long asOfMillis();

    /** Calls sink with every item of the table as of {@link #asOfMillis}, in storage order. */
    void items(Consumer<Map<String, AttributeValue>> sink);
}
