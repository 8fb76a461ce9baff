package dev.kumiko.server.exchange;

/**
 * ExportTableToPointInTime's members (ExportTime in epoch milliseconds; null when not given);
 * incremental is the IncrementalExportSpecification, null when not given; lineFormat the format
 * that exportFormat names (DynamoDB JSON when not given), null when it names none.
 */
public record ExportRequest(String tableArn, Long exportTimeMillis, String clientToken, String s3Bucket,
        String s3BucketOwner, String s3Prefix, String s3SseAlgorithm, String s3SseKmsKeyId, String exportFormat,
        String exportType, IncrementalSpec incremental, ItemLineFormat lineFormat) {

    /** IncrementalExportSpecification: times in epoch milliseconds, each null when not given. */
    public record IncrementalSpec(Long exportFromTimeMillis, Long exportToTimeMillis, String exportViewType) {}
}
