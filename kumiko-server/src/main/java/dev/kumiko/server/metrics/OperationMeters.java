package dev.kumiko.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * The meters of one table and operation, named as DynamoDB's CloudWatch metrics (namespace
 * AWS/DynamoDB, dimensions TableName and Operation). Made once per pair and cached, so recording a
 * request only updates counters.
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

    final Timer successfulRequestLatency;
    final Counter consumedReadCapacityUnits;
    final Counter consumedWriteCapacityUnits;
    final Counter throttledRequests;
    final Counter userErrors;
    final Counter systemErrors;
    final Counter conditionalCheckFailedRequests;
    final Counter transactionConflict;
    final DistributionSummary returnedItemCount;

    OperationMeters(MeterRegistry registry, String tableName, String operation) {
        Tags tags = Tags.of("TableName", tableName, "Operation", operation);
        successfulRequestLatency = Timer.builder(PREFIX + "SuccessfulRequestLatency")
                .description("Successful requests, by the time the server took to answer")
                .serviceLevelObjectives(LATENCY_BUCKETS).tags(tags).register(registry);
        consumedReadCapacityUnits = counter(registry, "ConsumedReadCapacityUnits",
                "Read capacity units consumed, as ReturnConsumedCapacity would report them", tags);
        consumedWriteCapacityUnits = counter(registry, "ConsumedWriteCapacityUnits",
                "Write capacity units consumed, as ReturnConsumedCapacity would report them", tags);
        throttledRequests = counter(registry, "ThrottledRequests",
                "Requests refused for throughput (--throttling or the kumiko:throttling tag)", tags);
        userErrors = counter(registry, "UserErrors",
                "Requests answered with HTTP 400, except conditional check failures and throttling", tags);
        systemErrors = counter(registry, "SystemErrors", "Requests answered with HTTP 500", tags);
        conditionalCheckFailedRequests = counter(registry, "ConditionalCheckFailedRequests",
                "Writes whose condition expression was false", tags);
        transactionConflict = counter(registry, "TransactionConflict",
                "Requests refused because a transaction held an item they touched", tags);
        returnedItemCount = DistributionSummary.builder(PREFIX + "ReturnedItemCount")
                .description("Items returned by each Query or Scan page").tags(tags).register(registry);
    }

    private static Counter counter(MeterRegistry registry, String name, String description, Tags tags) {
        return Counter.builder(PREFIX + name).description(description).tags(tags).register(registry);
    }
}
