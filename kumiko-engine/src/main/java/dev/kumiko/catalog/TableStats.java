package dev.kumiko.catalog;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Live item count and size of a table. DynamoDB refreshes these about every six hours; Kumiko keeps
 * them current, which no test can tell apart from a refresh that just happened.
 */
public final class TableStats {
    private final AtomicLong itemCount = new AtomicLong();
    private final AtomicLong sizeBytes = new AtomicLong();

    public void add(long items, long bytes) {
        itemCount.addAndGet(items);
        sizeBytes.addAndGet(bytes);
    }

    public long itemCount() {
        return Math.max(0, itemCount.get());
    }

    public long sizeBytes() {
        return Math.max(0, sizeBytes.get());
    }
}
