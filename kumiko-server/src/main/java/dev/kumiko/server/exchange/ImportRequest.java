package dev.kumiko.server.exchange;

import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.vector.VectorRequests;
import dev.kumiko.error.DynamoException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * ImportTable's members. {@code tableCreation} is TableCreationParameters decoded as a CreateTable
 * request, {@code tableCreationViolations} its member-constraint violations (null if none), answered
 * where CreateTable answers them; {@code tableCreationJson} the same members as given, echoed by
 * DescribeImport; {@code lineFormat} the line format inputFormat names (null for CSV, or when it
 * names none).
 */
public record ImportRequest(
        @Nullable String clientToken,
        @Nullable String s3Bucket,
        @Nullable String s3KeyPrefix,
        @Nullable String s3BucketOwner,
        @Nullable String inputFormat,
        @Nullable Character csvDelimiter,
        @Nullable List<String> csvHeaderList,
        @Nullable String inputCompressionType,
        @Nullable CreateTableRequest tableCreation,
        @Nullable DynamoException tableCreationViolations,
        @Nullable Map<String, Object> sourceJson,
        @Nullable Map<String, Object> formatOptionsJson,
        @Nullable Map<String, Object> tableCreationJson,
        @Nullable ItemLineFormat lineFormat,
        @Nullable List<VectorRequests.IndexInput> vectorIndexes) {}
