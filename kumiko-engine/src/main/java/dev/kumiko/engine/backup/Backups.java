package dev.kumiko.engine.backup;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.RecoverySettings;
import dev.kumiko.catalog.Table;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.Constraints;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.storage.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * On-demand backups: CreateBackup, DescribeBackup, ListBackups, DeleteBackup and
 * RestoreTableFromBackup. A backup is a copy of the table's items from one store snapshot (so it
 * is consistent and taken without blocking writers), made by a background job and kept in the
 * store's backup space until deleted; its descriptor keeps the table's key schema, indexes and
 * settings, and a restore rebuilds the index entries from the items.
 */
public final class Backups {
    static final int BACKUP_NAME_LENGTH_MIN = 3;
    static final int BACKUP_NAME_LENGTH_MAX = 255;
    static final long LIST_LIMIT_MAX = 100;
    /** The API Reference's length constraints of BackupArn. */
    static final int BACKUP_ARN_LENGTH_MIN = 37;

    static final int BACKUP_ARN_LENGTH_MAX = 1024;
    static final List<String> BACKUP_TYPES = List.of("USER", "SYSTEM", "AWS_BACKUP", "ALL");

    private final Catalog catalog;
    private final Store store;
    private final BackupStore backups;
    private final Restorer restorer;
    private final JobRunner jobs;
    private final Clock clock;

    Backups(Catalog catalog, Store store, BackupStore backups, Restorer restorer, JobRunner jobs, Clock clock) {
        this.catalog = catalog;
        this.store = store;
        this.backups = backups;
        this.restorer = restorer;
        this.jobs = jobs;
        this.clock = clock;
    }

    public BackupRequests.BackupDescription createBackup(RequestContext ctx, BackupRequests.CreateBackup r) {
        Constraints c = new Constraints();
        if (c.notNull("tableName", r.tableName())) {
            c.tableName("tableName", r.tableName());
        }
        if (c.notNull("backupName", r.backupName())) {
            c.length("backupName", r.backupName(), BACKUP_NAME_LENGTH_MIN, BACKUP_NAME_LENGTH_MAX);
            // BackupName shares TableName's pattern in the API model.
            c.pattern("backupName", r.backupName(), Constraints.TABLE_NAME_PATTERN);
        }
        c.throwIfAny();
        Table t = catalog.get(r.tableName());
        if (t == null) {
            throw BackupErrors.tableNotFound(r.tableName());
        }
        if (t.descriptor().recovery().restoring()) {
            throw BackupErrors.tableInUse(r.tableName());
        }
        int copyId = catalog.allocateId();
        BackupRecord b = jobs.submitAndAwaitStart("backup of table " + r.tableName(), started -> {
            try (TableCopier.Source source =
                    TableCopier.open(store, t.descriptor().id())) {
                long created = clock.nowMillis();
                BackupRecord pending = new BackupRecord(
                        newId(created),
                        BackupRecord.Kind.USER,
                        BackupRecord.Status.CREATING,
                        r.backupName(),
                        ctx.region(),
                        t.descriptor(),
                        created,
                        created,
                        0,
                        copyId,
                        t.stats().itemCount(),
                        t.stats().sizeBytes(),
                        jobs.owner());
                backups.put(pending);
                started.accept(pending);
                copy(pending, source);
            }
        });
        return describe(b);
    }

    private void copy(BackupRecord b, TableCopier.Source source) {
        TableCopier.Counts n = TableCopier.copy(store, source, b.copyId(), "backup " + b.arn(), jobs::pause);
        if (backups.backup(b.id()) == null) {
            backups.drop(b); // deleted meanwhile
            return;
        }
        backups.put(b.completed(n.items(), n.bytes()));
    }

    public BackupRequests.BackupDescription describeBackup(String backupArn) {
        return describe(existing(backupArn));
    }

    public BackupRequests.BackupDescription deleteBackup(String backupArn) {
        BackupRecord b = existing(backupArn);
        if (b.status() == BackupRecord.Status.CREATING) {
            throw BackupErrors.backupInUse("Backup is being created: " + backupArn);
        }
        for (RestoreJob j : backups.restores()) {
            if (b.id().equals(j.backupId())) {
                throw BackupErrors.backupInUse("Backup is being restored: " + backupArn);
            }
        }
        backups.drop(b);
        return describe(b.withStatus(BackupRecord.Status.DELETED));
    }

