package dev.kumiko.server.exchange;

import org.jspecify.annotations.Nullable;

/**
 * ExportTableToPointInTime's members (ExportTime in epoch milliseconds; null when not given);
 * incremental is the IncrementalExportSpecification, null when not given; lineFormat the format
 * that exportFormat names (DynamoDB JSON when not given), null when it names none.
 */
public record ExportRequest(
        @Nullable String tableArn,
        @Nullable Long exportTimeMillis,
        @Nullable String clientToken,
        @Nullable String s3Bucket,
        @Nullable String s3BucketOwner,
        @Nullable String s3Prefix,
        @Nullable String s3SseAlgorithm,
        @Nullable String s3SseKmsKeyId,
        @Nullable String exportFormat,
        @Nullable String exportType,
        @Nullable IncrementalSpec incremental,
        @Nullable ItemLineFormat lineFormat) {

    /** IncrementalExportSpecification: times in epoch milliseconds, each null when not given. */
    public record IncrementalSpec(
            @Nullable Long exportFromTimeMillis,
            @Nullable Long exportToTimeMillis,
            @Nullable String exportViewType) {}
}
