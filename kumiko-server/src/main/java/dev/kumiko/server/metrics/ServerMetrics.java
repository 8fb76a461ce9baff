package dev.kumiko.server.metrics;

import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.Engine;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The server's Prometheus registry: DynamoDB's CloudWatch metrics per table and operation
 * ({@link OperationMeters}), the age of unread stream records ({@link StreamAges}), the keys
 * Contributor Insights counted ({@link ContributorInsightsMetrics}), and the JVM's
 * and the process's own (memory, GC, threads, classes, CPU, open files, uptime) through
 * Micrometer's binders.
 *
 * <p>The binders are bound at the first scrape, not at start: they load the JVM's management beans,
 * which a server that is never scraped (a test's, a developer's) need not pay for in its start
 * time. Their gauges are read at each scrape, so they lose nothing by it; GC pauses are counted
 * from the first scrape on.
 */
public final class ServerMetrics implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MeterCache meters = new MeterCache(registry);
    private final StreamAges streamAges;
    private final ReplicationLatencies replicationLatencies;
    private final Engine engine;
    /** Set at the first scrape; closed with the server (it listens to the GC's notifications). */
    private @Nullable JvmGcMetrics gc;

    public ServerMetrics(Engine engine) {
        this.engine = engine;
        this.streamAges = new StreamAges(engine, registry);
        this.replicationLatencies = new ReplicationLatencies(engine, registry);
    }

    OperationMeters meters(String tableName, String operation) {
        return meters.get(tableName, operation);
    }

    void streamRead(TableDescriptor d, long nextSequence) {
        streamAges.read(d, nextSequence);
    }

    /**
     * The tables and GSIs with Contributor Insights on (of {@code tableName} only, if given) and
     * their rules' {@code limit} largest keys, for the console.
     */
    public java.util.List<dev.kumiko.engine.insights.ContributorInsightsRequests.TopKeys> contributorInsights(
            @Nullable String tableName, int limit) {
        return engine.contributorInsights().topKeys(tableName, limit);
    }

    /** The Prometheus text exposition format (version 0.0.4). */
    public String scrape() {
        bindJvm();
        streamAges.refresh();
        replicationLatencies.refresh();
        return registry.scrape() + ContributorInsightsMetrics.scrape(engine);
    }

    private synchronized void bindJvm() {
        if (gc != null) {
            return;
        }
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        JvmGcMetrics bound = new JvmGcMetrics();
        bound.bindTo(registry);
        gc = bound;
    }

    @Override
    public synchronized void close() {
        if (gc != null) {
            gc.close();
        }
    }
}
