package dev.kumiko.server.exchange;

import dev.kumiko.engine.backup.TableHistory;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.engine.exchange.ExchangeJobs;
import dev.kumiko.engine.exchange.ExportSource;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/** ExportTableToPointInTime, DescribeExport and ListExports. */
public final class ExportJobs {
    /**
     * How far before now an ExportTime may be and still be served from a snapshot taken now: the
     * request's own ExportTime, rounded to seconds by the SDKs.
     */
    static final long EXPORT_TIME_NOW_MILLIS = 1_000;

    static final List<String> FORMATS = List.of("DYNAMODB_JSON", "ION");
    static final List<String> TYPES = List.of("FULL_EXPORT", "INCREMENTAL_EXPORT");
    /** The job record's IncrementalExportSpecification, and Kumiko's own copy of its period in milliseconds. */
    static final String INCREMENTAL_SPEC = "IncrementalExportSpecification";

    static final String FROM_MILLIS = "_ExportFromMillis";
    static final String TO_MILLIS = "_ExportToMillis";
    static final String VIEW_TYPE = "_ExportViewType";

    private final ExchangeService service;

    ExportJobs(ExchangeService service) {
        this.service = service;
    }

    /** Validates, takes the snapshot now, records the job IN_PROGRESS and runs it in the background. */
    public JobRecord export(RequestContext ctx, ExportRequest r) {
        validate(r);
        String tableName = JobIds.tableName(Objects.requireNonNull(r.tableArn(), VALIDATED));
        TableDescription table = service.engine.control().describeTable(ctx, tableName);
        long now = service.engine.exchange().nowMillis();
        if (r.exportTimeMillis() != null && r.exportTimeMillis() > now) {
            throw new DynamoException(ErrorCode.INVALID_EXPORT_TIME, "Export time is in the future");
        }
        if (IncrementalExport.TYPE.equals(r.exportType())) {
            return exportIncremental(r, table, tableName, now);
        }
        Long exportTime = r.exportTimeMillis();
        ExportSource pastSource =
                exportTime != null && now - exportTime > EXPORT_TIME_NOW_MILLIS ? history(tableName, exportTime) : null;
        JobRecord existing = sameToken(r);
        if (existing != null) {
            return existing;
        }
        ExchangeTarget target = admit(r);
        String id = JobIds.next(now);
        ExportSource source =
                pastSource != null ? pastSource : service.engine.exchange().snapshot(tableName);
        JobRecord job = record(r, table, id, source.asOfMillis());
        return start(
                job,
                id,
                new ExportRun(target, job, id, lineFormat(r)),
                source.asOfMillis(),
                (exportRun, progress) -> exportRun.run(source, progress));
    }

    /** An INCREMENTAL_EXPORT: the period checked against the table's recovery window, then run like a full one. */
    private JobRecord exportIncremental(ExportRequest r, TableDescription table, String tableName, long now) {
        TableHistory history = service.engine.backups().history();
        IncrementalExport.Period period = IncrementalExport.period(
                Objects.requireNonNull(r.incremental(), "validate(r) refused an incremental export without it"),
                history.window(tableName),
                now,
                service.settings.incrementalPeriodMinMillis());
        JobRecord existing = sameToken(r);
        if (existing != null) {
            return existing;
        }
        ExchangeTarget target = admit(r);
        String id = JobIds.next(now);
        JobRecord job = record(r, table, id, now)
                .with("ExportTime", null)
                .with(INCREMENTAL_SPEC, period.specification())
                .with(FROM_MILLIS, period.fromMillis())
                .with(TO_MILLIS, period.toMillis())
                .with(VIEW_TYPE, period.viewType());
        String hashKey = table.descriptor().hashKeyName();
        String rangeKey = table.descriptor().rangeKeyName();
        return start(
                job,
                id,
                new ExportRun(target, job, id, lineFormat(r)),
                null,
                (exportRun, progress) -> exportRun.write(
                        sink -> IncrementalExport.lines(
                                history, tableName, hashKey, rangeKey, period, exportRun.format(), sink),
                        period.toMillis(),
                        progress));
    }

