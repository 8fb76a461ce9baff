package dev.kumiko.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * OperationMeters by table name, then operation, found without allocating (two map lookups on
 * strings the request already holds). Bounded: table names come from clients, so past
 * {@link #PAIRS_MAX} pairs every new pair shares the meters labelled {@link #OTHER}.
 */
final class MeterCache {
    /** Table and operation pairs with their own meters (a table has ~20 operations). */
    static final int PAIRS_MAX = 4096;

    static final String OTHER = "_other";

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, ConcurrentHashMap<String, OperationMeters>> byTable =
            new ConcurrentHashMap<>();
    private final AtomicInteger pairs = new AtomicInteger();
    /** Made when first needed, so that the output has no "_other" series until the bound is reached. */
    private volatile @Nullable OperationMeters other;

    MeterCache(MeterRegistry registry) {
        this.registry = registry;
    }

    OperationMeters get(String tableName, String operation) {
        ConcurrentHashMap<String, OperationMeters> ops = byTable.get(tableName);
        if (ops != null) {
            OperationMeters m = ops.get(operation);
            if (m != null) {
                return m;
            }
        }
        return create(tableName, operation);
    }

    private OperationMeters create(String tableName, String operation) {
        if (pairs.get() >= PAIRS_MAX) {
            return other();
        }
        ConcurrentHashMap<String, OperationMeters> ops =
                byTable.computeIfAbsent(tableName, k -> new ConcurrentHashMap<>());
        return ops.computeIfAbsent(operation, op -> {
            pairs.incrementAndGet();
            return new OperationMeters(registry, tableName, op);
        });
    }

    private synchronized OperationMeters other() {
        OperationMeters m = other;
        if (m == null) {
            m = new OperationMeters(registry, OTHER, OTHER);
            other = m;
        }
        return m;
    }
}
