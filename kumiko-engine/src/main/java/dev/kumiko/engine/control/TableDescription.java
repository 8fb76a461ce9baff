package dev.kumiko.engine.control;

import dev.kumiko.catalog.TableDescriptor;
import java.util.Map;

/**
 * What DescribeTable (and the other control-plane answers) report about one table. The descriptor
 * is the one to show, which during an index deletion still lists the index being deleted.
 */
public record TableDescription(
        TableDescriptor descriptor,
        String tableStatus,
        long itemCount,
        long sizeBytes,
        String tableArn,
        String region,
        Map<Integer, IndexCounts> indexCounts) {

    /** An index's entry count and size; zero for an index with no entries yet. */
    public record IndexCounts(long itemCount, long sizeBytes) {
        public static final IndexCounts EMPTY = new IndexCounts(0, 0);
    }

    public IndexCounts indexCounts(int indexId) {
        return indexCounts.getOrDefault(indexId, IndexCounts.EMPTY);
    }
}