    /** The target of a new export, if the limit on exports in progress lets it start. */
    private ExchangeTarget admit(ExportRequest r) {
        ExchangeTarget target = service.settings.target(Objects.requireNonNull(r.s3Bucket(), VALIDATED));
        if (service.inProgress(ExchangeJobs.EXPORT, "ExportStatus") >= ExchangeService.EXPORTS_IN_PROGRESS_MAX) {
            throw ExchangeService.limitExceeded("exports", ExchangeService.EXPORTS_IN_PROGRESS_MAX);
        }
        return target;
    }

    /** Records job IN_PROGRESS and runs work in the background. */
    private JobRecord start(JobRecord job, String id, ExportRun exportRun, @Nullable Long exportTimeMillis, Work work) {
        byte[] started = job.encode();
        service.engine.exchange().jobs().put(ExchangeJobs.EXPORT, id, started);
        service.engine.exchange().started(id);
        service.jobs.execute(() -> run(job, id, exportRun, exportTimeMillis, work));
        // The answer is decoded from the record as stored, not the job's own record, which changes on
        // the thread that runs it (see ImportJobs.importTable).
        return JobRecord.decode(started);
    }

    public JobRecord describe(String exportArn) {
        if (exportArn == null) {
            throw DynamoException.validation("1 validation error detected: Value null at 'exportArn' failed to satisfy "
                    + "constraint: Member must not be null");
        }
        String id = JobIds.fromArn(exportArn, "export");
        byte[] bytes = id == null ? null : service.engine.exchange().jobs().get(ExchangeJobs.EXPORT, id);
        if (bytes == null) {
            throw new DynamoException(ErrorCode.EXPORT_NOT_FOUND, "Export not found: " + exportArn);
        }
        return JobRecord.decode(bytes);
    }

    /** One page of exports (pageSize + 1 records when there are more). */
    public List<JobRecord> list(@Nullable String tableArn, @Nullable Long maxResults, @Nullable String nextToken) {
        return service.page(
                ExchangeJobs.EXPORT,
                tableArn,
                nextToken,
                ExchangeService.pageSize(maxResults, "maxResults"),
                "ExportArn");
    }

    /**
     * The table as of a past second, from point-in-time recovery's history: DynamoDB exports from
     * PITR, so the table must have it on (PointInTimeRecoveryUnavailableException) and the time must
     * lie in its window. The window's message is UNVERIFIED (no capture of DynamoDB's wording).
     */
    private ExportSource history(String tableName, long exportTimeMillis) {
        TableHistory history = service.engine.backups().history();
        TableHistory.Window window = history.window(tableName);
        if (exportTimeMillis < window.earliestMillis() || exportTimeMillis > window.latestMillis()) {
            throw new DynamoException(
                    ErrorCode.INVALID_EXPORT_TIME,
                    "The specified ExportTime is outside of the point in time recovery window");
        }
        return new ExportSource() {
            @Override
            public long asOfMillis() {
                return exportTimeMillis;
            }

            @Override
            public void items(
                    java.util.function.Consumer<java.util.Map<String, dev.kumiko.model.AttributeValue>> sink) {
                history.forEachItemAt(tableName, exportTimeMillis, sink);
            }
        };
    }

    /** What a job writes, given its ExportRun and a progress listener. */
    @FunctionalInterface
    private interface Work {
        ExportRun.Result write(ExportRun exportRun, LongConsumer progress) throws java.io.IOException;
    }

    /** Runs work as job id; exportTimeMillis (null for an incremental export) is recorded at the end. */
    private void run(JobRecord job, String id, ExportRun exportRun, @Nullable Long exportTimeMillis, Work work) {
        try {
            ExchangeService.log("export " + id + " of " + job.string("TableArn") + " started");
            ExportRun.Result result = work.write(exportRun, items -> {
                ExchangeService.log("export " + id + ": " + items + " items");
                service.engine
                        .exchange()
                        .jobs()
                        .put(
                                ExchangeJobs.EXPORT,
                                id,
                                job.with("ItemCount", items).encode());
                service.engine.exchange().renew(id);
            });
            job.with("ExportStatus", JobRecord.COMPLETED)
                    .with("EndTime", System.currentTimeMillis())
                    .with("ExportTime", exportTimeMillis)
                    .with("ItemCount", result.itemCount())
                    .with("BilledSizeBytes", result.billedSizeBytes())
                    .with("ExportManifest", result.manifestKey());
            service.engine.exchange().jobs().put(ExchangeJobs.EXPORT, id, job.encode());
            ExchangeService.log("export " + id + " completed: " + result.itemCount() + " items");
        } catch (CancellationException stopping) {
            // The engine is closing: the job is recovered (marked FAILED) at the next start.
        } catch (Exception e) {
            fail(job, id, String.valueOf(e.getMessage()));
        } finally {
            service.engine.exchange().finished(id);
        }
    }

