package dev.kumiko.engine.kinesis;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.KinesisDestinations;
import dev.kumiko.catalog.KinesisDestinations.Destination;
import dev.kumiko.catalog.KinesisDestinations.Precision;
import dev.kumiko.catalog.KinesisDestinations.Status;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.engine.kinesis.KinesisRequests.Changed;
import dev.kumiko.engine.kinesis.KinesisRequests.Description;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * EnableKinesisStreamingDestination, DisableKinesisStreamingDestination,
 * UpdateKinesisStreamingDestination and DescribeKinesisStreamingDestination. The destinations are
 * part of the table's descriptor, so they persist with the table and reach every engine over the
 * store; the {@link KinesisShipper} moves them on (ENABLING to ACTIVE or ENABLE_FAILED, UPDATING to
 * ACTIVE, DISABLING to DISABLED), so each request answers the transitional status, as DynamoDB does.
 *
 * <p>A table streams to one Kinesis data stream at a time. Messages without a documented wording
 * are marked UNVERIFIED (docs/notes/error-messages.md).
 */
public final class KinesisDestinationOperations {
    static final List<String> PRECISIONS = List.of(Precision.MILLISECOND.name(), Precision.MICROSECOND.name());
    /** DynamoDB's default precision when the request names none (the CDK's and CloudFormation's documentation). */
    static final Precision DEFAULT_PRECISION = Precision.MICROSECOND;

    private final Catalog catalog;
    private final ChangeLog log;
    private final Clock clock;
    /** Whether this server has a Kinesis endpoint to ship to (--kinesis-endpoint). */
    private final BooleanSupplier configured;

    public KinesisDestinationOperations(Catalog catalog, ChangeLog log, Clock clock, BooleanSupplier configured) {
        this.catalog = catalog;
        this.log = log;
        this.clock = clock;
        this.configured = configured;
    }

    public Changed enable(KinesisRequests.Enable r) {
        String name = checked(r.tableName(), r.streamArn(), r.precision(), "enableKinesisStreamingConfiguration");
        String arn = streamArn(r.streamArn());
        if (!configured.getAsBoolean()) {
            throw DynamoException.validation("This Kumiko server has no Kinesis endpoint configured: start it with "
                    + "--kinesis-endpoint URL to stream a table's changes to Kinesis");
        }
        Precision precision = r.precision() == null ? DEFAULT_PRECISION : Precision.valueOf(r.precision());
        Table t = table(name);
        synchronized (catalog) {
            long from = log.peekNext(t.descriptor());
            TableDescriptor changed = catalog.modify(t, d -> d.withKinesis(enabled(d, arn, precision, from)));
            if (changed == null) {
                throw tableNotFound(name);
            }
        }
        return new Changed(name, arn, Status.ENABLING.name(), r.precision());
    }

