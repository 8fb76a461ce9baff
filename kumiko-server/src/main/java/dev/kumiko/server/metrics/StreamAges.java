package dev.kumiko.server.metrics;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.Engine;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The age of the oldest stream record that no GetRecords call has returned yet, per table with a
 * stream (0 when every record was read). It says whether stream consumers keep up; DynamoDB has no
 * CloudWatch metric for it (its consumers report IteratorAge), hence a Kumiko name. Measured at
 * scrape time from the change log, so requests pay nothing beyond noting how far a read got.
 */
final class StreamAges {
    static final String NAME = "kumiko.streams.OldestUnreadRecordAge";

    private final Engine engine;
    private final MeterRegistry registry;
    /** The first sequence number not yet returned, by table incarnation (TableId). */
    private final Map<String, Long> nextUnread = new ConcurrentHashMap<>();

    private final Map<String, Gauge> gauges = new ConcurrentHashMap<>();

    StreamAges(Engine engine, MeterRegistry registry) {
        this.engine = engine;
        this.registry = registry;
    }

    void read(TableDescriptor d, long nextSequence) {
        nextUnread.merge(d.tableId(), nextSequence, Math::max);
    }

    /** Before a scrape: one gauge per table whose stream is on, none for tables gone or turned off. */
    synchronized void refresh() {
        Set<String> live = new HashSet<>();
        for (TableDescriptor d : engine.streamBacklog().streamedTables()) {
            String name = d.tableName();
            live.add(name);
            gauges.computeIfAbsent(
                    name,
                    n -> Gauge.builder(NAME, this, self -> self.ageSeconds(n))
                            .description("Age of the oldest stream record no GetRecords call has returned yet")
                            .baseUnit("seconds")
                            .tag("TableName", n)
                            .strongReference(true)
                            .register(registry));
        }
        gauges.entrySet().removeIf(e -> {
            boolean gone = !live.contains(e.getKey());
            if (gone) {
                registry.remove(e.getValue());
            }
            return gone;
        });
        nextUnread.keySet().retainAll(engine.streamBacklog().tableIds());
    }

    private double ageSeconds(String tableName) {
        long oldestMillis =
                engine.streamBacklog().oldestCreatedMillis(tableName, tableId -> nextUnread.getOrDefault(tableId, 0L));
        if (oldestMillis < 0) {
            return 0;
        }
        return Math.max(0, System.currentTimeMillis() - oldestMillis) / 1000.0;
    }
}
