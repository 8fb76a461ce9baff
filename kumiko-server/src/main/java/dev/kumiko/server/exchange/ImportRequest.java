package dev.kumiko.server.exchange;

import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.error.DynamoException;
import java.util.List;
import java.util.Map;

/**
 * ImportTable's members. {@code tableCreation} is TableCreationParameters decoded as a CreateTable
 * request, {@code tableCreationViolations} its member-constraint violations (null if none), answered
 * where CreateTable answers them; {@code tableCreationJson} the same members as given, echoed by
 * DescribeImport; {@code lineFormat} the line format inputFormat names (null for CSV, or when it
 * names none).
 */
public record ImportRequest(String clientToken, String s3Bucket, String s3KeyPrefix, String s3BucketOwner,
        String inputFormat, Character csvDelimiter, List<String> csvHeaderList, String inputCompressionType,
        CreateTableRequest tableCreation, DynamoException tableCreationViolations, Map<String, Object> sourceJson, Map<String, Object> formatOptionsJson,
        Map<String, Object> tableCreationJson, ItemLineFormat lineFormat) {}
