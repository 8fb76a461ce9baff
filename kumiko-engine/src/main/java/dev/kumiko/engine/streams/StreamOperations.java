package dev.kumiko.engine.streams;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.StreamEpoch;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.capacity.UsageObserver;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.changelog.ChangeRecord;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The DynamoDB Streams API (target prefix DynamoDBStreams_20120810): ListStreams, DescribeStream,
 * GetShardIterator and GetRecords, all reading the one change log. Every call first lets the
 * stream's shards roll over ({@link StreamLifecycle#rollShards}), so shard lineage follows the
 * engine's clock.
 */
public final class StreamOperations {
    static final int LIST_STREAMS_LIMIT_MAX = 100;
    public static final int DESCRIBE_STREAM_LIMIT_MAX = 100;
    /** GetRecords: at most 1000 records or 1 MB of data, whichever comes first. */
    static final int RECORDS_MAX = 1000;

    static final long RECORDS_BYTES_MAX = 1024 * 1024;

    private final Catalog catalog;
    private final ChangeLog changeLog;
    private final StreamLifecycle lifecycle;
    private final Clock clock;
    private volatile UsageObserver observer = UsageObserver.NONE;

    public StreamOperations(Catalog catalog, ChangeLog changeLog, StreamLifecycle lifecycle, Clock clock) {
        this.catalog = catalog;
        this.changeLog = changeLog;
        this.lifecycle = lifecycle;
        this.clock = clock;
    }

    /** A table's stream found by ARN: the live table and the stream's epoch. */
    private record Resolved(String streamArn, Table table, StreamEpoch epoch) {
        TableDescriptor descriptor() {
            return table.descriptor();
        }
    }

    /** Sets who is told how far each GetRecords read (the age of the oldest unread record). */
    public void observe(UsageObserver o) {
        observer = o;
    }

    public StreamResults.ListStreams listStreams(RequestContext ctx, StreamRequests.ListStreams r) {
        Constraints c = new Constraints();
        c.tableName("tableName", r.tableName());
        c.range("limit", r.limit(), 1, LIST_STREAMS_LIMIT_MAX);
        c.length("exclusiveStartStreamArn", r.exclusiveStartStreamArn(), 37, 1024);
        c.throwIfAny();
        List<String> names = r.tableName() != null ? List.of(r.tableName()) : catalog.names(null, Integer.MAX_VALUE);
        if (r.tableName() != null && catalog.get(r.tableName()) == null) {
            // UNVERIFIED wording: DescribeTable's for a missing table.
            throw DynamoException.resourceNotFound(
                    "Requested resource not found: Table: " + r.tableName() + " not found");
        }
        StreamArns.Parsed after =
                r.exclusiveStartStreamArn() == null ? null : existingStream(r.exclusiveStartStreamArn());
        int max = r.limit() == null ? LIST_STREAMS_LIMIT_MAX : r.limit().intValue();
        long now = clock.nowMillis();
        List<StreamResults.StreamSummary> out = new ArrayList<>();
        for (String name : names) {
            Table t = catalog.get(name);
            if (t == null) {
                continue;
            }
            for (StreamEpoch e : t.descriptor().stream().epochs()) {
                if (!StreamLifecycle.isReadable(e, now) || (after != null && !isAfter(name, e.label(), after))) {
                    continue;
                }
                if (out.size() == max) {
                    return new StreamResults.ListStreams(out, out.get(max - 1).streamArn());
                }
                out.add(new StreamResults.StreamSummary(StreamArns.of(ctx, name, e.label()), name, e.label()));
            }
        }
        return new StreamResults.ListStreams(out, null);
    }

