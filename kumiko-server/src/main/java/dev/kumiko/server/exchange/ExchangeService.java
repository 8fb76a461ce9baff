package dev.kumiko.server.exchange;

import dev.kumiko.engine.Engine;
import dev.kumiko.engine.base.DaemonThreads;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.exchange.ExchangeJobs;
import dev.kumiko.error.DynamoException;
import dev.kumiko.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Exports and imports of one engine: starts each as a background job, answers Describe and List
 * from the job records in the store, and at start-up recovers jobs whose engine stopped while they
 * ran (marks them FAILED; an import's half-filled table is deleted), so that no job is left half
 * done. Attached to the engine ({@link #of}) and closed with it.
 */
public final class ExchangeService implements AutoCloseable {
    /** Jobs running at once on one engine; more wait their turn (still IN_PROGRESS). */
    static final int JOB_THREADS = 2;
    /** How often a job logs and saves its progress, in items. */
    static final long PROGRESS_ITEMS = 10_000;
    /** Exports IN_PROGRESS at once per account, DynamoDB's documented limit. */
    static final int EXPORTS_IN_PROGRESS_MAX = 300;
    /** Imports IN_PROGRESS at once per account, DynamoDB's documented limit. */
    static final int IMPORTS_IN_PROGRESS_MAX = 50;
    /** List calls' page sizes: DynamoDB's maximum and default. */
    static final int PAGE_SIZE_MAX = 25;

    final Engine engine;
    final ExchangeSettings settings;
    final ExecutorService jobs;
    final ExportJobs exports;
    final ImportJobs imports;

    private ExchangeService(Engine engine, ExchangeSettings settings) {
        this.engine = engine;
        this.settings = settings;
        this.jobs = Executors.newFixedThreadPool(JOB_THREADS, new DaemonThreads("kumiko-exchange"));
        this.exports = new ExportJobs(this);
        this.imports = new ImportJobs(this);
    }

    /** Attaches the service with these settings to engine (the server does so at start). */
    public static ExchangeService start(Engine engine, ExchangeSettings settings) {
        ExchangeService s =
                engine.exchange().attachment(ExchangeService.class, () -> new ExchangeService(engine, settings));
        s.recover();
        return s;
    }

    /** The engine's service, with default settings if the server gave none. */
    public static ExchangeService of(Engine engine) {
        return start(engine, ExchangeSettings.defaults());
    }

    public ExportJobs exports() {
        return exports;
    }

    public ImportJobs imports() {
        return imports;
    }

    /** Why the id of a job orphan() answered is known: orphan() found the job by it. */
    private static final String ORPHAN_ID = "orphan() looked the job up by its id";

    /** Marks FAILED every IN_PROGRESS job that no engine runs any more (its engine stopped or died). */
    void recover() {
        for (byte[] bytes : engine.exchange().jobs().list(ExchangeJobs.EXPORT)) {
            JobRecord job = orphan(ExchangeJobs.EXPORT, bytes, "ExportArn", "ExportStatus", "export");
            if (job != null) {
                exports.fail(
                        job,
                        Objects.requireNonNull(JobIds.fromArn(job.string("ExportArn"), "export"), ORPHAN_ID),
                        "The export was interrupted: the server stopped while it ran");
            }
        }
        for (byte[] bytes : engine.exchange().jobs().list(ExchangeJobs.IMPORT)) {
            JobRecord job = orphan(ExchangeJobs.IMPORT, bytes, "ImportArn", "ImportStatus", "import");
            if (job != null) {
                imports.fail(
                        job,
                        Objects.requireNonNull(JobIds.fromArn(job.string("ImportArn"), "import"), ORPHAN_ID),
                        "The import was interrupted: the server stopped while it ran");
            }
        }
    }

    /**
     * The job's current record if it is IN_PROGRESS with no runner, else null. A runner writes its
     * final record before it lets go of the job, so the record is read again once the job is seen
     * without a runner: a job that just finished is not taken for an orphan.
     */
    private @Nullable JobRecord orphan(byte kind, byte[] listed, String arnMember, String statusMember, String word) {
        JobRecord job = JobRecord.decode(listed);
        String id = JobIds.fromArn(job.string(arnMember), word);
        // A record without a readable ARN names no job whose lease could be taken.
        if (id == null
                || !JobRecord.IN_PROGRESS.equals(job.string(statusMember))
                || !engine.exchange().orphaned(id)) {
            return null;
        }
        byte[] now = engine.exchange().jobs().get(kind, id);
        JobRecord current = now == null ? null : JobRecord.decode(now);
        return current != null && JobRecord.IN_PROGRESS.equals(current.string(statusMember)) ? current : null;
    }

    /** Records of one kind, optionally of one table, after the id in nextToken, at most pageSize. */
    List<JobRecord> page(
            byte kind, @Nullable String tableArn, @Nullable String nextToken, int pageSize, String arnMember) {
        List<JobRecord> out = new ArrayList<>();
        String after =
                nextToken == null ? null : JobIds.fromArn(nextToken, kind == ExchangeJobs.EXPORT ? "export" : "import");
        if (nextToken != null && after == null) {
            throw DynamoException.validation("Invalid NextToken");
        }
        for (byte[] bytes : engine.exchange().jobs().list(kind)) {
            JobRecord job = JobRecord.decode(bytes);
            String id = Objects.requireNonNull(
                    JobIds.fromArn(job.string(arnMember), kind == ExchangeJobs.EXPORT ? "export" : "import"),
                    "a job record holds its own ARN");
            if (after != null && id.compareTo(after) <= 0) {
                continue;
            }
            if (tableArn != null
                    && !JobIds.tableName(tableArn).equals(JobIds.tableNameOrNull(job.string("TableArn")))) {
                continue;
            }
            if (out.size() == pageSize + 1) {
                break;
            }
            out.add(job);
        }
        return out;
    }

    int inProgress(byte kind, String statusMember) {
        int n = 0;
        for (byte[] bytes : engine.exchange().jobs().list(kind)) {
            if (JobRecord.IN_PROGRESS.equals(JobRecord.decode(bytes).string(statusMember))) {
                n++;
            }
        }
        return n;
    }

    static int pageSize(@Nullable Long given, String member) {
        if (given == null) {
            return PAGE_SIZE_MAX;
        }
        if (given < 1 || given > PAGE_SIZE_MAX) {
            throw DynamoException.validation("1 validation error detected: Value '" + given + "' at '" + member
                    + "' failed to satisfy constraint: Member must have value "
                    + (given < 1 ? "greater than or equal to 1" : "less than or equal to " + PAGE_SIZE_MAX));
        }
        return given.intValue();
    }

    static RequestContext context(String region) {
        return new RequestContext(region);
    }

    static DynamoException limitExceeded(String what, int max) {
        // Wording not captured from DynamoDB; the type and the limit are documented.
        return new DynamoException(
                ErrorCode.LIMIT_EXCEEDED,
                "There is a limit of " + max + " " + what + " in progress at once; wait for one to finish");
    }

    static void log(String line) {
        System.out.println("kumiko: " + line);
    }

    @Override
    public void close() {
        jobs.shutdownNow();
        try {
            jobs.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
