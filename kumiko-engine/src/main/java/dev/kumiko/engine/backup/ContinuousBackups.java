package dev.kumiko.engine.backup;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.RecoverySettings;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.changelog.ChangeLog;
import dev.kumiko.engine.check.TableNames;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.error.DynamoException;
import dev.kumiko.storage.Store;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Point-in-time recovery: UpdateContinuousBackups, DescribeContinuousBackups and
 * RestoreTableToPointInTime, and the base copies a restore starts from.
 *
 * <p>While recovery is on, every change of the table is recorded in the change log (with its new
 * image), whether or not a stream is enabled, and the trimmer keeps records back to the oldest base
 * still needed. A base is a copy of the table from one store snapshot, with the change-log sequence
 * below which every record is in the copy; one is taken when recovery is turned on and then every
 * {@code pitrBaseIntervalMillis}. Bases older than the newest one at or before the start of the
 * recovery period are dropped, and with them the records before it.
 */
public final class ContinuousBackups {
    static final long DAY_MILLIS = 86_400_000L;
    static final long RECOVERY_PERIOD_DAYS_MIN = 1;
    static final long RECOVERY_PERIOD_DAYS_MAX = RecoverySettings.RECOVERY_PERIOD_DAYS_DEFAULT;
    private static final String SPEC = "pointInTimeRecoverySpecification";

    private final Catalog catalog;
    private final Store store;
    private final ChangeLog changeLog;
    private final BackupStore backups;
    private final TableHistory history;
    private final Restorer restorer;
    private final JobRunner jobs;
    private final Clock clock;
    private final long baseIntervalMillis;

    ContinuousBackups(
            Catalog catalog,
            Store store,
            ChangeLog changeLog,
            BackupStore backups,
            TableHistory history,
            Restorer restorer,
            JobRunner jobs,
            Clock clock,
            long baseIntervalMillis) {
        this.catalog = catalog;
        this.store = store;
        this.changeLog = changeLog;
        this.backups = backups;
        this.history = history;
        this.restorer = restorer;
        this.jobs = jobs;
        this.clock = clock;
        this.baseIntervalMillis = baseIntervalMillis;
    }

    public BackupRequests.ContinuousBackups update(BackupRequests.UpdateContinuousBackups r) {
        Constraints c = new Constraints();
        c.notNull("tableName", r.tableName());
        c.notNull(SPEC + ".pointInTimeRecoveryEnabled", r.pointInTimeRecoveryEnabled());
        c.range(
                SPEC + ".recoveryPeriodInDays",
                r.recoveryPeriodInDays(),
                RECOVERY_PERIOD_DAYS_MIN,
                RECOVERY_PERIOD_DAYS_MAX);
        c.throwIfAny();
        Table t = table(r.tableName());
        if (t.descriptor().recovery().restoring()) {
            throw BackupErrors.continuousBackupsUnavailable(t.descriptor().tableName());
        }
        if (Boolean.TRUE.equals(r.pointInTimeRecoveryEnabled())) { // not null: checked above
            enable(t, r.recoveryPeriodInDays());
        } else {
            disable(t);
        }
        return describe(t);
    }

    public BackupRequests.ContinuousBackups describe(String tableNameOrArn) {
        return describe(table(tableNameOrArn));
    }

    private BackupRequests.ContinuousBackups describe(Table t) {
        TableDescriptor d = t.descriptor();
        if (!d.recovery().pitrEnabled()) {
            return new BackupRequests.ContinuousBackups(false, 0, 0, 0);
        }
        TableHistory.Window w = history.window(d);
        return new BackupRequests.ContinuousBackups(
                true, d.recovery().recoveryPeriodInDays(), w.earliestMillis(), w.latestMillis());
    }

    private synchronized void enable(Table t, @Nullable Long periodDays) {
        boolean was = t.descriptor().recovery().pitrEnabled();
        long now = clock.nowMillis();
        catalog.modify(
                t,
                d -> d.withRecovery(d.recovery()
                        .withPitr(
                                true,
                                periodDays != null
                                        ? periodDays.intValue()
                                        : was
                                                ? d.recovery().recoveryPeriodInDays()
                                                : RecoverySettings.RECOVERY_PERIOD_DAYS_DEFAULT,
                                was ? d.recovery().pitrEnabledMillis() : now)));
        if (!was) {
            // Every writer that began before recovery was on has ended: from here on each change is logged.
            store.awaitTransactions();
            takeBase(t);
        }
    }

    private synchronized void disable(Table t) {
        catalog.modify(
                t, d -> d.withRecovery(d.recovery().withPitr(false, d.recovery().recoveryPeriodInDays(), 0)));
        for (BackupRecord b : backups.bases(t.descriptor().id())) {
            backups.drop(b);
        }
    }

