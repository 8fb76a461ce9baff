package dev.kumiko.engine.kinesis;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.KinesisDestinations.Destination;
import dev.kumiko.catalog.KinesisDestinations.Status;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.ItemCodec;
import dev.kumiko.engine.background.Lease;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.changelog.ChangeRecord;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The background task that moves Kinesis streaming destinations through their lifecycle and ships
 * their tables' changes, under the lease {@code kinesis-ship} (one engine over the store runs it),
 * as the replication shipper does for peer regions. Each step, for each table and destination:
 * ENABLING asks the service for the stream (missing: ENABLE_FAILED; ACTIVE or UPDATING: ACTIVE);
 * UPDATING becomes ACTIVE (the new precision applies from the next record shipped); DISABLING
 * becomes DISABLED; ACTIVE gets the next page of the change log from its saved position in one
 * PutRecords call. The position moves past the records Kinesis accepted, and only then.
 */
final class KinesisShipper {
    /** PutRecords' most records per call (Kinesis API Reference). */
    static final int RECORDS_PER_CALL_MAX = 500;
    /**
     * The change records' size (DynamoDB's SizeBytes) read per call. Their JSON is larger (names,
     * base64); with one record of up to 800 KB past this the body stays under PutRecords' 5 MiB.
     */
    static final long BYTES_PER_CALL_MAX = 1L << 20;

    private final Catalog catalog;
    private final ChangeLog log;
    private final KinesisPositions positions;
    private final Clock clock;
    private final Lease lease;

    KinesisShipper(Catalog catalog, ChangeLog log, KinesisPositions positions, Clock clock, Lease lease) {
        this.catalog = catalog;
        this.log = log;
        this.positions = positions;
        this.clock = clock;
        this.lease = lease;
    }

    void release() {
        lease.release();
    }

    /** One step over every table; true when some page was shipped or a status moved (step again at once). */
    boolean step(KinesisLink link) {
        boolean busy = false;
        boolean held = false; // the lease is asked for once per step, and only when there is work
        for (Table t : catalog.tables()) {
            List<Destination> destinations = t.descriptor().kinesis().destinations();
            for (Destination d : destinations) {
                if (d.status() == Status.DISABLED || d.status() == Status.ENABLE_FAILED) {
                    continue;
                }
                if (!held && !lease.hold()) {
                    return false;
                }
                held = true;
                try {
                    busy |= stepOne(t, d, link);
                } catch (KinesisLink.Unreachable e) {
                    // The status and position stay; the next step tries again.
                }
            }
        }
        return busy;
    }

    private boolean stepOne(Table t, Destination d, KinesisLink link) {
        String stream = streamName(d);
        return switch (d.status()) {
            case ENABLING -> enabling(t, d, link.streamStatus(stream));
            case UPDATING -> moved(t, d, Status.ACTIVE, null);
            case DISABLING -> {
                positions.forget(t.descriptor().id(), d.streamArn());
                yield moved(t, d, Status.DISABLED, null);
            }
            case ACTIVE -> ship(t.descriptor(), d, stream, link);
            case DISABLED, ENABLE_FAILED -> false;
        };
    }

    private boolean enabling(Table t, Destination d, @Nullable String streamStatus) {
        if (streamStatus == null) {
            return moved(
                    t,
                    d,
                    Status.ENABLE_FAILED,
                    "The Kinesis data stream " + d.streamArn() + " was not found at the Kinesis endpoint");
        }
        if (!streamStatus.equals("ACTIVE") && !streamStatus.equals("UPDATING")) {
            return false; // CREATING: asked again at the next step; DELETING: until it is gone
        }
        positions.save(t.descriptor().id(), d.streamArn(), Math.max(1, d.fromSequence()));
        return moved(t, d, Status.ACTIVE, null);
    }

    /** Moves d from its status to next, unless a request changed it meanwhile; true if it moved. */
    private boolean moved(Table t, Destination d, Status next, @Nullable String description) {
        synchronized (catalog) {
            TableDescriptor changed = catalog.modify(t, current -> {
                Destination now = current.kinesis().of(d.streamArn());
                if (now == null || now.status() != d.status()) {
                    return current;
                }
                return current.withKinesis(current.kinesis().with(now.with(next, description, clock.nowMillis())));
            });
            return changed != null;
        }
    }

    /** Sends the next page of the table's records; true if there was one. */
    private boolean ship(TableDescriptor table, Destination d, String stream, KinesisLink link) {
        long from = positions.next(table.id(), d.streamArn());
        if (from == 0) {
            from = Math.max(1, d.fromSequence()); // made ACTIVE by an engine that crashed before saving
        }
        long to = log.visibleBound(table);
        if (from >= to) {
            return false;
        }
        ChangeLog.Page page = log.readAllImages(table.id(), from, to, RECORDS_PER_CALL_MAX, BYTES_PER_CALL_MAX);
        List<ChangeRecord> records = page.records();
        if (records.isEmpty()) {
            positions.save(table.id(), d.streamArn(), page.exhausted() ? to : from);
            return page.exhausted();
        }
        List<KinesisLink.Outgoing> out = new ArrayList<>(records.size());
        for (ChangeRecord r : records) {
            out.add(new KinesisLink.Outgoing(table.tableName(), r, eventId(table, r), partitionKey(r), d.precision()));
        }
        int accepted = link.putRecords(stream, out);
        assert accepted >= 0 && accepted <= records.size();
        if (accepted == 0) {
            return false; // Kinesis refused the first record (throttled): the page goes again later
        }
        long next = accepted == records.size()
                ? records.get(records.size() - 1).sequence() + 1
                : records.get(accepted).sequence();
        positions.save(table.id(), d.streamArn(), next);
        return true;
    }

    private static String streamName(Destination d) {
        String name = KinesisStreamArns.streamName(d.streamArn());
        if (name == null) {
            throw new IllegalStateException("a destination with a checked ARN: " + d.streamArn());
        }
        return name;
    }

    /** A record's eventID: the same for the same change when it is sent again, unique across tables. */
    static String eventId(TableDescriptor table, ChangeRecord r) {
        return UUID.nameUUIDFromBytes((table.tableId() + "/" + r.sequence()).getBytes(StandardCharsets.UTF_8))
                .toString();
    }

    /**
     * The Kinesis partition key: the hex MD5 of the item's primary key, so that every change of one
     * item goes to the same shard, in order. DynamoDB derives its partition key from the item's key
     * too, in a way it does not document.
     */
    static String partitionKey(ChangeRecord r) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            return HexFormat.of().withUpperCase().formatHex(md5.digest(ItemCodec.encode(r.keys())));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    }
}
