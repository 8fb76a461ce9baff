package dev.kumiko.engine.backup;

import dev.kumiko.catalog.Catalog;
import dev.kumiko.catalog.RecoverySettings;
import dev.kumiko.catalog.Table;
import dev.kumiko.catalog.TableDescriptor;
import dev.kumiko.codec.EncodedItem;
import dev.kumiko.engine.base.Clock;
import dev.kumiko.engine.base.RequestContext;
import dev.kumiko.engine.control.TableDescription;
import dev.kumiko.engine.item.ItemWriter;
import dev.kumiko.model.AttributeValue;
import dev.kumiko.model.ItemSize;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Restores write a new table: it enters the catalog at once (CREATING, with a RestoreSummary whose
 * RestoreInProgress is true), then a job writes its items in key order through the engine's one
 * write path (so index entries and statistics are built as for any write), saving its progress
 * after each batch, and finally marks the table ACTIVE. A restart resumes the job from its progress;
 * a job that fails drops the half-restored table, so no table is left half done.
 */
final class Restorer {
    private final Catalog catalog;
    private final Store store;
    private final ItemWriter writer;
    private final BackupStore backups;
    private final TableHistory history;
    private final JobRunner jobs;
    private final Clock clock;

    Restorer(
            Catalog catalog,
            Store store,
            ItemWriter writer,
            BackupStore backups,
            TableHistory history,
            JobRunner jobs,
            Clock clock) {
        this.catalog = catalog;
        this.store = store;
        this.writer = writer;
        this.backups = backups;
        this.history = history;
        this.jobs = jobs;
        this.clock = clock;
    }

    /**
     * Creates the target table from source (overridden) and starts the job that fills it from a
     * backup (backupId) or a table's history (sourceTableId at pointMillis).
     */
    TableDescription start(
            RequestContext ctx,
            TableDescriptor source,
            String targetName,
            BackupRequests.Overrides o,
            RecoverySettings.RestoreSummary summary,
            @Nullable String backupId,
            int sourceTableId,
            long pointMillis) {
        if (catalog.get(targetName) != null) {
            throw BackupErrors.tableAlreadyExists(targetName);
        }
        RestoreOverrides.Applied a = RestoreOverrides.apply(source, o, catalog::allocateId);
        long now = clock.nowMillis();
        TableDescriptor target = source.restoredAs(
                catalog.allocateId(),
                targetName,
                UUID.randomUUID().toString(),
                now,
                a.billingMode(),
                a.throughput(),
                a.lsis(),
                a.gsis(),
                a.sse(),
                RecoverySettings.NONE.withRestore(summary));
        RestoreJob job = new RestoreJob(
                target.id(), targetName, backupId, sourceTableId, pointMillis, null, 0, jobs.owner(), now);
        backups.put(job);
        if (!catalog.create(target)) {
            backups.remove(job);
            throw BackupErrors.tableAlreadyExists(targetName);
        }
        // Before the first item is written, so the restore's writes fill them (docs/vector-search.md).
        dev.kumiko.engine.vector.VectorIndexes.copyToRestoredTable(
                store, source.id(), target.id(), target.billingMode());
        jobs.submit("restoring table " + targetName, () -> run(job));
        return new TableDescription(target, "CREATING", 0, 0, ctx.tableArn(targetName), ctx.region(), Map.of());
    }

    /** Resumes a job cut off by a restart: this engine takes it over. */
    void resume(RestoreJob job) {
        RestoreJob mine = job.ownedBy(jobs.owner(), clock.nowMillis());
        backups.put(mine);
        log("resuming the restore of table " + job.targetTableName() + " after " + job.itemsWritten() + " items");
        jobs.submit("restoring table " + job.targetTableName(), () -> run(mine));
    }