    public TableDescription restoreToPointInTime(RequestContext ctx, BackupRequests.RestoreToPointInTime r) {
        Constraints c = new Constraints();
        if (c.notNull("targetTableName", r.targetTableName())) {
            c.tableName("targetTableName", r.targetTableName());
        }
        if (r.sourceTableName() != null) {
            c.tableName("sourceTableName", r.sourceTableName());
        }
        c.throwIfAny();
        if (r.sourceTableName() == null && r.sourceTableArn() == null) {
            // UNVERIFIED wording.
            throw DynamoException.validation("Either SourceTableArn or SourceTableName must be specified");
        }
        boolean latest = Boolean.TRUE.equals(r.useLatestRestorableTime());
        if (latest == (r.restoreDateTimeMillis() != null)) {
            // UNVERIFIED wording.
            throw DynamoException.validation(
                    latest
                            ? "Only one of RestoreDateTime or UseLatestRestorableTime can be " + "specified"
                            : "RestoreDateTime must be specified when UseLatestRestorableTime is false");
        }
        Table source = history.recovering(
                r.sourceTableName() != null
                        ? r.sourceTableName()
                        : TableNames.resolve(r.sourceTableArn(), "sourceTableArn"));
        TableDescriptor d = source.descriptor();
        TableHistory.Window w = history.window(d);
        Long requested = r.restoreDateTimeMillis(); // given exactly when not latest, checked above
        long point = requested == null ? w.latestMillis() : requested;
        TableHistory.checkInside(w, point);
        RecoverySettings.RestoreSummary summary =
                new RecoverySettings.RestoreSummary(null, ctx.tableArn(d.tableName()), point, true);
        return restorer.start(
                ctx,
                d,
                r.targetTableName(),
                r.overrides() == null ? BackupRequests.Overrides.NONE : r.overrides(),
                summary,
                null,
                d.id(),
                point);
    }

    private Table table(String tableNameOrArn) {
        String name = TableNames.resolve(tableNameOrArn, "tableName");
        Table t = catalog.get(name);
        if (t == null) {
            throw BackupErrors.tableNotFound(name);
        }
        return t;
    }

    /**
     * Takes a base copy of t now: on a job thread, reads the change log's visible bound (every record
     * below it is committed, so in the snapshot that follows), opens a snapshot, records the base and
     * copies it; returns once the base is recorded.
     */
    synchronized void takeBase(Table t) {
        TableDescriptor d = t.descriptor();
        int copyId = catalog.allocateId();
        jobs.<BackupRecord>submitAndAwaitStart("recovery base of table " + d.tableName(), started -> {
            long startedMillis = clock.nowMillis();
            long floor = changeLog.visibleBound(d);
            try (TableCopier.Source source = TableCopier.open(store, d.id())) {
                long created = clock.nowMillis();
                List<BackupRecord> existing = backups.bases(d.id());
                if (!existing.isEmpty()) {
                    created =
                            Math.max(created, existing.get(existing.size() - 1).createdMillis() + 1);
                }
                BackupRecord base = new BackupRecord(
                        "pitr-" + d.id() + "-" + created,
                        BackupRecord.Kind.BASE,
                        BackupRecord.Status.CREATING,
                        "pitr",
                        "",
                        d,
                        created,
                        startedMillis,
                        floor,
                        copyId,
                        0,
                        0,
                        jobs.owner());
                backups.put(base);
                started.accept(base);
                copyBase(base, source);
            }
        });
    }

    private void copyBase(BackupRecord b, TableCopier.Source source) {
        TableCopier.Counts n = TableCopier.copy(
                store, source, b.copyId(), "recovery base of table " + b.table().tableName(), jobs::pause);
        synchronized (this) {
            if (backups.bases(b.table().id()).stream().noneMatch(x -> x.id().equals(b.id()))) {
                backups.drop(b); // recovery was turned off meanwhile
                return;
            }
            backups.put(b.completed(n.items(), n.bytes()));
        }
    }

    /**
     * One round of the background task: a new base for each covered table whose newest is older
     * than the interval, and the bases no longer needed dropped.
     */
    synchronized void tick() {
        long now = clock.nowMillis();
        Set<Integer> covered = new HashSet<>();
        for (Table t : catalog.tables()) {
            TableDescriptor d = t.descriptor();
            if (!d.recovery().pitrEnabled()) {
                continue;
            }
            covered.add(d.id());
            List<BackupRecord> bases = backups.bases(d.id());
            if (bases.isEmpty() || bases.get(bases.size() - 1).createdMillis() <= now - baseIntervalMillis) {
                takeBase(t);
            }
            dropOlderThanNeeded(bases, now - d.recovery().recoveryPeriodInDays() * DAY_MILLIS);
        }
        for (BackupRecord b : backups.allBases()) {
            if (!covered.contains(b.table().id())) {
                backups.drop(b); // the table was deleted, or recovery turned off by another engine
            }
        }
    }

    /** Keeps the newest available base at or before periodStart and every newer one. */
    private void dropOlderThanNeeded(List<BackupRecord> bases, long periodStart) {
        int keepFrom = -1;
        for (int i = 0; i < bases.size(); i++) {
            BackupRecord b = bases.get(i);
            if (b.createdMillis() <= periodStart && b.status() == BackupRecord.Status.AVAILABLE) {
                keepFrom = i;
            }
        }
        for (int i = 0; i < keepFrom; i++) {
            backups.drop(bases.get(i));
        }
    }

    /** Drops the bases whose copy was cut off by a restart (the next tick takes a new one). */
    void dropOrphaned() {
        for (BackupRecord b : backups.allBases()) {
            if (b.status() == BackupRecord.Status.CREATING && JobRunner.orphaned(b.owner())) {
                backups.drop(b);
            }
        }
    }

    /** The oldest change-log time table t's recovery still needs (Long.MAX_VALUE: none). */
    long keepFrom(Table t) {
        TableDescriptor d = t.descriptor();
        if (!d.recovery().pitrEnabled()) {
            return Long.MAX_VALUE;
        }
        long oldest = d.recovery().pitrEnabledMillis();
        List<BackupRecord> bases = backups.bases(d.id());
        if (!bases.isEmpty()) {
            oldest = bases.get(0).startedMillis();
        }
        return oldest - TableHistory.RECORD_ORDER_SLACK_MILLIS;
    }
}
