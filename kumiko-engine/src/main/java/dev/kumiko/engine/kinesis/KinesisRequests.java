package dev.kumiko.engine.kinesis;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** The typed requests and answers of the four Kinesis streaming destination operations. */
public final class KinesisRequests {
    private KinesisRequests() {}

    /** EnableKinesisStreamingDestination; precision is EnableKinesisStreamingConfiguration's member, if given. */
    public record Enable(
            @Nullable String tableName,
            @Nullable String streamArn,
            @Nullable String precision) {}

    /** DisableKinesisStreamingDestination (its EnableKinesisStreamingConfiguration is echoed back). */
    public record Disable(
            @Nullable String tableName,
            @Nullable String streamArn,
            @Nullable String precision) {}

    /** UpdateKinesisStreamingDestination; precision is UpdateKinesisStreamingConfiguration's member. */
    public record Update(
            @Nullable String tableName,
            @Nullable String streamArn,
            boolean configurationGiven,
            @Nullable String precision) {}

    /** DescribeKinesisStreamingDestination. */
    public record Describe(@Nullable String tableName) {}

    /**
     * The answer of Enable, Disable and Update: the table, the stream, the destination's status, and
     * the configuration the request gave (null: none given, and none is answered).
     */
    public record Changed(
            String tableName,
            String streamArn,
            String destinationStatus,
            @Nullable String precision) {}

    /** One KinesisDataStreamDestination. */
    public record Destination(
            String streamArn,
            String destinationStatus,
            @Nullable String statusDescription,
            String precision) {}

    public record Description(String tableName, List<Destination> destinations) {}
}
