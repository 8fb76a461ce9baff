package dev.kumiko.engine.capacity;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.model.ReturnConsumedCapacity;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sums the units one request consumes on one table: on the table itself and on each index, so
 * that ReturnConsumedCapacity=INDEXES can break the total down as DynamoDB does.
 */
public final class CapacityTally {
    private final String tableName;
    private final boolean read;
    private double table;
    private final Map<String, Double> local = new LinkedHashMap<>();
    private final Map<String, Double> global = new LinkedHashMap<>();

    public CapacityTally(String tableName, boolean read) {
        this.tableName = tableName;
        this.read = read;
    }

    public CapacityTally addTable(double units) {
        table += units;
        return this;
    }

    public CapacityTally addIndex(IndexDescriptor x, double units) {
        (x.global() ? global : local).merge(x.indexName(), units, Double::sum);
        return this;
    }

    /** Adds units of an index by name, for a tally read back from the store (a replayed token). */
    public CapacityTally addIndex(String indexName, boolean globalIndex, double units) {
        (globalIndex ? global : local).merge(indexName, units, Double::sum);
        return this;
    }

    /** Adds everything another tally of the same table counted (batch operations). */
    public CapacityTally addAll(CapacityTally other) {
        assert other.tableName.equals(tableName) && other.read == read;
        table += other.table;
        other.local.forEach((k, v) -> local.merge(k, v, Double::sum));
        other.global.forEach((k, v) -> global.merge(k, v, Double::sum));
        return this;
    }

    /** Transactions consume twice the units of the same plain reads and writes. */
    public CapacityTally doubled() {
        table *= 2;
        local.replaceAll((k, v) -> v * 2);
        global.replaceAll((k, v) -> v * 2);
        return this;
    }

    public double total() {
        double sum = table;
        for (double v : local.values()) {
            sum += v;
        }
        for (double v : global.values()) {
            sum += v;
        }
        return sum;
    }

    public String tableName() {
        return tableName;
    }

    /** The report for ReturnConsumedCapacity {@code mode}, or null for NONE or absent. */
    public ConsumedCapacity report(ReturnConsumedCapacity mode) {
        if (!ReturnConsumedCapacity.reported(mode)) {
            return null;
        }
        double total = total();
        return new ConsumedCapacity(tableName, total, read ? total : null, read ? null : total,
                mode == ReturnConsumedCapacity.INDEXES, table, Map.copyOf(local), Map.copyOf(global));
    }
}
