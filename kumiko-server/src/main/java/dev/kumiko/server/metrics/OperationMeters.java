package dev.kumiko.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The meters of one table and operation, named as DynamoDB's CloudWatch metrics (namespace
 * AWS/DynamoDB, dimensions TableName and Operation). The pair is cached ({@link MeterCache}), so
 * recording a request only updates counters.
 *
 * <p>Each meter is registered when it first has a value, as CloudWatch shows a metric only once
 * it has data: a table read but never written has no write-capacity series, and a pair that never
 * failed has no error series. Two event loops that both register one first are given the same
 * meter by the registry, so the fields need no lock; a thread that does not see another's write
 * of a field looks the meter up in the registry once more.
 */
final class OperationMeters {
    static final String PREFIX = "dynamodb.";
    /**
     * Latency buckets: fixed, so that the output stays small (a percentile histogram would add ~70
     * buckets per table and operation); they span a cached point read to a slow page.
     */
    private static final Duration[] LATENCY_BUCKETS = {
        Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
        Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
        Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
    };

    private final MeterRegistry registry;
    private final Tags tags;
    private @Nullable Timer successfulRequestLatency;
    private @Nullable Counter consumedReadCapacityUnits;
    private @Nullable Counter consumedWriteCapacityUnits;
    private @Nullable Counter throttledRequests;
    private @Nullable Counter userErrors;
    private @Nullable Counter systemErrors;
    private @Nullable Counter conditionalCheckFailedRequests;
    private @Nullable Counter transactionConflict;
    private @Nullable DistributionSummary returnedItemCount;

    OperationMeters(MeterRegistry registry, String tableName, String operation) {
        this.registry = registry;
        this.tags = Tags.of("TableName", tableName, "Operation", operation);
    }

    void succeeded(long latencyNanos) {
        Timer t = successfulRequestLatency;
        if (t == null) {
            t = Timer.builder(PREFIX + "SuccessfulRequestLatency")
                    .description("Successful requests, by the time the server took to answer")
                    .serviceLevelObjectives(LATENCY_BUCKETS)
                    .tags(tags)
                    .register(registry);
            successfulRequestLatency = t;
        }
        t.record(latencyNanos, TimeUnit.NANOSECONDS);
    }

    /** Capacity units consumed; none recorded (and no series made) for a request that consumed none. */
    void consumed(boolean read, double units) {
        if (units <= 0) {
            return;
        }
        if (read) {
            if (consumedReadCapacityUnits == null) {
                consumedReadCapacityUnits = counter(
                        "ConsumedReadCapacityUnits",
                        "Read capacity units consumed, as ReturnConsumedCapacity would report them");
            }
            consumedReadCapacityUnits.increment(units);
        } else {
            if (consumedWriteCapacityUnits == null) {
                consumedWriteCapacityUnits = counter(
                        "ConsumedWriteCapacityUnits",
                        "Write capacity units consumed, as ReturnConsumedCapacity would report them");
            }
            consumedWriteCapacityUnits.increment(units);
        }
    }

    void throttled() {
        if (throttledRequests == null) {
            throttledRequests = counter(
                    "ThrottledRequests", "Requests refused for throughput (--throttling or the kumiko:throttling tag)");
        }
        throttledRequests.increment();
    }

    void userError() {
        if (userErrors == null) {
            userErrors = counter(
                    "UserErrors", "Requests answered with HTTP 400, except conditional check failures and throttling");
        }
        userErrors.increment();
    }

    void systemError() {
        if (systemErrors == null) {
            systemErrors = counter("SystemErrors", "Requests answered with HTTP 500");
        }
        systemErrors.increment();
    }

    void conditionalCheckFailed() {
        if (conditionalCheckFailedRequests == null) {
            conditionalCheckFailedRequests =
                    counter("ConditionalCheckFailedRequests", "Writes whose condition expression was false");
        }
        conditionalCheckFailedRequests.increment();
    }

    void transactionConflict() {
        if (transactionConflict == null) {
            transactionConflict =
                    counter("TransactionConflict", "Requests refused because a transaction held an item they touched");
        }
        transactionConflict.increment();
    }

    void returnedItems(int count) {
        assert count >= 0 : count;
        if (returnedItemCount == null) {
            returnedItemCount = DistributionSummary.builder(PREFIX + "ReturnedItemCount")
                    .description("Items returned by each Query or Scan page")
                    .tags(tags)
                    .register(registry);
        }
        returnedItemCount.record(count);
    }

    private Counter counter(String name, String description) {
        return Counter.builder(PREFIX + name)
                .description(description)
                .tags(tags)
                .register(registry);
    }
}