    /**
     * ExclusiveStartStreamArn is the value of a previous LastEvaluatedStreamArn. A stream of a table
     * that exists must be one of its streams: one that is not is ResourceNotFoundException, as for
     * DescribeStream, rather than a silent restart of the listing. A stream whose table is gone is
     * different: DynamoDB keeps the stream of a deleted table (DISABLED, deleted after 24 hours, per
     * the DeleteTable reference), so a caller paging while a table is deleted goes on listing after
     * it. Kumiko drops the streams at DeleteTable, so it takes the ARN as a position.
     */
    private StreamArns.Parsed existingStream(String streamArn) {
        StreamArns.Parsed parsed = StreamArns.parse(streamArn);
        if (parsed == null) {
            // UNVERIFIED wording, as resolve's.
            throw DynamoException.validation("Invalid StreamArn");
        }
        Table t = catalog.get(parsed.tableName());
        if (t != null && t.descriptor().stream().epoch(parsed.label()) == null) {
            throw notFound(streamArn);
        }
        return parsed;
    }

    /** Streams are listed by table name, then by label (creation time). */
    private static boolean isAfter(String tableName, String label, StreamArns.Parsed start) {
        int byTable = tableName.compareTo(start.tableName());
        return byTable > 0 || (byTable == 0 && label.compareTo(start.label()) > 0);
    }

    public StreamResults.StreamDescription describeStream(RequestContext ctx, StreamRequests.DescribeStream r) {
        // The server's decoder has checked the members (StreamsMembers).
        Resolved s = resolve(ctx, r.streamArn());
        int max = r.limit() == null ? DESCRIBE_STREAM_LIMIT_MAX : r.limit().intValue();
        List<StreamResults.ShardDescription> shards = new ArrayList<>();
        String lastEvaluated = null;
        for (Shard shard : Shard.of(s.epoch())) {
            if (!selected(shard, r)) {
                continue;
            }
            if (shards.size() == max) {
                lastEvaluated = shards.get(max - 1).shardId();
                break;
            }
            shards.add(describe(shard));
        }
        StreamEpoch e = s.epoch();
        String status = e.isEnabled() ? "ENABLED" : e.isClosed() ? "DISABLED" : "DISABLING";
        return new StreamResults.StreamDescription(
                s.streamArn(),
                e.label(),
                status,
                e.viewType(),
                e.createdMillis(),
                s.descriptor().tableName(),
                s.descriptor().keySchema(),
                shards,
                lastEvaluated);
    }

    /** ExclusiveStartShardId and a CHILD_SHARDS filter (the shards whose parent is the given one). */
    private static boolean selected(Shard shard, StreamRequests.DescribeStream r) {
        if (r.exclusiveStartShardId() != null && shard.shardId().compareTo(r.exclusiveStartShardId()) <= 0) {
            return false;
        }
        StreamRequests.ShardFilter f = r.shardFilter();
        if (f != null && f.type() != null && f.shardId() != null) {
            return f.shardId().equals(shard.parentShardId());
        }
        return true;
    }

    private static StreamResults.ShardDescription describe(Shard shard) {
        String ending = shard.isOpen()
                ? null
                : SequenceNumbers.format(Math.max(shard.startSequence(), shard.endSequence() - 1));
        return new StreamResults.ShardDescription(
                shard.shardId(), shard.parentShardId(), SequenceNumbers.format(shard.startSequence()), ending);
    }

    public String getShardIterator(RequestContext ctx, StreamRequests.GetShardIterator r) {
        // The server's decoder has checked the members (StreamsMembers).
        checkSequenceNumberFitsType(r);
        Resolved s = resolve(ctx, r.streamArn());
        Shard shard = shard(s, r.shardId());
        if (shard == null) {
            // Observed from DynamoDB (a client library's bug report, JS SDK v3).
            throw DynamoException.resourceNotFound("Requested resource not found: Shard does not exist");
        }
        long position = switch (r.shardIteratorType()) {
            case TRIM_HORIZON ->
                Math.max(
                        shard.startSequence(),
                        changeLog.trimmedBelow(s.descriptor().id()));
            case LATEST -> latest(s, shard);
            case AT_SEQUENCE_NUMBER -> requested(s, shard, r);
            case AFTER_SEQUENCE_NUMBER -> afterRequested(s, shard, r);
        };
        return ShardIterators.encode(new ShardIterators.Position(
                s.streamArn(), s.descriptor().tableId(), shard.shardId(), position, clock.nowMillis()));
    }