    public BackupRequests.BackupPage listBackups(BackupRequests.ListBackups r) {
        Constraints c = new Constraints();
        c.tableName("tableName", r.tableName());
        c.range("limit", r.limit(), 1, LIST_LIMIT_MAX);
        if (r.backupType() != null) {
            c.enumValue("backupType", r.backupType(), BACKUP_TYPES);
        }
        c.throwIfAny();
        int max = r.limit() == null ? (int) LIST_LIMIT_MAX : r.limit().intValue();
        String startId = Arns.backupId(r.exclusiveStartBackupArn());
        List<BackupRequests.BackupDescription> page = new ArrayList<>();
        for (BackupRecord b : backups.backups()) {
            if ((startId != null && b.id().compareTo(startId) <= 0) || !listed(b, r)) {
                continue;
            }
            if (page.size() == max) {
                return new BackupRequests.BackupPage(page, page.get(max - 1).backupArn());
            }
            page.add(describe(b));
        }
        return new BackupRequests.BackupPage(page, null);
    }

    private static boolean listed(BackupRecord b, BackupRequests.ListBackups r) {
        boolean userType = r.backupType() == null || "USER".equals(r.backupType()) || "ALL".equals(r.backupType());
        return userType
                && b.status() != BackupRecord.Status.FAILED
                && (r.tableName() == null || r.tableName().equals(b.table().tableName()))
                && (r.timeRangeLowerMillis() == null || b.createdMillis() >= r.timeRangeLowerMillis())
                && (r.timeRangeUpperMillis() == null || b.createdMillis() < r.timeRangeUpperMillis());
    }

    public TableDescription restoreTableFromBackup(RequestContext ctx, BackupRequests.RestoreFromBackup r) {
        Constraints c = new Constraints();
        if (c.notNull("targetTableName", r.targetTableName())) {
            c.tableName("targetTableName", r.targetTableName());
        }
        c.notNull("backupArn", r.backupArn());
        c.throwIfAny();
        BackupRecord b = existing(r.backupArn());
        if (b.status() == BackupRecord.Status.CREATING) {
            throw BackupErrors.backupInUse("Backup is being created: " + r.backupArn());
        }
        RecoverySettings.RestoreSummary summary =
                new RecoverySettings.RestoreSummary(b.arn(), b.tableArn(), b.createdMillis(), true);
        return restorer.start(
                ctx,
                b.table(),
                r.targetTableName(),
                r.overrides() == null ? BackupRequests.Overrides.NONE : r.overrides(),
                summary,
                b.id(),
                0,
                0);
    }

    /** The backup an ARN names; BackupNotFoundException when none (or its copy failed). */
    private BackupRecord existing(String arn) {
        Constraints c = new Constraints();
        if (c.notNull("backupArn", arn)) {
            c.length("backupArn", arn, BACKUP_ARN_LENGTH_MIN, BACKUP_ARN_LENGTH_MAX);
        }
        c.throwIfAny();
        String id = Arns.backupId(arn);
        BackupRecord b = id == null ? null : backups.backup(id);
        if (b == null
                || b.status() == BackupRecord.Status.FAILED
                || !b.table().tableName().equals(Arns.tableOfBackup(arn))) {
            throw BackupErrors.backupNotFound(arn);
        }
        return b;
    }

    static BackupRequests.BackupDescription describe(BackupRecord b) {
        return new BackupRequests.BackupDescription(
                b.arn(),
                b.name(),
                b.sizeBytes(),
                b.status().name(),
                "USER",
                b.createdMillis(),
                b.tableArn(),
                b.itemCount(),
                b.table());
    }

    /** DynamoDB's backup id: the creation time in milliseconds (14 digits) and 8 random hex digits. */
    private static String newId(long nowMillis) {
        return String.format(
                "%014d-%08x", nowMillis, ThreadLocalRandom.current().nextInt());
    }

    /** Marks the backups cut off by a restart FAILED and drops their partial copies. */
    void failOrphaned() {
        for (BackupRecord b : backups.backups()) {
            if (b.status() == BackupRecord.Status.CREATING && JobRunner.orphaned(b.owner())) {
                System.getLogger(Backups.class.getName())
                        .log(
                                System.Logger.Level.WARNING,
                                "backup " + b.arn() + " was cut off before it was complete: marked FAILED");
                backups.drop(b);
                backups.put(b.withStatus(BackupRecord.Status.FAILED));
            }
        }
    }
}
