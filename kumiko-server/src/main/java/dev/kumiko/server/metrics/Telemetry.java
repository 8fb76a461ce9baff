package dev.kumiko.server.metrics;

import dev.kumiko.catalog.IndexDescriptor;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.Engine;
import dev.kumiko.engine.capacity.CapacityTally;
import dev.kumiko.engine.capacity.UsageObserver;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import dev.kumiko.error.ThroughputExceeded;
import dev.kumiko.server.http.ErrorStatuses;
import dev.kumiko.server.http.RequestHooks;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Joins what the HTTP handler knows (operation, table, outcome, latency) with what the engine
 * knows (units, partition keys, items returned) for each request, and hands it to the metrics,
 * the hot-key counters and the request log. The handler and the engine call in on the event loop
 * that runs the request, so the request's state is per thread; recording allocates nothing unless
 * the request log is on.
 */
public final class Telemetry implements RequestHooks, UsageObserver, AutoCloseable {
    private static final String NO_TABLE = "";
    private static final String NOT_DECODED = "_undecoded";
    private static final String UNKNOWN_OPERATION = "_unknown";

    /** One request in flight on this thread. */
    private static final class Current {
        boolean active;
        long startNanos;
        /** Null until the request is named, and while it is not decoded. */
        @Nullable
        String operation;

        @Nullable
        String tableName;

        double readUnits;
        double writeUnits;
        /** The meters this thread used last, and for which pair: a request finds them once, not per call. */
        @Nullable
        OperationMeters meters;

        @Nullable
        String metersTable;

        @Nullable
        String metersOperation;
    }

    /** Netty's thread-local (an array slot on the event loops): read four times per request. */
    private final FastThreadLocal<Current> current = new FastThreadLocal<>() {
        @Override
        protected Current initialValue() {
            return new Current();
        }
    };

    private final ServerMetrics metrics;
    private final @Nullable HotKeys hotKeys;
    private final @Nullable RequestLog log;
    private final @Nullable Function<FullHttpRequest, FullHttpResponse> paths;

    /**
     * @param hotKeys null: hot keys are not counted (the console is not served)
     * @param log   null: no request log
     * @param paths the GET paths served besides the health check (null answers: not one of them)
     */
    public Telemetry(
            ServerMetrics metrics,
            @Nullable HotKeys hotKeys,
            @Nullable RequestLog log,
            @Nullable Function<FullHttpRequest, FullHttpResponse> paths) {
        this.metrics = metrics;
        this.hotKeys = hotKeys;
        this.log = log;
        this.paths = paths;
    }

    /** Whether requests' partition keys are counted for the console's hot-key view. */
    public boolean countsHotKeys() {
        return hotKeys != null;
    }

    /** Starts observing the engine's units and stream reads. */
    public Telemetry attach(Engine engine) {
        engine.observe(this);
        return this;
    }

    @Override
    public void begin() {
        Current c = current.get();
        c.active = true;
        c.startNanos = System.nanoTime();
        c.operation = null;
        c.tableName = null;
        c.readUnits = 0;
        c.writeUnits = 0;
    }

    @Override
    public void named(String operation, Map<String, Object> body) {
        Current c = current.get();
        c.operation = operation;
        // Batch and transaction requests name tables inside; the first the engine charges is used.
        Object name = body.get("TableName");
        c.tableName = name instanceof String s ? s : null;
    }

    @Override
    public void end(@Nullable DynamoException error) {
        Current c = current.get();
        long latencyNanos = System.nanoTime() - c.startNanos;
        c.active = false;
        String operation = operationLabel(c.operation, error);
        String tableName = tableLabel(c.tableName, error);
        OperationMeters m = meters(c, tableName, operation);
        if (error == null) {
            m.succeeded(latencyNanos);
            if (hotKeys != null && "DeleteTable".equals(operation)) {
                hotKeys.forget(tableName);
            }
        } else {
            countError(m, error);
        }
        if (log != null) {
            log.write(
                    c.operation,
                    c.tableName,
                    error == null ? 200 : ErrorStatuses.of(error.code()),
                    error == null ? null : error.code().shortName(),
                    latencyNanos,
                    c.readUnits,
                    c.writeUnits);
        }
    }

