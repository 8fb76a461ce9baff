package dev.kumiko.server.metrics;

import dev.kumiko.engine.Engine;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Global tables' ReplicationLatency, as CloudWatch names it (AWS/DynamoDB, dimensions TableName and
 * ReceivingRegion, in milliseconds): per table and peer region, how old the newest change of the
 * last shipment was when the peer acknowledged it. Read at scrape time from the engine's shipper,
 * which keeps the last value in memory; a region that ships nothing shows none.
 */
final class ReplicationLatencies {
    static final String NAME = "dynamodb.ReplicationLatency";

    private final Engine engine;
    private final MeterRegistry registry;
    private final Map<String, Gauge> gauges = new ConcurrentHashMap<>();

    ReplicationLatencies(Engine engine, MeterRegistry registry) {
        this.engine = engine;
        this.registry = registry;
    }

    /** Before a scrape: one gauge per (table, receiving region) the shipper has shipped to. */
    synchronized void refresh() {
        for (String key : engine.globalTables().replicationLatencyMillis().keySet()) {
            int slash = key.lastIndexOf('/');
            gauges.computeIfAbsent(
                    key,
                    k -> Gauge.builder(NAME, this, self -> self.millis(k))
                            .description("Age of the newest change of the last shipment to a replica when acknowledged")
                            .baseUnit("milliseconds")
                            .tag("TableName", k.substring(0, slash))
                            .tag("ReceivingRegion", k.substring(slash + 1))
                            .strongReference(true)
                            .register(registry));
        }
    }

    private double millis(String key) {
        Long v = engine.globalTables().replicationLatencyMillis().get(key);
        return v == null ? Double.NaN : v;
    }
}
