package dev.kumiko.partiql;

import dev.kumiko.engine.capacity.ConsumedCapacity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Sums the per-statement ConsumedCapacity of a batch by table, as BatchWriteItem reports it. */
final class PqCapacity {
    private final Map<String, ConsumedCapacity> byTable = new LinkedHashMap<>();

    void add(@Nullable ConsumedCapacity c) {
        if (c != null) {
            byTable.merge(c.tableName(), c, PqCapacity::sum);
        }
    }

    /** Null when nothing was reported (ReturnConsumedCapacity NONE or absent). */
    @Nullable
    List<ConsumedCapacity> list() {
        return byTable.isEmpty() ? null : new ArrayList<>(byTable.values());
    }

    private static ConsumedCapacity sum(ConsumedCapacity a, ConsumedCapacity b) {
        return new ConsumedCapacity(
                a.tableName(),
                a.capacityUnits() + b.capacityUnits(),
                plus(a.readCapacityUnits(), b.readCapacityUnits()),
                plus(a.writeCapacityUnits(), b.writeCapacityUnits()),
                a.withBreakdown() || b.withBreakdown(),
                a.tableUnits() + b.tableUnits(),
                merge(a.localIndexes(), b.localIndexes()),
                merge(a.globalIndexes(), b.globalIndexes()));
    }

    private static @Nullable Double plus(@Nullable Double a, @Nullable Double b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a + b;
    }

    private static Map<String, Double> merge(Map<String, Double> a, Map<String, Double> b) {
        Map<String, Double> out = new LinkedHashMap<>(a);
        b.forEach((k, v) -> out.merge(k, v, Double::sum));
        return out;
    }
}
