package dev.kumiko.engine.capacity;

/**
 * Capacity consumed by one request on one table, as ReturnConsumedCapacity reports it. Read and
 * write units are null when the operation did not consume that kind.
 */
public record ConsumedCapacity(String tableName, double capacityUnits, Double readCapacityUnits,
        Double writeCapacityUnits, boolean withTableBreakdown) {}
