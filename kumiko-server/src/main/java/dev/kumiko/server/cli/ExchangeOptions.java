package dev.kumiko.server.cli;

import dev.kumiko.server.exchange.ExchangeSettings;
import java.net.URI;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code serve}'s options for exports and imports: the S3-compatible endpoint and the import error logs. */
public final class ExchangeOptions {
    @Option(
            names = "--s3-endpoint",
            paramLabel = "URL",
            description = "S3-compatible endpoint that ExportTableToPointInTime and ImportTable use (path-style), "
                    + "e.g. http://127.0.0.1:9000. Without it only S3Bucket values of the form file:/path work.")
    URI s3Endpoint;

    @Option(names = "--s3-region", description = "Region S3 requests are signed for (default: ${DEFAULT-VALUE}).")
    String s3Region = "us-east-1";

    @Option(
            names = "--s3-access-key-id",
            paramLabel = "ID",
            description = "Access key for --s3-endpoint (default: $AWS_ACCESS_KEY_ID).")
    String s3AccessKeyId;

    @Option(
            names = "--s3-secret-access-key",
            paramLabel = "SECRET",
            description = "Secret key for --s3-endpoint (default: $AWS_SECRET_ACCESS_KEY).")
    String s3SecretAccessKey;

    @Option(
            names = "--import-log-dir",
            paramLabel = "DIR",
            description = "Where ImportTable writes its error logs (aws-dynamodb/imports/ID.log) "
                    + "(default: the system's temporary directory, kumiko-import-logs).")
    Path importLogDir;

    @Option(
            names = "--incremental-export-min-period-seconds",
            paramLabel = "SECONDS",
            description = "Shortest period an INCREMENTAL_EXPORT may cover, 1 to 900 (default: DynamoDB's 900, "
                    + "15 minutes). Lower it so that tests need not wait 15 minutes.")
    Long incrementalMinPeriodSeconds;

    /** DynamoDB's minimum incremental period, the highest value the option takes. */
    static final long INCREMENTAL_MIN_PERIOD_SECONDS_MAX = 900;

    /** Refuses values the settings would not take, in one line, before anything is opened. */
    void check() throws ConsoleOptions.Invalid {
        if (incrementalMinPeriodSeconds != null
                && (incrementalMinPeriodSeconds < 1
                        || incrementalMinPeriodSeconds > INCREMENTAL_MIN_PERIOD_SECONDS_MAX)) {
            throw new ConsoleOptions.Invalid(
                    "--incremental-export-min-period-seconds must be 1 to " + INCREMENTAL_MIN_PERIOD_SECONDS_MAX);
        }
    }

    public ExchangeSettings settings() {
        ExchangeSettings s = ExchangeSettings.defaults();
        if (incrementalMinPeriodSeconds != null) {
            s = s.withIncrementalPeriodMinMillis(incrementalMinPeriodSeconds * 1000);
        }
        if (importLogDir != null) {
            s = s.withImportLogDir(importLogDir);
        }
        if (s3Endpoint != null) {
            String id = s3AccessKeyId != null ? s3AccessKeyId : System.getenv("AWS_ACCESS_KEY_ID");
            String secret = s3SecretAccessKey != null ? s3SecretAccessKey : System.getenv("AWS_SECRET_ACCESS_KEY");
            s = s.withS3(
                    s3Endpoint,
                    s3Region,
                    id == null ? "" : id,
                    secret == null ? "" : secret,
                    System.getenv("AWS_SESSION_TOKEN"));
        }
        return s;
    }
}
