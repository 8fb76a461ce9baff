package dev.kumiko.engine.streams;

/** The DynamoDB Streams requests as the client sent them; any member may be null (absent). */
public final class StreamRequests {
    private StreamRequests() {}

    /** A table's StreamSpecification as CreateTable and UpdateTable carry it; null members were not given. */
    public record Specification(Boolean streamEnabled, String streamViewType) {}

    public record ListStreams(String tableName, Long limit, String exclusiveStartStreamArn) {}

    public record ShardFilter(String type, String shardId) {}

    public record DescribeStream(String streamArn, Long limit, String exclusiveStartShardId, ShardFilter shardFilter) {}

    public record GetShardIterator(String streamArn, String shardId, String shardIteratorType,
            String sequenceNumber) {}

    public record GetRecords(String shardIterator, Long limit) {}
}