    private OperationMeters meters(Current c, String tableName, String operation) {
        OperationMeters m = c.meters;
        if (m == null || !operation.equals(c.metersOperation) || !tableName.equals(c.metersTable)) {
            m = metrics.meters(tableName, operation);
            c.meters = m;
            c.metersTable = tableName;
            c.metersOperation = operation;
        }
        return m;
    }

    private static String operationLabel(@Nullable String operation, @Nullable DynamoException error) {
        if (error != null && error.code() == ErrorCode.UNKNOWN_OPERATION) {
            return UNKNOWN_OPERATION;
        }
        return operation == null ? NOT_DECODED : operation;
    }

    /** A table that does not exist gets no meters of its own (its name may be anything). */
    private static String tableLabel(@Nullable String tableName, @Nullable DynamoException error) {
        if (tableName == null || (error != null && error.code() == ErrorCode.RESOURCE_NOT_FOUND)) {
            return NO_TABLE;
        }
        return tableName;
    }

    /**
     * As CloudWatch counts them: conditional check failures, throttling and transaction conflicts
     * have their own metrics and are not UserErrors; every other 4xx is, every 5xx a SystemError.
     */
    private static void countError(OperationMeters m, DynamoException error) {
        ErrorCode code = error.code();
        if (code == ErrorCode.CONDITIONAL_CHECK_FAILED) {
            m.conditionalCheckFailed();
        } else if (error instanceof ThroughputExceeded) {
            m.throttled();
        } else if (code == ErrorCode.TRANSACTION_CONFLICT
                || (code == ErrorCode.TRANSACTION_CANCELED
                        && String.valueOf(error.getMessage()).contains("TransactionConflict"))) {
            m.transactionConflict();
        } else if (ErrorStatuses.of(code) >= 500) {
            m.systemError();
        } else {
            m.userError();
        }
    }

    @Override
    public @Nullable FullHttpResponse get(FullHttpRequest req) {
        return paths == null ? null : paths.apply(req);
    }

    @Override
    public void consumed(
            TableDescriptor table,
            @Nullable IndexDescriptor index,
            dev.kumiko.model.@Nullable AttributeValue partitionKey,
            boolean read,
            CapacityTally units) {
        double total = units.total();
        Current c = current.get();
        String operation = NOT_DECODED;
        if (c.active) {
            if (c.tableName == null) {
                c.tableName = table.tableName();
            }
            if (read) {
                c.readUnits += total;
            } else {
                c.writeUnits += total;
            }
            if (c.operation != null) {
                operation = c.operation;
            }
        }
        OperationMeters m = meters(c, table.tableName(), operation);
        m.consumed(read, total);
        if (partitionKey != null && hotKeys != null) {
            hotKeys.record(table.tableName(), index == null ? null : index.indexName(), partitionKey, read, total);
        }
    }

    @Override
    public void readPage(TableDescriptor table, int count, int scannedCount) {
        Current c = current.get();
        String operation = c.active && c.operation != null ? c.operation : NOT_DECODED;
        meters(c, table.tableName(), operation).returnedItems(count);
    }

    @Override
    public void streamRead(TableDescriptor table, long nextSequence) {
        Current c = current.get();
        if (c.active && c.tableName == null) {
            c.tableName = table.tableName();
        }
        metrics.streamRead(table, nextSequence);
    }

    /** Flushes and closes the request log (the engine should be told UsageObserver.NONE first). */
    @Override
    public void close() {
        metrics.close();
        if (log != null) {
            try {
                log.close();
            } catch (java.io.IOException e) {
                System.err.println("kumiko: closing the request log failed: " + e.getMessage());
            }
        }
    }
}
