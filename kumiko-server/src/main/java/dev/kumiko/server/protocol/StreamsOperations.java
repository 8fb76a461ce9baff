package dev.kumiko.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.catalog.KeySchemaElement;
import dev.kumiko.engine.changelog.ChangeOrigin;
import dev.kumiko.engine.changelog.ChangeRecord;
import dev.kumiko.engine.streams.StreamRequests;
import dev.kumiko.engine.streams.StreamRequests.ShardFilterType;
import dev.kumiko.engine.streams.StreamRequests.ShardIteratorType;
import dev.kumiko.engine.streams.StreamResults;
import dev.kumiko.server.policy.AuthRule;
import dev.kumiko.server.policy.ResourceChecks;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Registrations of the DynamoDB Streams API (X-Amz-Target DynamoDBStreams_20120810.*): reads the
 * requests, runs them on the engine and writes the answers in the shapes of the API Reference.
 */
final class StreamsOperations {
    /** The identity DynamoDB puts on the stream records of the items TTL deleted. */
    static final String SERVICE_PRINCIPAL = "dynamodb.amazonaws.com";

    static final String EVENT_SOURCE = "aws:dynamodb";
    /** The eventVersion of DynamoDB Streams records. */
    static final String EVENT_VERSION = "1.1";

    /** This file's operations, in the order the table lists them. */
    static final List<String> NAMES = List.of("ListStreams", "DescribeStream", "GetShardIterator", "GetRecords");

