package dev.kumiko.server.metrics;

import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.changelog.ChangeRecord;
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
        for (Table t : engine.catalog().tables()) {
            TableDescriptor d = t.descriptor();
            if (!ChangeLog.records(d)) {
                continue;
            }
            String name = d.tableName();
            live.add(name);
            gauges.computeIfAbsent(name, n -> Gauge.builder(NAME, this, self -> self.ageSeconds(n))
                    .description("Age of the oldest stream record no GetRecords call has returned yet")
                    .baseUnit("seconds").tag("TableName", n).strongReference(true).register(registry));
        }
        gauges.entrySet().removeIf(e -> {
            boolean gone = !live.contains(e.getKey());
            if (gone) {
                registry.remove(e.getValue());
            }
            return gone;
        });
        Set<String> incarnations = new HashSet<>();
        engine.catalog().tables().forEach(t -> incarnations.add(t.descriptor().tableId()));
        nextUnread.keySet().retainAll(incarnations);
    }

    private double ageSeconds(String tableName) {
        Table t = engine.catalog().get(tableName);
        if (t == null || !ChangeLog.records(t.descriptor())) {
            return 0;
        }
        TableDescriptor d = t.descriptor();
        ChangeLog log = engine.changeLog();
        long from = Math.max(nextUnread.getOrDefault(d.tableId(), 0L), log.trimmedBelow(d.id()));
        ChangeLog.Page page = log.read(d.id(), from, log.visibleBound(d), 1, Long.MAX_VALUE);
        if (page.records().isEmpty()) {
            return 0;
        }
        ChangeRecord oldest = page.records().get(0);
        return Math.max(0, System.currentTimeMillis() - oldest.createdMillis()) / 1000.0;
    }
}
