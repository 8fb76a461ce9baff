package dev.kumiko.server.exchange;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.engine.exchange.ExportSource;
import dev.kumiko.server.json.JsonTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.zip.GZIPOutputStream;
import org.jspecify.annotations.Nullable;

/**
 * Writes one export in DynamoDB's layout under {@code prefix/AWSDynamoDB/ExportId/}: an empty
 * {@code _started}, gzip'd data files {@code data/NAME.json.gz} (or {@code .ion.gz}) of one item per
 * line, then {@code manifest-files.json} (one line per data file: itemCount, md5Checksum, etag,
 * dataFileS3Key) and last {@code manifest-summary.json}, each with a {@code .checksum} file (the
 * manifest's MD5 in hex). The summary is written last: a reader that finds it finds a complete export.
 */
final class ExportRun {
    /** Items per data file, so that one file stays a few MB and a reader can work on files in parallel. */
    static final int DATA_FILE_ITEMS_MAX = 100_000;

    static final String MANIFEST_VERSION = "2020-06-30";

    record Result(long itemCount, long billedSizeBytes, String manifestKey) {}

    private final ExchangeTarget target;
    private final JobRecord job;
    private final String folder;
    private final ItemLineFormat format;
    private final List<String> fileLines = new ArrayList<>();
    /** The data file being filled, and its compressor; both null between files. */
    private @Nullable ByteArrayOutputStream buffer;

    private @Nullable GZIPOutputStream gzip;
    private long fileItems;
    private long items;
    private long bytes;

    ExportRun(ExchangeTarget target, JobRecord job, String exportId, ItemLineFormat format) {
        this.target = target;
        this.job = job;
        String prefix = job.string("S3Prefix");
        this.folder = (prefix == null || prefix.isEmpty() ? "" : prefix.endsWith("/") ? prefix : prefix + "/")
                + "AWSDynamoDB/" + exportId + "/";
        this.format = format;
    }

    /** Writes every item of source and the manifests; progress is told the item count now and then. */
    Result run(ExportSource source, LongConsumer progress) throws IOException {
        return write(sink -> source.items(item -> sink.accept(format.write(item))), source.asOfMillis(), progress);
    }

    /** The format lines are written in (items, or the changes of an incremental export). */
    ItemLineFormat format() {
        return format;
    }

    /**
     * Writes each line that lines hands out (an item or, incremental, a change) and the manifests; exportTimeMillis
     * goes into the summary of a full export.
     */
    Result write(Consumer<Consumer<String>> lines, long exportTimeMillis, LongConsumer progress) throws IOException {
        target.put(folder + "_started", new byte[0]);
        try {
            lines.accept(line -> {
                try {
                    add(line);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                if (items % ExchangeService.PROGRESS_ITEMS == 0) {
                    progress.accept(items);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        flush(true);
        String manifestFiles = String.join("", fileLines);
        put("manifest-files.json", manifestFiles.getBytes(StandardCharsets.UTF_8));
        put("manifest-summary.json", summary(exportTimeMillis));
        return new Result(items, bytes, folder + "manifest-summary.json");
    }

    private void add(String text) throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new java.util.concurrent.CancellationException("the engine is closing");
        }
        if (gzip == null) {
            buffer = new ByteArrayOutputStream();
            gzip = new GZIPOutputStream(buffer);
        }
        byte[] line = (text + "\n").getBytes(StandardCharsets.UTF_8);
        gzip.write(line);
        bytes += line.length;
        items++;
        fileItems++;
        if (fileItems >= DATA_FILE_ITEMS_MAX) {
            flush(false);
        }
    }

    /** Writes the data file being filled; at the end, an empty one if there was none (as DynamoDB does). */
    private void flush(boolean last) throws IOException {
        ByteArrayOutputStream filled = buffer;
        GZIPOutputStream zip = gzip;
        if (zip == null || filled == null) {
            if (!(last && fileLines.isEmpty())) {
                return;
            }
            filled = new ByteArrayOutputStream();
            zip = new GZIPOutputStream(filled);
        }
        zip.close();
        byte[] file = filled.toByteArray();
        String key = folder + "data/" + randomName() + format.fileExtension() + ".gz";
        target.put(key, file);
        byte[] md5 = md5(file);
        fileLines.add(json(g -> {
                    g.writeNumberField("itemCount", fileItems);
                    g.writeStringField("md5Checksum", Base64.getEncoder().encodeToString(md5));
                    g.writeStringField("etag", HexFormat.of().formatHex(md5));
                    g.writeStringField("dataFileS3Key", key);
                })
                + "\n");
        gzip = null;
        buffer = null;
        fileItems = 0;
    }

    private byte[] summary(long exportTimeMillis) {
        return json(g -> {
                    g.writeStringField("version", MANIFEST_VERSION);
                    g.writeStringField("exportArn", job.string("ExportArn"));
                    g.writeStringField("startTime", iso(job.number("StartTime")));
                    g.writeStringField("endTime", iso(System.currentTimeMillis()));
                    g.writeStringField("tableArn", job.string("TableArn"));
                    g.writeStringField("tableId", job.string("TableId"));
                    if (job.members.get(ExportJobs.INCREMENTAL_SPEC) == null) {
                        g.writeStringField("exportTime", iso(exportTimeMillis));
                    } else {
                        // UNVERIFIED member names: the incremental period in the summary, as in the description.
                        g.writeStringField("exportFromTime", iso(job.number(ExportJobs.FROM_MILLIS)));
                        g.writeStringField("exportToTime", iso(job.number(ExportJobs.TO_MILLIS)));
                        g.writeStringField("exportViewType", job.string(ExportJobs.VIEW_TYPE));
                    }
                    g.writeStringField("s3Bucket", job.string("S3Bucket"));
                    g.writeStringField("s3Prefix", job.string("S3Prefix"));
                    g.writeStringField("s3SseAlgorithm", job.string("S3SseAlgorithm"));
                    g.writeStringField("s3SseKmsKeyId", job.string("S3SseKmsKeyId"));
                    g.writeStringField("manifestFilesS3Key", folder + "manifest-files.json");
                    g.writeNumberField("billedSizeBytes", bytes);
                    g.writeNumberField("itemCount", items);
                    g.writeStringField("outputFormat", job.string("ExportFormat"));
                    g.writeStringField("exportType", job.string("ExportType"));
                })
                .getBytes(StandardCharsets.UTF_8);
    }

    private void put(String name, byte[] content) throws IOException {
        target.put(folder + name, content);
        target.put(
                folder + name.replace(".json", ".checksum"),
                HexFormat.of().formatHex(md5(content)).getBytes(StandardCharsets.UTF_8));
    }

    static String iso(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }

    private static String randomName() {
        String alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        StringBuilder b = new StringBuilder();
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int i = 0; i < 26; i++) {
            b.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return b.toString().toLowerCase(Locale.ROOT);
    }

    static byte[] md5(byte[] content) {
        try {
            return MessageDigest.getInstance("MD5").digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    }

    interface Members {
        void write(JsonGenerator g) throws IOException;
    }

    static String json(Members members) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JsonTree.factory().createGenerator(out)) {
            g.writeStartObject();
            members.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
