package dev.kumiko.faults.workload;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads a whole stream from its oldest record, and keeps each key's records as the stream ordered
 * them: for every record of a key the workload used, the pair [NewImage value, OldImage value] (null
 * where the image has no item). A key's records are ordered by sequence number, which DynamoDB
 * Streams documents as increasing for the records of one item.
 */
final class StreamReader {
    /** Bounds one read of the stream: pages of GetRecords and shards of DescribeStream. */
    private static final int PAGES_MAX = 100_000;

    private static final int RECORDS_PER_PAGE = 1000;

    private StreamReader() {}

    /** One record of a key: its sequence number, and the values of its two images. */
    private record KeyRecord(
            BigInteger sequence,
            @Nullable Long newValue,
            @Nullable Long oldValue) {}

    static Map<String, List<List<@Nullable Long>>> read(
            DynamoDbStreamsClient streams, String streamArn, Set<String> keys, String key, String value) {
        Map<String, List<KeyRecord>> byKey = new HashMap<>();
        for (Shard shard : shards(streams, streamArn)) {
            readShard(streams, streamArn, shard.shardId(), keys, key, value, byKey);
        }
        Map<String, List<List<@Nullable Long>>> pairs = new HashMap<>();
        for (Map.Entry<String, List<KeyRecord>> e : byKey.entrySet()) {
            List<KeyRecord> records = new ArrayList<>(e.getValue());
            records.sort(Comparator.comparing(KeyRecord::sequence));
            List<List<@Nullable Long>> list = new ArrayList<>(records.size());
            for (KeyRecord r : records) {
                List<@Nullable Long> pair = new ArrayList<>(2);
                pair.add(r.newValue());
                pair.add(r.oldValue());
                list.add(pair);
            }
            pairs.put(e.getKey(), list);
        }
        return pairs;
    }

    private static List<Shard> shards(DynamoDbStreamsClient streams, String streamArn) {
        List<Shard> shards = new ArrayList<>();
        String after = null;
        for (int page = 0; page < PAGES_MAX; page++) {
            String start = after;
            DescribeStreamResponse r =
                    streams.describeStream(b -> b.streamArn(streamArn).exclusiveStartShardId(start));
            shards.addAll(r.streamDescription().shards());
            after = r.streamDescription().lastEvaluatedShardId();
            if (after == null) {
                return shards;
            }
        }
        throw new IllegalStateException("stream " + streamArn + " lists more than " + PAGES_MAX + " pages of shards");
    }

    private static void readShard(
            DynamoDbStreamsClient streams,
            String streamArn,
            String shardId,
            Set<String> keys,
            String key,
            String value,
            Map<String, List<KeyRecord>> byKey) {
        String iterator = streams.getShardIterator(
                        b -> b.streamArn(streamArn).shardId(shardId).shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                .shardIterator();
        for (int page = 0; page < PAGES_MAX && iterator != null; page++) {
            String at = iterator;
            GetRecordsResponse r = streams.getRecords(b -> b.shardIterator(at).limit(RECORDS_PER_PAGE));
            for (Record record : r.records()) {
                AttributeValue keyValue = record.dynamodb().keys().get(key);
                String k = keyValue == null ? null : keyValue.s();
                if (k != null && keys.contains(k)) {
                    byKey.computeIfAbsent(k, x -> new ArrayList<>())
                            .add(new KeyRecord(
                                    new BigInteger(record.dynamodb().sequenceNumber()),
                                    number(record.dynamodb().newImage(), value),
                                    number(record.dynamodb().oldImage(), value)));
                }
            }
            // An open shard answers an iterator for ever; an empty page is its end for now.
            iterator = r.records().isEmpty() ? null : r.nextShardIterator();
        }
    }

    /** The image's value attribute; null for no image (an insert's old image, a removal's new one). */
    private static @Nullable Long number(@Nullable Map<String, AttributeValue> image, String value) {
        AttributeValue v = image == null ? null : image.get(value);
        return v == null ? null : Long.valueOf(Long.parseLong(v.n()));
    }
}
