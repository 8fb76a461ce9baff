package dev.kumiko.engine.index;

import dev.kumiko.catalog.IndexDescriptor;

/**
 * What one item write did to one index. Sizes are of the entries' projected attributes, 0 when
 * there was no entry. {@code sameKey}: the entry stayed under its key and was rewritten in place
 * (one index write); otherwise an old entry was deleted and/or a new one put (up to two writes).
 */
public record IndexChange(IndexDescriptor index, long oldEntryBytes, long newEntryBytes, boolean sameKey) {

    public long entriesDelta() {
        return (newEntryBytes > 0 ? 1L : 0L) - (oldEntryBytes > 0 ? 1L : 0L);
    }

    public long bytesDelta() {
        return newEntryBytes - oldEntryBytes;
    }
}
