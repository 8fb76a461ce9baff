package dev.kumiko.engine.streams;

import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.engine.changelog.ChangeRecord;
import dev.kumiko.model.StreamViewType;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** What the DynamoDB Streams operations answer, before it is written as JSON. */
public final class StreamResults {
    private StreamResults() {}

    public record StreamSummary(String streamArn, String tableName, String streamLabel) {}

    public record ListStreams(
            List<StreamSummary> streams, @Nullable String lastEvaluatedStreamArn) {}

    /** endingSequenceNumber is null while the shard is open. */
    public record ShardDescription(
            String shardId,
            @Nullable String parentShardId,
            String startingSequenceNumber,
            @Nullable String endingSequenceNumber) {}

    public record StreamDescription(
            String streamArn,
            String streamLabel,
            String streamStatus,
            StreamViewType streamViewType,
            long creationRequestMillis,
            String tableName,
            List<KeySchemaElement> keySchema,
            List<ShardDescription> shards,
            @Nullable String lastEvaluatedShardId) {}

    /** One stream record: the change, its eventID and its wire sequence number. */
    public record StreamRecord(String eventId, String sequenceNumber, ChangeRecord change) {}

    /** nextShardIterator is null once a closed shard has been read to its end. */
    public record GetRecords(
            List<StreamRecord> records, @Nullable String nextShardIterator) {}
}
