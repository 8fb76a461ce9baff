package dev.kumiko.tools.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one execution of an access pattern cost, as the endpoint reported it: requests sent, capacity
 * consumed (ReturnConsumedCapacity=INDEXES, summed over requests and pages) and items read and returned.
 */
final class Measurement {
    int requests;
    double rcu;
    double wcu;
    /** Items the reads touched: ScannedCount for Query and Scan, items found for point reads. */
    long itemsRead;

    long itemsReturned;
    long itemsWritten;
    boolean usedScan;
    boolean usedFilter;
    boolean hadReads;
    /** A Query or Scan without a Limit that still had pages after {@link PatternRunner#PAGES_MAX}. */
    boolean truncated;
    /** Capacity per table or index name ("table" for the base table), as the INDEXES breakdown gives it. */
    final Map<String, Double> byIndex = new TreeMap<>();

    void add(Object consumed, boolean readOperation) {
        if (consumed instanceof java.util.List<?> list) {
            for (Object o : list) {
                add(o, readOperation);
            }
            return;
        }
        Map<String, Object> c = ModelReader.object(consumed, "ConsumedCapacity", false);
        if (c == null) {
            return;
        }
        Double read = Json.number(c.get("ReadCapacityUnits"));
        Double write = Json.number(c.get("WriteCapacityUnits"));
        double total = value(Json.number(c.get("CapacityUnits")));
        if (read == null && write == null) {
            if (readOperation) {
                rcu += total;
            } else {
                wcu += total;
            }
        } else {
            rcu += value(read);
            wcu += value(write);
        }
        Map<String, Object> table = ModelReader.object(c.get("Table"), "Table", false);
        if (table != null) {
            byIndex.merge("table", value(Json.number(table.get("CapacityUnits"))), Double::sum);
        }
        indexes(c.get("GlobalSecondaryIndexes"));
        indexes(c.get("LocalSecondaryIndexes"));
    }

    private void indexes(Object o) {
        Map<String, Object> m = ModelReader.object(o, "indexes", false);
        if (m == null) {
            return;
        }
        for (Map.Entry<String, Object> e : m.entrySet()) {
            Map<String, Object> units = ModelReader.object(e.getValue(), "index capacity", true);
            byIndex.merge(e.getKey(), value(Json.number(units.get("CapacityUnits"))), Double::sum);
        }
    }

    private static double value(Double d) {
        return d == null ? 0 : d;
    }
}
