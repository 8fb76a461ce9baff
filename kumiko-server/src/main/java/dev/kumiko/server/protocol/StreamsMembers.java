package dev.kumiko.server.protocol;

import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.streams.StreamOperations;
import dev.kumiko.engine.streams.StreamRequests.ShardFilterType;
import dev.kumiko.engine.streams.StreamRequests.ShardIteratorType;
import org.jspecify.annotations.Nullable;

/**
 * The API model's member constraints of DescribeStream and GetShardIterator, checked by their
 * decoders on the members as sent, all violations in one message in the order listed here.
 */
final class StreamsMembers {
    /** StreamArn: 37 to 1024 characters. */
    private static final int STREAM_ARN_LENGTH_MIN = 37;

    private static final int STREAM_ARN_LENGTH_MAX = 1024;
    /** ShardId: 28 to 65 characters. */
    private static final int SHARD_ID_LENGTH_MIN = 28;

    private static final int SHARD_ID_LENGTH_MAX = 65;
    /** SequenceNumber: 21 to 40 characters. */
    private static final int SEQUENCE_NUMBER_LENGTH_MIN = 21;

    private static final int SEQUENCE_NUMBER_LENGTH_MAX = 40;

    private StreamsMembers() {}

    /** {@code filterGiven}: whether the request has a ShardFilter (its members may still be absent). */
    static void describeStream(
            @Nullable String streamArn,
            @Nullable Long limit,
            @Nullable String exclusiveStartShardId,
            boolean filterGiven,
            @Nullable String filterType,
            @Nullable String filterShardId) {
        Constraints c = new Constraints();
        if (c.notNull("streamArn", streamArn)) {
            c.length("streamArn", streamArn, STREAM_ARN_LENGTH_MIN, STREAM_ARN_LENGTH_MAX);
        }
        c.range("limit", limit, 1, StreamOperations.DESCRIBE_STREAM_LIMIT_MAX);
        c.length("exclusiveStartShardId", exclusiveStartShardId, SHARD_ID_LENGTH_MIN, SHARD_ID_LENGTH_MAX);
        if (filterGiven) {
            // A filter without its Type or ShardId selects nothing meaningful; UNVERIFIED that
            // DynamoDB words it as the standard "must not be null" constraint.
            if (c.notNull("shardFilter.shardId", filterShardId)) {
                c.length("shardFilter.shardId", filterShardId, SHARD_ID_LENGTH_MIN, SHARD_ID_LENGTH_MAX);
            }
            if (c.notNull("shardFilter.type", filterType)) {
                WireEnums.check(c, "shardFilter.type", filterType, ShardFilterType.class);
            }
        }
        c.throwIfAny();
    }

    static void getShardIterator(
            @Nullable String streamArn,
            @Nullable String shardId,
            @Nullable String shardIteratorType,
            @Nullable String sequenceNumber) {
        Constraints c = new Constraints();
        if (c.notNull("streamArn", streamArn)) {
            c.length("streamArn", streamArn, STREAM_ARN_LENGTH_MIN, STREAM_ARN_LENGTH_MAX);
        }
        if (c.notNull("shardId", shardId)) {
            c.length("shardId", shardId, SHARD_ID_LENGTH_MIN, SHARD_ID_LENGTH_MAX);
        }
        if (c.notNull("shardIteratorType", shardIteratorType)) {
            WireEnums.check(c, "shardIteratorType", shardIteratorType, ShardIteratorType.class);
        }
        c.length("sequenceNumber", sequenceNumber, SEQUENCE_NUMBER_LENGTH_MIN, SEQUENCE_NUMBER_LENGTH_MAX);
        c.throwIfAny();
    }
}
