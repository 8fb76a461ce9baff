package dev.kumiko.server.exchange;

import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.CreateTableRequest;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.engine.exchange.ExchangeJobs;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;

/** ImportTable, DescribeImport and ListImports. */
public final class ImportJobs {
    static final List<String> FORMATS = List.of("DYNAMODB_JSON", "ION", "CSV");
    static final List<String> COMPRESSIONS = List.of("GZIP", "ZSTD", "NONE");

    private final ExchangeService service;

    ImportJobs(ExchangeService service) {
        this.service = service;
    }

    /** Validates, creates the table with its indexes, records the job IN_PROGRESS and fills the table in the background. */
    public JobRecord importTable(RequestContext ctx, ImportRequest r) {
        validate(r);
        JobRecord existing = sameToken(r);
        if (existing != null) {
            return existing;
        }
        ExchangeTarget source = service.settings.target(Objects.requireNonNull(r.s3Bucket(), VALIDATED));
        if (service.inProgress(ExchangeJobs.IMPORT, "ImportStatus") >= ExchangeService.IMPORTS_IN_PROGRESS_MAX) {
            throw ExchangeService.limitExceeded("imports", ExchangeService.IMPORTS_IN_PROGRESS_MAX);
        }
        if (r.tableCreationViolations() != null) {
            throw r.tableCreationViolations();
        }
        // Vector indexes are made with the table, before the items: each imported item is indexed as it is put.
        TableDescription table = service.engine.vectors().createTable(ctx, tableCreation(r), r.vectorIndexes());
        long now = service.engine.exchange().nowMillis();
        String id = JobIds.next(now);
        JobRecord job = record(r, table, id, now, ctx.region());
        byte[] started = job.encode();
        service.engine.exchange().jobs().put(ExchangeJobs.IMPORT, id, started);
        service.engine.exchange().started(id);
        service.jobs.execute(() -> run(job, id, source, r));
        // The answer is decoded from the record as stored: the job's own record changes on the thread
        // that runs it, and writing that one out here failed with a ConcurrentModificationException
        // (or showed a job already COMPLETED).
        return JobRecord.decode(started);
    }

    public JobRecord describe(String importArn) {
        if (importArn == null) {
            throw DynamoException.validation("1 validation error detected: Value null at 'importArn' failed to satisfy "
                    + "constraint: Member must not be null");
        }
        String id = JobIds.fromArn(importArn, "import");
        byte[] bytes = id == null ? null : service.engine.exchange().jobs().get(ExchangeJobs.IMPORT, id);
        if (bytes == null) {
            throw new DynamoException(ErrorCode.IMPORT_NOT_FOUND, "Import not found: " + importArn);
        }
        return JobRecord.decode(bytes);
    }

    public List<JobRecord> list(@Nullable String tableArn, @Nullable Long pageSize, @Nullable String nextToken) {
        return service.page(
                ExchangeJobs.IMPORT, tableArn, nextToken, ExchangeService.pageSize(pageSize, "pageSize"), "ImportArn");
    }

    /** Where an import's error log is written. */
    public java.nio.file.Path errorLog(String importId) {
        return new ImportErrorLog(service.settings.importLogDir(), importId, "", "").file();
    }

    private void run(JobRecord job, String id, ExchangeTarget source, ImportRequest r) {
        ImportErrorLog errors =
                new ImportErrorLog(service.settings.importLogDir(), id, job.string("ImportArn"), r.s3Bucket());
        ImportRun run = new ImportRun(service.engine, source, r, errors);
        try (errors) {
            ExchangeService.log("import " + id + " into " + tableCreation(r).tableName() + " started");
            run.run(p -> {
                ExchangeService.log("import " + id + ": " + p.processedItems + " items, " + errors.count + " errors");
                counts(job, run, errors);
                service.engine.exchange().jobs().put(ExchangeJobs.IMPORT, id, job.encode());
                service.engine.exchange().renew(id);
            });
            counts(job, run, errors)
                    .with("ImportStatus", JobRecord.COMPLETED)
                    .with("EndTime", System.currentTimeMillis());
            service.engine.exchange().jobs().put(ExchangeJobs.IMPORT, id, job.encode());
            ExchangeService.log("import " + id + " completed: " + run.importedItems + " items imported, " + errors.count
                    + " errors" + (errors.count > 0 ? " (log: " + errors.file() + ")" : ""));
        } catch (CancellationException stopping) {
            // The engine is closing: the job is recovered (marked FAILED, its table deleted) at the next start.
        } catch (Exception e) {
            counts(job, run, errors);
            fail(job, id, String.valueOf(e.getMessage()));
        } finally {
            service.engine.exchange().finished(id);
        }
    }