    private KinesisDestinations enabled(TableDescriptor d, String arn, Precision precision, long from) {
        KinesisDestinations k = d.kinesis();
        Destination same = k.of(arn);
        if (same != null && same.status().shipping()) {
            // UNVERIFIED wording.
            throw new DynamoException(
                    ErrorCode.RESOURCE_IN_USE,
                    "Table " + d.tableName() + " is already streaming to the Kinesis data stream " + arn);
        }
        if (same != null && same.status() == Status.DISABLING) {
            throw beingDisabled(d.tableName(), arn);
        }
        for (Destination other : k.destinations()) {
            if (other.status().shipping() || other.status() == Status.DISABLING) {
                // UNVERIFIED wording: one Kinesis data stream per table at a time.
                throw new DynamoException(
                        ErrorCode.LIMIT_EXCEEDED,
                        "Table " + d.tableName() + " already streams to the Kinesis data stream " + other.streamArn()
                                + "; disable it first");
            }
        }
        if (same == null && k.destinations().size() >= KinesisDestinations.DESTINATIONS_MAX) {
            throw new DynamoException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "Table " + d.tableName() + " has had " + KinesisDestinations.DESTINATIONS_MAX
                            + " Kinesis streaming destinations, the most Kumiko keeps");
        }
        return k.with(new Destination(arn, Status.ENABLING, precision, null, Math.max(1, from), clock.nowMillis()));
    }

    public Changed disable(KinesisRequests.Disable r) {
        String name = checked(r.tableName(), r.streamArn(), r.precision(), "enableKinesisStreamingConfiguration");
        String arn = streamArn(r.streamArn());
        Table t = table(name);
        synchronized (catalog) {
            TableDescriptor changed = catalog.modify(t, d -> d.withKinesis(disabled(d, arn)));
            if (changed == null) {
                throw tableNotFound(name);
            }
        }
        return new Changed(name, arn, Status.DISABLING.name(), r.precision());
    }

    private KinesisDestinations disabled(TableDescriptor d, String arn) {
        Destination same = d.kinesis().of(arn);
        if (same == null || same.status() == Status.DISABLED || same.status() == Status.ENABLE_FAILED) {
            throw notStreaming(d.tableName(), arn);
        }
        if (same.status() == Status.DISABLING) {
            throw beingDisabled(d.tableName(), arn);
        }
        return d.kinesis().with(same.with(Status.DISABLING, null, clock.nowMillis()));
    }

    public Changed update(KinesisRequests.Update r) {
        String name = checked(r.tableName(), r.streamArn(), r.precision(), "updateKinesisStreamingConfiguration");
        String arn = streamArn(r.streamArn());
        if (r.precision() == null) {
            // UNVERIFIED wording: the configuration is the only thing an update changes.
            throw DynamoException.validation(
                    "UpdateKinesisStreamingConfiguration.ApproximateCreationDateTimePrecision is required");
        }
        Precision precision = Precision.valueOf(r.precision());
        Table t = table(name);
        synchronized (catalog) {
            TableDescriptor changed = catalog.modify(t, d -> d.withKinesis(updated(d, arn, precision)));
            if (changed == null) {
                throw tableNotFound(name);
            }
        }
        return new Changed(name, arn, Status.UPDATING.name(), r.precision());
    }

    private KinesisDestinations updated(TableDescriptor d, String arn, Precision precision) {
        Destination same = d.kinesis().of(arn);
        if (same == null || same.status() == Status.DISABLED || same.status() == Status.ENABLE_FAILED) {
            throw notStreaming(d.tableName(), arn);
        }
        if (same.status() != Status.ACTIVE) {
            // UNVERIFIED wording.
            throw new DynamoException(
                    ErrorCode.RESOURCE_IN_USE,
                    "The Kinesis streaming destination " + arn + " of table " + d.tableName() + " is " + same.status()
                            + "; it can be updated when it is ACTIVE");
        }
        if (same.precision() == precision) {
            // UNVERIFIED wording.
            throw DynamoException.validation("The ApproximateCreationDateTimePrecision of the Kinesis streaming "
                    + "destination " + arn + " is already " + precision);
        }
        return d.kinesis()
                .with(new Destination(arn, Status.UPDATING, precision, null, same.fromSequence(), clock.nowMillis()));
    }

    public Description describe(KinesisRequests.Describe r) {
        Constraints c = new Constraints();
        if (c.notNull("tableName", r.tableName())) {
            c.length("tableName", r.tableName(), 1, 1024);
        }
        c.throwIfAny();
        String name = TableNames.resolve(r.tableName(), "tableName");
        TableDescriptor d = table(name).descriptor();
        List<KinesisRequests.Destination> out =
                new ArrayList<>(d.kinesis().destinations().size());
        for (Destination x : d.kinesis().destinations()) {
            out.add(new KinesisRequests.Destination(
                    x.streamArn(),
                    x.status().name(),
                    x.description(),
                    x.precision().name()));
        }
        return new Description(name, List.copyOf(out));
    }

    /** The members as the API model constrains them (all violations in one message); the table's name. */
    private static String checked(
            @Nullable String tableName,
            @Nullable String streamArn,
            @Nullable String precision,
            String configurationMember) {
        Constraints c = new Constraints();
        if (c.notNull("tableName", tableName)) {
            c.length("tableName", tableName, 1, 1024);
        }
        if (c.notNull("streamArn", streamArn)) {
            c.length("streamArn", streamArn, KinesisStreamArns.ARN_LENGTH_MIN, KinesisStreamArns.ARN_LENGTH_MAX);
        }
        c.enumValue(configurationMember + ".approximateCreationDateTimePrecision", precision, PRECISIONS);
        c.throwIfAny();
        return TableNames.resolve(tableName, "tableName");
    }

    private static String streamArn(@Nullable String arn) {
        String given = java.util.Objects.requireNonNull(arn, "checked");
        if (KinesisStreamArns.streamName(given) == null) {
            // UNVERIFIED wording.
            throw DynamoException.validation(
                    "Invalid StreamArn: " + given + " is not the ARN of a Kinesis data stream");
        }
        return given;
    }

    private Table table(String name) {
        Table t = catalog.get(name);
        if (t == null) {
            throw tableNotFound(name);
        }
        return t;
    }

    // UNVERIFIED for these operations: DescribeTable's wording for a missing table.
    private static DynamoException tableNotFound(String name) {
        return DynamoException.resourceNotFound("Requested resource not found: Table: " + name + " not found");
    }

    // UNVERIFIED wording.
    private static DynamoException notStreaming(String tableName, String arn) {
        return DynamoException.validation("Table " + tableName + " is not streaming to the Kinesis data stream " + arn);
    }

    // UNVERIFIED wording.
    private static DynamoException beingDisabled(String tableName, String arn) {
        return new DynamoException(
                ErrorCode.RESOURCE_IN_USE,
                "The Kinesis streaming destination " + arn + " of table " + tableName + " is being disabled");
    }
}