    private void run(RestoreJob job) {
        Table target = catalog.get(job.targetTableName());
        if (target == null || target.descriptor().id() != job.targetTableId()) {
            backups.remove(job); // the table was deleted meanwhile: nothing left to restore into
            return;
        }
        try {
            Batch batch = new Batch(target, job);
            sourceItems(job, batch::add);
            batch.flush();
            finish(target, batch.job);
            log("restored table " + job.targetTableName() + ": " + batch.job.itemsWritten() + " items");
        } catch (JobRunner.Stopped stopped) {
            throw stopped;
        } catch (RuntimeException e) {
            log("restoring table " + job.targetTableName() + " failed, dropping it: " + e);
            Table now = catalog.get(job.targetTableName());
            if (now != null && now.descriptor().id() == job.targetTableId()) {
                catalog.drop(job.targetTableName());
            }
            backups.remove(job);
            throw e;
        }
    }

    private void sourceItems(RestoreJob job, TableHistory.RawItemVisitor visitor) {
        if (job.backupId() != null) {
            BackupRecord b = backups.backup(job.backupId());
            if (b == null || b.status() != BackupRecord.Status.AVAILABLE) {
                throw new IllegalStateException("backup " + job.backupId() + " is gone");
            }
            history.itemsOf(b.copyId(), job.resumeAfter(), visitor);
            return;
        }
        Table source = null;
        for (Table t : catalog.tables()) {
            if (t.descriptor().id() == job.sourceTableId()) {
                source = t;
            }
        }
        if (source == null) {
            throw new IllegalStateException("the source table of the restore was deleted");
        }
        history.itemsAt(source.descriptor(), job.pointMillis(), job.resumeAfter(), visitor);
    }

    private void finish(Table target, RestoreJob job) {
        catalog.modify(target, d -> {
            RecoverySettings.RestoreSummary restore = d.recovery().restore();
            // A restoring table has its summary; a descriptor without one has nothing to finish.
            return restore == null ? d : d.withRecovery(d.recovery().withRestore(restore.finished()));
        });
        backups.remove(job);
    }

    /** Items gathered for one store transaction on the target table. */
    private final class Batch {
        private final Table target;
        private final List<byte[]> keys = new ArrayList<>(TableCopier.BATCH_ITEMS);
        private final List<Map<String, AttributeValue>> items = new ArrayList<>(TableCopier.BATCH_ITEMS);
        private byte @Nullable [] lastRest;
        RestoreJob job;

        Batch(Table target, RestoreJob job) {
            this.target = target;
            this.job = job;
        }

        void add(byte[] rest, byte[] item) {
            keys.add(BackupKeys.itemKey(target.descriptor().id(), rest));
            // Left in its bytes: the writer stores them as they are and reads the few attributes its
            // index entries need, so a restore decodes no item whole.
            items.add(EncodedItem.of(item));
            lastRest = rest;
            if (keys.size() == TableCopier.BATCH_ITEMS) {
                flush();
            }
        }

        void flush() {
            if (keys.isEmpty()) {
                return;
            }
            jobs.pause();
            byte[][] k = keys.toArray(new byte[0][]);
            try (Transaction txn = store.begin(k, TransactionMode.WAIT)) {
                byte[][] old = txn.getAll(k);
                List<ItemWriter.Change> changes = new ArrayList<>(k.length);
                for (int i = 0; i < k.length; i++) {
                    Map<String, AttributeValue> item = items.get(i);
                    // The replaced item stays in its bytes: the writer plans its index entries from them.
                    changes.add(new ItemWriter.Change(
                            target, k[i], old[i] == null ? null : EncodedItem.of(old[i]), item, ItemSize.of(item)));
                }
                writer.commitAll(txn, changes);
            }
            long written = job.itemsWritten() + k.length;
            job = job.progressed(lastRest, written, clock.nowMillis());
            backups.put(job);
            TableCopier.logProgress("restoring table " + job.targetTableName(), written);
            keys.clear();
            items.clear();
        }
    }

    private static void log(String message) {
        System.getLogger(Restorer.class.getName()).log(System.Logger.Level.INFO, message);
    }
}