    private static JobRecord counts(JobRecord job, ImportRun run, ImportErrorLog errors) {
        return job.with("ProcessedItemCount", run.processedItems)
                .with("ProcessedSizeBytes", run.processedBytes)
                .with("ImportedItemCount", run.importedItems)
                .with("ErrorCount", errors.count);
    }

    /** Marks the import FAILED and deletes its table, which would otherwise hold part of the data. */
    void fail(JobRecord job, String id, String message) {
        String tableArn = Objects.requireNonNull(job.string("TableArn"), "record(...) wrote it");
        try {
            service.engine.control().deleteTable(new RequestContext(region(tableArn)), JobIds.tableName(tableArn));
        } catch (DynamoException goneAlready) {
            // Deleted by its user meanwhile: nothing half done is left.
        }
        job.with("ImportStatus", JobRecord.FAILED)
                .with("EndTime", System.currentTimeMillis())
                .with("FailureCode", "ImportFailed")
                .with("FailureMessage", message);
        service.engine.exchange().jobs().put(ExchangeJobs.IMPORT, id, job.encode());
        ExchangeService.log("import " + id + " failed: " + message);
    }

    private static String region(String arn) {
        String[] parts = arn.split(":");
        return parts.length > 3 ? parts[3] : "us-east-1";
    }

    /** The reason a member validate(r) checks is known to be present. */
    private static final String VALIDATED = "validate(r) refused a request without it";

    static CreateTableRequest tableCreation(ImportRequest r) {
        return Objects.requireNonNull(r.tableCreation(), VALIDATED);
    }

    private static void validate(ImportRequest r) {
        if (r.s3Bucket() == null) {
            throw DynamoException.validation("1 validation error detected: Value null at 's3BucketSource.s3Bucket' "
                    + "failed to satisfy constraint: Member must not be null");
        }
        if (r.inputFormat() == null) {
            throw DynamoException.validation("1 validation error detected: Value null at 'inputFormat' failed to "
                    + "satisfy constraint: Member must not be null");
        }
        if (r.tableCreation() == null) {
            throw DynamoException.validation("1 validation error detected: Value null at 'tableCreationParameters' "
                    + "failed to satisfy constraint: Member must not be null");
        }
        ExportJobs.enumValue(r.inputFormat(), "inputFormat", FORMATS);
        ExportJobs.enumValue(r.inputCompressionType(), "inputCompressionType", COMPRESSIONS);
        if ((r.csvDelimiter() != null || r.csvHeaderList() != null) && !"CSV".equals(r.inputFormat())) {
            throw DynamoException.validation("InputFormatOptions.Csv is only valid with InputFormat CSV");
        }
    }

    private @Nullable JobRecord sameToken(ImportRequest r) {
        if (r.clientToken() == null) {
            return null;
        }
        for (byte[] bytes : service.engine.exchange().jobs().list(ExchangeJobs.IMPORT)) {
            JobRecord job = JobRecord.decode(bytes);
            if (r.clientToken().equals(job.string("ClientToken"))) {
                // TableCreationParameters may lack its TableName here: its violations are answered later.
                if (Objects.equals(tableCreation(r).tableName(), JobIds.tableNameOrNull(job.string("TableArn")))) {
                    return job;
                }
                throw new DynamoException(
                        ErrorCode.IMPORT_CONFLICT,
                        "There was a conflict when importing from the "
                                + "specified S3 source: an import with ClientToken " + r.clientToken()
                                + " and other parameters exists");
            }
        }
        return null;
    }

    private static JobRecord record(ImportRequest r, TableDescription table, String id, long now, String region) {
        JobRecord job = new JobRecord(new LinkedHashMap<>());
        job.with("ImportArn", table.tableArn() + "/import/" + id)
                .with("ImportStatus", JobRecord.IN_PROGRESS)
                .with("TableArn", table.tableArn())
                .with("TableId", table.descriptor().tableId())
                .with("ClientToken", r.clientToken())
                .with("S3BucketSource", r.sourceJson())
                .with("ErrorCount", 0L)
                .with(
                        "CloudWatchLogGroupArn",
                        "arn:aws:logs:" + region + ":" + RequestContext.ACCOUNT_ID
                                + ":log-group:/aws-dynamodb/imports:*")
                .with("InputFormat", r.inputFormat())
                .with("InputFormatOptions", r.formatOptionsJson())
                .with("InputCompressionType", r.inputCompressionType() == null ? "NONE" : r.inputCompressionType())
                .with("TableCreationParameters", r.tableCreationJson())
                .with("StartTime", now)
                .with("ProcessedSizeBytes", 0L)
                .with("ProcessedItemCount", 0L)
                .with("ImportedItemCount", 0L);
        return job;
    }
}