    /**
     * AT_ and AFTER_SEQUENCE_NUMBER need a SequenceNumber, TRIM_HORIZON and LATEST take none; judged
     * from the request alone, before the stream is looked up. The text follows Kinesis's observed
     * answer for the same rule, with DynamoDB Streams' member name (UNVERIFIED for DynamoDB).
     */
    private static void checkSequenceNumberFitsType(StreamRequests.GetShardIterator r) {
        boolean needsOne = r.shardIteratorType() == StreamRequests.ShardIteratorType.AT_SEQUENCE_NUMBER
                || r.shardIteratorType() == StreamRequests.ShardIteratorType.AFTER_SEQUENCE_NUMBER;
        boolean hasOne = r.sequenceNumber() != null;
        if (needsOne != hasOne) {
            throw DynamoException.validation("Must either specify (1) AT_SEQUENCE_NUMBER or AFTER_SEQUENCE_NUMBER and "
                    + "SequenceNumber or (2) TRIM_HORIZON or LATEST and no SequenceNumber. Request specified "
                    + r.shardIteratorType() + (hasOne ? " and also a SequenceNumber." : " and no SequenceNumber."));
        }
    }

    private long latest(Resolved s, Shard shard) {
        if (!shard.isOpen()) {
            return shard.endSequence();
        }
        return Math.max(shard.startSequence(), changeLog.latest(s.descriptor()));
    }

    /** After the shard's StartingSequenceNumber is its beginning when no record holds that number yet. */
    private long afterRequested(Resolved s, Shard shard, StreamRequests.GetShardIterator r) {
        long seq = requested(s, shard, r);
        boolean startHasNoRecord =
                seq == shard.startSequence() && shard.isOpen() && changeLog.peekNext(s.descriptor()) <= seq;
        return startHasNoRecord ? seq : seq + 1;
    }

    /** The change log number of AT_ / AFTER_SEQUENCE_NUMBER's SequenceNumber, checked against the shard. */
    private long requested(Resolved s, Shard shard, StreamRequests.GetShardIterator r) {
        String sequenceNumber = Objects.requireNonNull(
                r.sequenceNumber(), "checkSequenceNumberFitsType requires one for AT_ and AFTER_SEQUENCE_NUMBER");
        long seq = SequenceNumbers.parse(sequenceNumber);
        if (seq == shard.startSequence()) {
            // The shard's own StartingSequenceNumber marks where it begins, also before its first
            // record: both types then start at the shard's beginning.
            checkNotTrimmed(s, seq);
            return seq;
        }
        boolean inShard = seq >= shard.startSequence()
                && (shard.isOpen()
                        ? seq < changeLog.peekNext(s.descriptor())
                        : seq < Math.max(shard.endSequence(), shard.startSequence() + 1));
        if (!inShard) {
            // UNVERIFIED wording.
            throw DynamoException.validation(
                    "Invalid SequenceNumber " + r.sequenceNumber() + " for shard " + shard.shardId());
        }
        checkNotTrimmed(s, seq);
        return seq;
    }

    private void checkNotTrimmed(Resolved s, long seq) {
        if (seq < changeLog.trimmedBelow(s.descriptor().id())) {
            throw trimmed();
        }
    }

    public StreamResults.GetRecords getRecords(RequestContext ctx, StreamRequests.GetRecords r) {
        Constraints c = new Constraints();
        if (c.notNull("shardIterator", r.shardIterator())) {
            c.length("shardIterator", r.shardIterator(), 1, 2048);
        }
        c.range("limit", r.limit(), 1, RECORDS_MAX);
        c.throwIfAny();
        ShardIterators.Position p = ShardIterators.decode(r.shardIterator());
        if (p == null) {
            // UNVERIFIED wording.
            throw DynamoException.validation("Invalid ShardIterator");
        }
        long now = clock.nowMillis();
        if (now - p.issuedMillis() > ShardIterators.LIFETIME_MILLIS) {
            throw expired(p.issuedMillis(), now);
        }
        Resolved s = resolve(ctx, p.streamArn());
        if (!s.descriptor().tableId().equals(p.tableId())) {
            throw notFound(p.streamArn());
        }
        Shard shard = shard(s, p.shardId());
        int tableId = s.descriptor().id();
        if (shard == null || p.nextSequence() < changeLog.trimmedBelow(tableId)) {
            throw trimmed();
        }
        return read(s, shard, p, r.limit() == null ? RECORDS_MAX : r.limit().intValue(), now);
    }

