package dev.kumiko.server.metrics;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.Engine;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The server's Prometheus registry: DynamoDB's CloudWatch metrics per table and operation
 * ({@link OperationMeters}) and the age of unread stream records ({@link StreamAges}).
 */
public final class ServerMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MeterCache meters = new MeterCache(registry);
    private final StreamAges streamAges;

    public ServerMetrics(Engine engine) {
        this.streamAges = new StreamAges(engine, registry);
    }

    OperationMeters meters(String tableName, String operation) {
        return meters.get(tableName, operation);
    }

    void streamRead(TableDescriptor d, long nextSequence) {
        streamAges.read(d, nextSequence);
    }

    /** The Prometheus text exposition format (version 0.0.4). */
    public String scrape() {
        streamAges.refresh();
        return registry.scrape();
    }
}
