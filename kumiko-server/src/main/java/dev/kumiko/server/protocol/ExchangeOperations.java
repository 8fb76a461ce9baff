package dev.kumiko.server.protocol;

import static dev.kumiko.server.protocol.DataPlaneOperations.dynamodb;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kumiko.error.DynamoException;
import dev.kumiko.server.exchange.ExchangeService;
import dev.kumiko.server.exchange.ExportRequest;
import dev.kumiko.server.exchange.ImportRequest;
import dev.kumiko.server.exchange.ItemLineFormat;
import dev.kumiko.server.exchange.JobRecord;
import dev.kumiko.server.json.JsonNumber;
import dev.kumiko.server.policy.ResourceChecks;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Registrations of exports to S3 (ExportTableToPointInTime, DescribeExport, ListExports) and imports
 * from S3 (ImportTable, DescribeImport, ListImports); the jobs run in {@link ExchangeService}.
 * Authorization: an export on its table's ARN, Describe on the export's or import's ARN
 * ({@code table/T/export/ID}, {@code table/T/import/ID}), ImportTable on the table it creates. The
 * jobs know no wire: a request brings its line format ({@link #lineFormat}), and a job's record is
 * written out here ({@link #members}).
 */
final class ExchangeOperations {
    private static final Set<String> EXPORT_SUMMARY = Set.of("ExportArn", "ExportStatus", "ExportType");
    private static final Set<String> IMPORT_SUMMARY = Set.of(
            "ImportArn",
            "ImportStatus",
            "TableArn",
            "S3BucketSource",
            "CloudWatchLogGroupArn",
            "InputFormat",
            "StartTime",
            "EndTime");

    private record ListJobs(
            @Nullable String tableArn,
            @Nullable Long pageSize,
            @Nullable String nextToken) {}

    /** This file's operations, in the order the table lists them. */
    static final List<String> NAMES = List.of(
            "ExportTableToPointInTime",
            "DescribeExport",
            "ListExports",
            "ImportTable",
            "DescribeImport",
            "ListImports");

    /**
     * The registration of one of {@link #NAMES}, made when the table first looks the operation up:
     * its lambdas are linked then, so a process links only the operations it serves.
     */
    static Operation<?, ?> operation(String name) {
        return switch (name) {
            case "ExportTableToPointInTime" ->
                dynamodb(
                        name,
                        ExchangeOperations::exportRequest,
                        (e, r, c) -> ExchangeService.of(e).exports().export(c.engine(), r),
                        (g, t, c) -> description(g, "ExportDescription", t),
                        (r, f) -> ResourceChecks.arn("ExportTableToPointInTime", r.tableArn(), f));
            case "DescribeExport" ->
                dynamodb(
                        name,
                        DataPlaneOperations.member("ExportArn"),
                        (e, r, c) -> ExchangeService.of(e).exports().describe(r),
                        (g, t, c) -> description(g, "ExportDescription", t),
                        (r, f) -> ResourceChecks.arn("DescribeExport", r, f));
            case "ListExports" ->
                dynamodb(
                        name,
                        body -> new ListJobs(
                                Fields.string(body, "TableArn"),
                                Fields.longValue(body, "MaxResults"),
                                Fields.string(body, "NextToken")),
                        (e, r, c) -> page(
                                ExchangeService.of(e).exports().list(r.tableArn(), r.pageSize(), r.nextToken()),
                                r.pageSize()),
                        (g, t, c) -> list(g, "ExportSummaries", t, EXPORT_SUMMARY, "ExportArn"),
                        (r, f) -> r.tableArn() == null
                                ? ResourceChecks.account("ListExports")
                                : ResourceChecks.arn("ListExports", r.tableArn(), f));
            case "ImportTable" ->
                dynamodb(
                        name,
                        ExchangeOperations::importRequest,
                        (e, r, c) -> ExchangeService.of(e).imports().importTable(c.engine(), r),
                        (g, t, c) -> description(g, "ImportTableDescription", t),
                        (r, f) -> ResourceChecks.table(
                                "ImportTable",
                                r.tableCreation() == null
                                        ? null
                                        : r.tableCreation().tableName(),
                                f));
            case "DescribeImport" ->
                dynamodb(
                        name,
                        DataPlaneOperations.member("ImportArn"),
                        (e, r, c) -> ExchangeService.of(e).imports().describe(r),
                        (g, t, c) -> description(g, "ImportTableDescription", t),
                        (r, f) -> ResourceChecks.arn("DescribeImport", r, f));
            case "ListImports" ->
                dynamodb(
                        name,
                        body -> new ListJobs(
                                Fields.string(body, "TableArn"),
                                Fields.longValue(body, "PageSize"),
                                Fields.string(body, "NextToken")),
                        (e, r, c) -> page(
                                ExchangeService.of(e).imports().list(r.tableArn(), r.pageSize(), r.nextToken()),
                                r.pageSize()),
                        (g, t, c) -> list(g, "ImportSummaryList", t, IMPORT_SUMMARY, "ImportArn"),
                        (r, f) -> r.tableArn() == null
                                ? ResourceChecks.account("ListImports")
                                : ResourceChecks.arn("ListImports", r.tableArn(), f));
            default -> throw new IllegalArgumentException("not an export or import operation: " + name);
        };
    }

    private ExchangeOperations() {}

    /** A page of jobs and whether more follow. */
    private record Page(List<JobRecord> jobs, boolean more) {}

    private static Page page(List<JobRecord> fetched, @Nullable Long pageSize) {
        int size = pageSize == null ? 25 : pageSize.intValue();
        return fetched.size() > size ? new Page(fetched.subList(0, size), true) : new Page(fetched, false);
    }

    private static ExportRequest exportRequest(Map<String, Object> b) {
        Map<String, Object> spec = Fields.object(b, "IncrementalExportSpecification");
        ExportRequest.IncrementalSpec incremental = spec == null
                ? null
                : new ExportRequest.IncrementalSpec(
                        epochMillis(spec, "ExportFromTime"),
                        epochMillis(spec, "ExportToTime"),
                        Fields.string(spec, "ExportViewType"));
        return new ExportRequest(
                Fields.string(b, "TableArn"),
                epochMillis(b, "ExportTime"),
                Fields.string(b, "ClientToken"),
                Fields.string(b, "S3Bucket"),
                Fields.string(b, "S3BucketOwner"),
                Fields.string(b, "S3Prefix"),
                Fields.string(b, "S3SseAlgorithm"),
                Fields.string(b, "S3SseKmsKeyId"),
                Fields.string(b, "ExportFormat"),
                Fields.string(b, "ExportType"),
                incremental,
                lineFormat(Objects.requireNonNullElse(Fields.string(b, "ExportFormat"), "DYNAMODB_JSON")));
    }

    /**
     * The line format a format member names: DynamoDB JSON, the wire's own item format, or Ion. Null
     * for CSV, which is read on its own, and for a name that the job's validation rejects.
     */
    private static @Nullable ItemLineFormat lineFormat(@Nullable String format) {
        return switch (String.valueOf(format)) {
            case "DYNAMODB_JSON" -> new JsonItemLines();
            case "ION" -> ItemLineFormat.ion();
            default -> null;
        };
    }

    /** A timestamp member (epoch seconds, possibly fractional) in epoch milliseconds; null when absent. */
    private static @Nullable Long epochMillis(Map<String, Object> b, String member) {
        Object time = b.get(member);
        Long millis = time instanceof JsonNumber n
                ? new BigDecimal(n.text()).movePointRight(3).longValue()
                : null;
        if (time != null && millis == null && !(time instanceof dev.kumiko.server.json.JsonNull)) {
            throw DynamoException.serialization("NUMBER_VALUE cannot be converted to Date");
        }
        return millis;
    }

    private static ImportRequest importRequest(Map<String, Object> b) {
        Map<String, Object> source = Fields.object(b, "S3BucketSource");
        Map<String, Object> options = Fields.object(b, "InputFormatOptions");
        Map<String, Object> csv = options == null ? null : Fields.object(options, "Csv");
        String delimiter = csv == null ? null : Fields.string(csv, "Delimiter");
        if (delimiter != null && delimiter.length() != 1) {
            throw DynamoException.validation("InputFormatOptions.Csv.Delimiter must be one character");
        }
        Map<String, Object> creation = Fields.object(b, "TableCreationParameters");
        return new ImportRequest(
                Fields.string(b, "ClientToken"),
                source == null ? null : Fields.string(source, "S3Bucket"),
                source == null ? null : Fields.string(source, "S3KeyPrefix"),
                source == null ? null : Fields.string(source, "S3BucketOwner"),
                Fields.string(b, "InputFormat"),
                delimiter == null ? null : delimiter.charAt(0),
                csv == null ? null : Fields.strings(csv, "HeaderList"),
                Fields.string(b, "InputCompressionType"),
                creation == null ? null : ControlPlaneRequests.createTableUnchecked(creation),
                creation == null ? null : tableCreationViolations(creation),
                source,
                options,
                creation,
                lineFormat(Fields.string(b, "InputFormat")),
                creation == null ? null : Fields.objects(creation, "VectorIndexes", VectorRequestReader::index));
    }

    /** TableCreationParameters' member violations, answered where CreateTable would answer them. */
    private static @Nullable DynamoException tableCreationViolations(Map<String, Object> creation) {
        try {
            TableMembers.createTable(creation);
            return null;
        } catch (DynamoException e) {
            return e;
        }
    }

    private static void description(JsonGenerator g, String field, JobRecord job) throws IOException {
        g.writeObjectFieldStart(field);
        members(g, job, null);
        g.writeEndObject();
    }

    /** Writes the job's public members (only those named in only, unless it is null) into an open object. */
    private static void members(JsonGenerator g, JobRecord job, @Nullable Set<String> only) throws IOException {
        for (Map.Entry<String, Object> e : job.publicMembers().entrySet()) {
            String name = e.getKey();
            if (only != null && !only.contains(name)) {
                continue;
            }
            if (JobRecord.TIMES.contains(name)) {
                JsonOut.epochSeconds(g, name, job.number(name));
            } else {
                g.writeFieldName(name);
                JobRecord.tree(g, e.getValue());
            }
        }
    }

    private static void list(JsonGenerator g, String field, Page page, Set<String> members, String arnMember)
            throws IOException {
        g.writeArrayFieldStart(field);
        for (JobRecord job : page.jobs()) {
            g.writeStartObject();
            members(g, job, members);
            g.writeEndObject();
        }
        g.writeEndArray();
        if (page.more()) {
            g.writeStringField(
                    "NextToken", page.jobs().get(page.jobs().size() - 1).string(arnMember));
        }
    }
}
