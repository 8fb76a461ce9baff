package dev.kumiko.engine.streams;

import dev.kumiko.model.StreamViewType;
import org.jspecify.annotations.Nullable;

/**
 * The DynamoDB Streams requests, typed (enum members are enums; the server's decoder checks the
 * wire strings); any member may be null (absent).
 */
public final class StreamRequests {
    private StreamRequests() {}

    /** A table's StreamSpecification as CreateTable and UpdateTable carry it; null members were not given. */
    public record Specification(
            @Nullable Boolean streamEnabled, @Nullable StreamViewType streamViewType) {}

    public record ListStreams(
            @Nullable String tableName,
            @Nullable Long limit,
            @Nullable String exclusiveStartStreamArn) {}

    /** ShardIteratorType's values, in the order DynamoDB lists them in constraint messages. */
    public enum ShardIteratorType {
        TRIM_HORIZON,
        LATEST,
        AT_SEQUENCE_NUMBER,
        AFTER_SEQUENCE_NUMBER
    }

    /** ShardFilter's Type: its one value. */
    public enum ShardFilterType {
        CHILD_SHARDS
    }

    public record ShardFilter(
            @Nullable ShardFilterType type, @Nullable String shardId) {}

    public record DescribeStream(
            String streamArn,
            @Nullable Long limit,
            @Nullable String exclusiveStartShardId,
            @Nullable ShardFilter shardFilter) {}

    public record GetShardIterator(
            String streamArn,
            String shardId,
            ShardIteratorType shardIteratorType,
            @Nullable String sequenceNumber) {}

    public record GetRecords(String shardIterator, @Nullable Long limit) {}
}
