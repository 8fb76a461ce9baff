package dev.kumiko.server.exchange;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.item.ItemRequests;
import dev.kumiko.error.DynamoException;
import dev.kumiko.model.AttributeType;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.DynamoNumber;
import dev.kumiko.model.ScalarAttributeType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads every source file of an import and puts its items into the new table through the normal
 * write path (indexes, streams and counters as for any PutItem). A line or record that is not a
 * valid item is counted and logged ({@link ImportErrorLog}) and the import goes on, as DynamoDB's
 * does.
 */
final class ImportRun {
    /** Source files one import reads at most. */
    static final int SOURCE_FILES_MAX = 50_000;
    /** Names an export writes next to its data, skipped when an export's folder is imported. */
    private static final Set<String> EXPORT_METADATA = Set.of(
            "_started",
            "manifest-files.json",
            "manifest-summary.json",
            "manifest-files.checksum",
            "manifest-summary.checksum",
            "manifest-files.md5",
            "manifest-summary.md5");

    private final Engine engine;
    private final ExchangeTarget source;
    private final ImportRequest request;
    private final CreateTableRequest tableCreation;
    private final ImportErrorLog errors;
    private final Map<String, AttributeType> keyTypes = new HashMap<>();
    long processedItems;
    long processedBytes;
    long importedItems;

    ImportRun(Engine engine, ExchangeTarget source, ImportRequest request, ImportErrorLog errors) {
        this.engine = engine;
        this.source = source;
        this.request = request;
        this.errors = errors;
        this.tableCreation = ImportJobs.tableCreation(request);
        if (tableCreation.attributeDefinitions() != null) {
            for (CreateTableRequest.AttributeDefinitionInput d : tableCreation.attributeDefinitions()) {
                if (d.attributeType() != null && d.attributeType() != ScalarAttributeType.S) {
                    keyTypes.put(d.attributeName(), d.attributeType().attributeType());
                }
            }
        }
    }

    void run(Consumer<ImportRun> progress) throws IOException {
        String prefix = request.s3KeyPrefix() == null ? "" : request.s3KeyPrefix();
        List<String> keys = source.list(prefix, SOURCE_FILES_MAX);
        if (keys.isEmpty()) {
            throw new IOException("no source files under " + request.s3Bucket() + "/" + prefix);
        }
        Compression compression = request.inputCompressionType() == null
                ? Compression.NONE
                : Compression.valueOf(request.inputCompressionType());
        for (String key : keys) {
            String name = key.substring(key.lastIndexOf('/') + 1);
            if (key.endsWith("/") || EXPORT_METADATA.contains(name)) {
                continue;
            }
            byte[] file = source.get(key);
            processedBytes += file.length;
            try (Reader in =
                    new BufferedReader(new InputStreamReader(compression.open(file), StandardCharsets.UTF_8))) {
                if ("CSV".equals(request.inputFormat())) {
                    csv(key, in, progress);
                } else {
                    lines(
                            key,
                            (BufferedReader) in,
                            Objects.requireNonNull(
                                    request.lineFormat(), "ImportJobs.validate refused a format that names none"),
                            progress);
                }
            }
        }
    }

    private void lines(String key, BufferedReader in, ItemLineFormat format, Consumer<ImportRun> progress)
            throws IOException {
        String line;
        long index = 0;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            index++;
            try {
                put(key, index, format.read(line));
            } catch (IllegalArgumentException e) {
                processedItems++;
                errors.add(key, index, e.getMessage());
            }
            tell(progress);
        }
    }

    private void csv(String key, Reader in, Consumer<ImportRun> progress) throws IOException {
        char delimiter = request.csvDelimiter() == null ? ',' : request.csvDelimiter();
        CsvReader csv = new CsvReader(in, delimiter);
        List<String> header = request.csvHeaderList();
        if (header == null) {
            header = csv.next();
            if (header == null) {
                return;
            }
        }
        List<String> record;
        long index = 0;
        while ((record = csv.next()) != null) {
            if (record.size() == 1 && record.get(0).isEmpty()) {
                continue; // a blank line
            }
            index++;
            try {
                put(key, index, csvItem(header, record));
            } catch (IllegalArgumentException e) {
                processedItems++;
                errors.add(key, index, e.getMessage());
            }
            tell(progress);
        }
    }

    /** A CSV record as an item: key attributes of the table and its indexes take their defined types, all else S. */
    private Map<String, AttributeValue> csvItem(List<String> header, List<String> record) {
        if (record.size() > header.size()) {
            throw new IllegalArgumentException(
                    "the record has " + record.size() + " fields, the header " + header.size());
        }
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        for (int i = 0; i < record.size(); i++) {
            String value = record.get(i);
            if (value.isEmpty()) {
                continue; // an empty field is an absent attribute
            }
            AttributeType type = keyTypes.getOrDefault(header.get(i), AttributeType.S);
            item.put(
                    header.get(i),
                    switch (type) {
                        case N -> new AttributeValue.N(number(value));
                        case B -> new AttributeValue.B(base64(value));
                        default -> new AttributeValue.S(value);
                    });
        }
        return item;
    }

    private void put(String key, long index, Map<String, AttributeValue> item) {
        if (Thread.currentThread().isInterrupted()) {
            throw new java.util.concurrent.CancellationException("the engine is closing");
        }
        processedItems++;
        try {
            engine.items()
                    .putItem(new ItemRequests.PutItem(
                            tableCreation.tableName(), item, null, null, null, null, ItemRequests.Conditions.NONE));
            importedItems++;
        } catch (DynamoException e) {
            errors.add(key, index, e.code().shortName() + ": " + e.getMessage());
        }
    }

    private void tell(Consumer<ImportRun> progress) {
        if (processedItems % ExchangeService.PROGRESS_ITEMS == 0) {
            progress.accept(this);
        }
    }

    private static DynamoNumber number(String text) {
        try {
            return DynamoNumber.parse(text);
        } catch (DynamoException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static byte[] base64(String text) {
        return Base64.getDecoder().decode(text);
    }
}
