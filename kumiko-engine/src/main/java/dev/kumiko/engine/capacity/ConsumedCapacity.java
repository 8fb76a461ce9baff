package dev.kumiko.engine.capacity;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Capacity consumed by one request on one table, as ReturnConsumedCapacity reports it. Read and
 * write units are null when the operation did not consume that kind. With INDEXES
 * ({@code withBreakdown}) the units are also given for the table itself and per index (maps from
 * index name to units, empty when no index was touched).
 */
public record ConsumedCapacity(
        String tableName,
        double capacityUnits,
        @Nullable Double readCapacityUnits,
        @Nullable Double writeCapacityUnits,
        boolean withBreakdown,
        double tableUnits,
        Map<String, Double> localIndexes,
        Map<String, Double> globalIndexes) {

    public boolean isRead() {
        return readCapacityUnits != null;
    }
}
