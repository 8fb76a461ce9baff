package dev.kumiko.server.exchange;

import dev.kumiko.error.DynamoException;
import java.net.URI;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Where exports and imports read and write: an S3-compatible endpoint (null: none configured, so
 * only {@code file:} buckets work) and the directory import error logs go to; and the shortest
 * period an incremental export may cover (DynamoDB's 15 minutes unless lowered, for tests).
 */
public record ExchangeSettings(S3Client.@Nullable Settings s3, Path importLogDir, long incrementalPeriodMinMillis) {
    /** The prefix of an S3Bucket value that names a local directory instead of a bucket. */
    public static final String FILE_BUCKET_PREFIX = "file:";

    public static ExchangeSettings defaults() {
        return new ExchangeSettings(
                null,
                Path.of(System.getProperty("java.io.tmpdir"), "kumiko-import-logs"),
                IncrementalExport.PERIOD_MIN_MILLIS);
    }

    /** With an S3 endpoint (path-style), its region and credentials. */
    public ExchangeSettings withS3(
            URI endpoint, String region, String accessKeyId, String secretAccessKey, String sessionToken) {
        return new ExchangeSettings(
                new S3Client.Settings(endpoint, region, accessKeyId, secretAccessKey, sessionToken),
                importLogDir,
                incrementalPeriodMinMillis);
    }

    public ExchangeSettings withImportLogDir(Path dir) {
        return new ExchangeSettings(s3, dir, incrementalPeriodMinMillis);
    }

    /**
     * With a shorter minimum period for incremental exports than DynamoDB's 15 minutes, so that a
     * test need not wait 15 minutes; at least 1 ms, at most DynamoDB's minimum.
     */
    public ExchangeSettings withIncrementalPeriodMinMillis(long millis) {
        if (millis < 1 || millis > IncrementalExport.PERIOD_MIN_MILLIS) {
            throw new IllegalArgumentException(
                    "the incremental export period minimum must be 1 ms to 15 minutes: " + millis);
        }
        return new ExchangeSettings(s3, importLogDir, millis);
    }

    /** The target an S3Bucket value names: {@code file:/path} a directory, anything else a bucket. */
    ExchangeTarget target(String bucket) {
        if (bucket.startsWith(FILE_BUCKET_PREFIX)) {
            String path = bucket.substring(FILE_BUCKET_PREFIX.length());
            return new DirectoryTarget(path.startsWith("//") ? Path.of(URI.create(bucket)) : Path.of(path));
        }
        if (s3 == null) {
            throw DynamoException.validation("S3Bucket " + bucket + ": this server has no S3 endpoint; start it with "
                    + "--s3-endpoint, or name a local directory as file:/path");
        }
        return new S3Target(new S3Client(s3), bucket);
    }
}