    private StreamResults.GetRecords read(Resolved s, Shard shard, ShardIterators.Position p, int limit, long now) {
        TableDescriptor d = s.descriptor();
        long bound = changeLog.visibleBound(d);
        long readTo = shard.isOpen() ? bound : Math.min(bound, shard.endSequence());
        ChangeLog.Page page = changeLog.read(d.id(), p.nextSequence(), readTo, limit, RECORDS_BYTES_MAX);
        List<StreamResults.StreamRecord> records =
                new ArrayList<>(page.records().size());
        for (ChangeRecord change : page.records()) {
            records.add(new StreamResults.StreamRecord(
                    eventId(d, change.sequence()), SequenceNumbers.format(change.sequence()), change));
        }
        long next = page.records().isEmpty()
                ? p.nextSequence()
                : page.records().get(page.records().size() - 1).sequence() + 1;
        observer.streamRead(d, next);
        boolean finished = !shard.isOpen() && readTo == shard.endSequence() && page.exhausted();
        String nextIterator = finished
                ? null
                : ShardIterators.encode(
                        new ShardIterators.Position(p.streamArn(), p.tableId(), p.shardId(), next, now));
        return new StreamResults.GetRecords(records, nextIterator);
    }

    /** A stable eventID per record: 32 hex digits from the table incarnation and the number. */
    private static String eventId(TableDescriptor d, long sequence) {
        return UUID.nameUUIDFromBytes((d.tableId() + "/" + sequence).getBytes(StandardCharsets.UTF_8))
                .toString()
                .replace("-", "");
    }

    private Resolved resolve(RequestContext ctx, String streamArn) {
        StreamArns.Parsed parsed = StreamArns.parse(streamArn);
        if (parsed == null) {
            // UNVERIFIED wording.
            throw DynamoException.validation("Invalid StreamArn");
        }
        Table t = catalog.get(parsed.tableName());
        StreamEpoch e = t == null ? null : t.descriptor().stream().epoch(parsed.label());
        if (t == null || e == null || !StreamLifecycle.isReadable(e, clock.nowMillis())) {
            throw notFound(streamArn);
        }
        lifecycle.rollShards(t, clock.nowMillis());
        StreamEpoch rolled = t.descriptor().stream().epoch(parsed.label());
        if (rolled == null) {
            throw notFound(streamArn); // dropped meanwhile by another request's roll
        }
        return new Resolved(StreamArns.of(ctx, parsed.tableName(), parsed.label()), t, rolled);
    }

    private static @Nullable Shard shard(Resolved s, String shardId) {
        for (Shard shard : Shard.of(s.epoch())) {
            if (shard.shardId().equals(shardId)) {
                return shard;
            }
        }
        return null;
    }

    /** Observed from DynamoDB in client bug reports (DescribeStream of a stream that is gone). */
    private static DynamoException notFound(String streamArn) {
        return DynamoException.resourceNotFound("Requested resource not found: Stream: " + streamArn + " not found");
    }

    /** Observed in a client library's bug report against DynamoDB. */
    private static DynamoException trimmed() {
        return new DynamoException(ErrorCode.TRIMMED_DATA_ACCESS, "The data you are trying to access has been trimmed");
    }

    /** UNVERIFIED wording, shaped like Kinesis's (DynamoDB Streams' iterators live 15 minutes). */
    private static DynamoException expired(long issuedMillis, long nowMillis) {
        return new DynamoException(
                ErrorCode.EXPIRED_ITERATOR,
                "Iterator expired. The iterator was created at time "
                        + java.time.Instant.ofEpochMilli(issuedMillis) + " while right now it is "
                        + java.time.Instant.ofEpochMilli(nowMillis)
                        + " which is further in the future than the tolerated "
                        + "delay of " + ShardIterators.LIFETIME_MILLIS + " milliseconds.");
    }
}
