package dev.kumiko.server.exchange;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * An import's errors, one JSON object per line, as DynamoDB writes them to its CloudWatch log group
 * {@code /aws-dynamodb/imports}: the file and line of the item ({@code itemS3Pointer}), the import's
 * ARN and why the item was refused. Kumiko writes the group as a directory, one file per import
 * ({@code <dir>/aws-dynamodb/imports/<ImportId>.log}). At most {@link #ENTRIES_MAX} entries are
 * written; every error is counted.
 */
final class ImportErrorLog implements AutoCloseable {
    static final int ENTRIES_MAX = 10_000;

    private final Path file;
    private final @Nullable String importArn;
    private final @Nullable String bucket;
    /** Opened at the first entry. */
    private @Nullable BufferedWriter out;

    long count;

    ImportErrorLog(Path dir, String importId, @Nullable String importArn, @Nullable String bucket) {
        this.file = dir.resolve("aws-dynamodb").resolve("imports").resolve(importId + ".log");
        this.importArn = importArn;
        this.bucket = bucket;
    }

    Path file() {
        return file;
    }

    void add(String key, long itemIndex, @Nullable String message) {
        count++;
        if (count > ENTRIES_MAX) {
            return;
        }
        try {
            if (out == null) {
                Files.createDirectories(file.getParent());
                out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            }
            out.write(ExportRun.json(g -> {
                g.writeObjectFieldStart("itemS3Pointer");
                g.writeStringField("bucket", bucket);
                g.writeStringField("key", key);
                g.writeNumberField("itemIndex", itemIndex);
                g.writeEndObject();
                g.writeStringField("importArn", importArn);
                g.writeArrayFieldStart("errorMessages");
                g.writeString(message);
                g.writeEndArray();
            }));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        if (out != null) {
            out.close();
        }
    }
}