    void fail(JobRecord job, String id, String message) {
        job.with("ExportStatus", JobRecord.FAILED)
                .with("EndTime", System.currentTimeMillis())
                .with("FailureCode", "ExportFailed")
                .with("FailureMessage", message);
        service.engine.exchange().jobs().put(ExchangeJobs.EXPORT, id, job.encode());
        ExchangeService.log("export " + id + " failed: " + message);
    }

    /** The reason a member validate(r) checks is known to be present. */
    private static final String VALIDATED = "validate(r) refused a request without it";

    /** The line format of a validated request: validate(r) refused a format that names none. */
    private static ItemLineFormat lineFormat(ExportRequest r) {
        return Objects.requireNonNull(r.lineFormat(), "validate(r) refused an unknown ExportFormat");
    }

    private static void validate(ExportRequest r) {
        if (r.tableArn() == null) {
            throw DynamoException.validation("1 validation error detected: Value null at 'tableArn' failed to "
                    + "satisfy constraint: Member must not be null");
        }
        if (r.s3Bucket() == null) {
            throw DynamoException.validation("1 validation error detected: Value null at 's3Bucket' failed to "
                    + "satisfy constraint: Member must not be null");
        }
        enumValue(r.exportFormat(), "exportFormat", FORMATS);
        enumValue(r.exportType(), "exportType", TYPES);
        IncrementalExport.validateMembers(r);
    }

    static void enumValue(@Nullable String value, String member, List<String> allowed) {
        if (value != null && !allowed.contains(value)) {
            throw DynamoException.validation("1 validation error detected: Value '" + value + "' at '" + member
                    + "' failed to satisfy constraint: Member must satisfy enum value set: ["
                    + String.join(", ", allowed) + "]");
        }
    }

    /** A retry with the same ClientToken answers the first export; other parameters are a conflict. */
    private @Nullable JobRecord sameToken(ExportRequest r) {
        if (r.clientToken() == null) {
            return null;
        }
        for (byte[] bytes : service.engine.exchange().jobs().list(ExchangeJobs.EXPORT)) {
            JobRecord job = JobRecord.decode(bytes);
            if (r.clientToken().equals(job.string("ClientToken"))) {
                if (Objects.equals(
                                JobIds.tableName(Objects.requireNonNull(r.tableArn(), VALIDATED)),
                                JobIds.tableNameOrNull(job.string("TableArn")))
                        && Objects.equals(r.s3Bucket(), job.string("S3Bucket"))
                        && Objects.equals(r.s3Prefix(), job.string("S3Prefix"))) {
                    return job;
                }
                throw new DynamoException(
                        ErrorCode.EXPORT_CONFLICT,
                        "There was a conflict when writing to the "
                                + "specified S3 bucket: an export with ClientToken " + r.clientToken()
                                + " and other parameters exists");
            }
        }
        return null;
    }

    private static JobRecord record(ExportRequest r, TableDescription table, String id, long exportTimeMillis) {
        JobRecord job = new JobRecord(new LinkedHashMap<>());
        job.with("ExportArn", table.tableArn() + "/export/" + id)
                .with("ExportStatus", JobRecord.IN_PROGRESS)
                .with("StartTime", exportTimeMillis)
                .with("TableArn", table.tableArn())
                .with("TableId", table.descriptor().tableId())
                .with("ExportTime", exportTimeMillis)
                .with("ClientToken", r.clientToken())
                .with("S3Bucket", r.s3Bucket())
                .with("S3BucketOwner", r.s3BucketOwner())
                .with("S3Prefix", r.s3Prefix())
                .with("S3SseAlgorithm", r.s3SseAlgorithm() == null ? "AES256" : r.s3SseAlgorithm())
                .with("S3SseKmsKeyId", r.s3SseKmsKeyId())
                .with("ExportFormat", r.exportFormat() == null ? "DYNAMODB_JSON" : r.exportFormat())
                .with("ExportType", r.exportType() == null ? "FULL_EXPORT" : r.exportType());
        return job;
    }
}