    /**
     * The registration of one of {@link #NAMES}, made when the table first looks the operation up:
     * its lambdas are linked then, so a process links only the operations it serves.
     */
    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "ListStreams" ->
                streams(
                        name,
                        body -> new StreamRequests.ListStreams(
                                Fields.string(body, "TableName"),
                                Fields.longValue(body, "Limit"),
                                Fields.string(body, "ExclusiveStartStreamArn")),
                        (e, r, c) -> e.streams().listStreams(c.engine(), r),
                        (g, t, c) -> listStreams(g, t),
                        (r, f) -> ResourceChecks.account("ListStreams"));
            case "DescribeStream" ->
                streams(
                        name,
                        StreamsOperations::describeRequest,
                        (e, r, c) -> e.streams().describeStream(c.engine(), r),
                        (g, t, c) -> describeStream(g, t),
                        (r, f) -> ResourceChecks.arn("DescribeStream", r.streamArn(), f));
            case "GetShardIterator" ->
                streams(
                        name,
                        StreamsOperations::shardIteratorRequest,
                        (e, r, c) -> e.streams().getShardIterator(c.engine(), r),
                        (g, t, c) -> g.writeStringField("ShardIterator", t),
                        (r, f) -> ResourceChecks.arn("GetShardIterator", r.streamArn(), f));
            case "GetRecords" ->
                streams(
                        name,
                        body -> new StreamRequests.GetRecords(
                                Fields.string(body, "ShardIterator"), Fields.longValue(body, "Limit")),
                        (e, r, c) -> e.streams().getRecords(c.engine(), r),
                        (g, t, c) -> getRecords(g, c, t),
                        (r, f) -> ResourceChecks.shardIterator("GetRecords", r.shardIterator(), f));
            default -> throw new IllegalArgumentException("not a DynamoDB Streams operation: " + name);
        };
    }

    private StreamsOperations() {}

    private static <R, T> Operation<R, T> streams(
            String name,
            Operation.Decoder<R> decoder,
            Operation.Call<R, T> call,
            Operation.Encoder<T> encoder,
            AuthRule<R> authorization) {
        return new Operation<>(Operation.Api.STREAMS, name, decoder, call, encoder, authorization);
    }

    private static StreamRequests.DescribeStream describeRequest(Map<String, Object> b) {
        String streamArn = Fields.string(b, "StreamArn");
        Long limit = Fields.longValue(b, "Limit");
        String exclusiveStartShardId = Fields.string(b, "ExclusiveStartShardId");
        Map<String, Object> filter = Fields.object(b, "ShardFilter");
        String filterType = filter == null ? null : Fields.string(filter, "Type");
        String filterShardId = filter == null ? null : Fields.string(filter, "ShardId");
        var r = new StreamRequests.DescribeStream(
                streamArn,
                limit,
                exclusiveStartShardId,
                filter == null
                        ? null
                        : new StreamRequests.ShardFilter(
                                WireEnums.lenient(ShardFilterType.class, filterType), filterShardId));
        MemberViolations.check(
                r,
                () -> StreamsMembers.describeStream(
                        streamArn, limit, exclusiveStartShardId, filter != null, filterType, filterShardId));
        return r;
    }

    private static StreamRequests.GetShardIterator shardIteratorRequest(Map<String, Object> b) {
        String streamArn = Fields.string(b, "StreamArn");
        String shardId = Fields.string(b, "ShardId");
        String type = Fields.string(b, "ShardIteratorType");
        String sequenceNumber = Fields.string(b, "SequenceNumber");
        var r = new StreamRequests.GetShardIterator(
                streamArn, shardId, WireEnums.lenient(ShardIteratorType.class, type), sequenceNumber);
        MemberViolations.check(r, () -> StreamsMembers.getShardIterator(streamArn, shardId, type, sequenceNumber));
        return r;
    }

    private static void listStreams(JsonGenerator g, StreamResults.ListStreams r) throws IOException {
        g.writeArrayFieldStart("Streams");
        for (StreamResults.StreamSummary s : r.streams()) {
            g.writeStartObject();
            g.writeStringField("StreamArn", s.streamArn());
            g.writeStringField("TableName", s.tableName());
            g.writeStringField("StreamLabel", s.streamLabel());
            g.writeEndObject();
        }
        g.writeEndArray();
        if (r.lastEvaluatedStreamArn() != null) {
            g.writeStringField("LastEvaluatedStreamArn", r.lastEvaluatedStreamArn());
        }
    }

    private static void describeStream(JsonGenerator g, StreamResults.StreamDescription d) throws IOException {
        g.writeObjectFieldStart("StreamDescription");
        g.writeStringField("StreamArn", d.streamArn());
        g.writeStringField("StreamLabel", d.streamLabel());
        g.writeStringField("StreamStatus", d.streamStatus());
        g.writeStringField("StreamViewType", d.streamViewType().name());
        JsonOut.epochSeconds(g, "CreationRequestDateTime", d.creationRequestMillis());
        g.writeStringField("TableName", d.tableName());
        g.writeArrayFieldStart("KeySchema");
        for (KeySchemaElement k : d.keySchema()) {
            g.writeStartObject();
            g.writeStringField("AttributeName", k.attributeName());
            g.writeStringField("KeyType", k.keyType().name());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("Shards");
        for (StreamResults.ShardDescription s : d.shards()) {
            g.writeStartObject();
            g.writeStringField("ShardId", s.shardId());
            g.writeObjectFieldStart("SequenceNumberRange");
            g.writeStringField("StartingSequenceNumber", s.startingSequenceNumber());
            if (s.endingSequenceNumber() != null) {
                g.writeStringField("EndingSequenceNumber", s.endingSequenceNumber());
            }
            g.writeEndObject();
            if (s.parentShardId() != null) {
                g.writeStringField("ParentShardId", s.parentShardId());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        if (d.lastEvaluatedShardId() != null) {
            g.writeStringField("LastEvaluatedShardId", d.lastEvaluatedShardId());
        }
        g.writeEndObject();
    }

    private static void getRecords(JsonGenerator g, CallContext ctx, StreamResults.GetRecords r) throws IOException {
        g.writeArrayFieldStart("Records");
        for (StreamResults.StreamRecord record : r.records()) {
            record(g, ctx, record);
        }
        g.writeEndArray();
        if (r.nextShardIterator() != null) {
            g.writeStringField("NextShardIterator", r.nextShardIterator());
        }
    }

    /**
     * One record as GetRecords shapes it (API Reference, Record and StreamRecord): the top-level
     * members in lower camel case, the dynamodb block's in upper camel case, and userIdentity
     * (PrincipalId, Type) only on the REMOVE records of TTL deletes.
     */
    private static void record(JsonGenerator g, CallContext ctx, StreamResults.StreamRecord record) throws IOException {
        ChangeRecord c = record.change();
        g.writeStartObject();
        g.writeStringField("eventID", record.eventId());
        g.writeStringField("eventName", c.eventName().name());
        g.writeStringField("eventVersion", EVENT_VERSION);
        g.writeStringField("eventSource", EVENT_SOURCE);
        g.writeStringField("awsRegion", ctx.region());
        g.writeObjectFieldStart("dynamodb");
        // The API Reference: "rounded down to the closest second".
        g.writeFieldName("ApproximateCreationDateTime");
        g.writeNumber(BigDecimal.valueOf(Math.floorDiv(c.createdMillis(), 1000)));
        g.writeFieldName("Keys");
        JsonOut.item(g, c.keys());
        if (c.newImage() != null) {
            g.writeFieldName("NewImage");
            JsonOut.item(g, c.newImage());
        }
        if (c.oldImage() != null) {
            g.writeFieldName("OldImage");
            JsonOut.item(g, c.oldImage());
        }
        g.writeStringField("SequenceNumber", record.sequenceNumber());
        g.writeNumberField("SizeBytes", c.sizeBytes());
        g.writeStringField("StreamViewType", c.viewType().name());
        g.writeEndObject();
        if (c.origin() == ChangeOrigin.TIME_TO_LIVE) {
            g.writeObjectFieldStart("userIdentity");
            g.writeStringField("PrincipalId", SERVICE_PRINCIPAL);
            g.writeStringField("Type", "Service");
            g.writeEndObject();
        }
        g.writeEndObject();
    }
}
