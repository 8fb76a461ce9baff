package dev.kumiko.engine.backup;

import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Reads and writes the backup space's records (backups, bases, restore jobs) and drops copies. */
final class BackupStore {
    private final Store store;

    BackupStore(Store store) {
        this.store = store;
    }

    Store store() {
        return store;
    }

    @Nullable
    BackupRecord backup(String id) {
        byte[] v = store.get(BackupKeys.backup(id));
        return v == null ? null : BackupRecord.decode(v);
    }

    void put(BackupRecord r) {
        store.apply(new WriteBatch().put(keyOf(r), r.encode()));
    }

    /** Every on-demand backup, oldest first (ids begin with the creation time). */
    List<BackupRecord> backups() {
        return scan(BackupKeys.backupsStart(), BackupKeys.backupsEnd());
    }

    /** A table's recovery bases, oldest first. */
    List<BackupRecord> bases(int tableId) {
        return scan(BackupKeys.basesStart(tableId), BackupKeys.basesEnd(tableId));
    }

    List<BackupRecord> allBases() {
        return scan(BackupKeys.allBasesStart(), BackupKeys.allBasesEnd());
    }

    /** Removes a record and its copied items. */
    void drop(BackupRecord r) {
        store.deleteRange(BackupKeys.copyStart(r.copyId()), BackupKeys.copyEnd(r.copyId()));
        store.apply(new WriteBatch().delete(keyOf(r)));
    }

    @Nullable
    RestoreJob restore(int targetTableId) {
        byte[] v = store.get(BackupKeys.restore(targetTableId));
        return v == null ? null : RestoreJob.decode(v);
    }

    void put(RestoreJob j) {
        store.apply(new WriteBatch().put(BackupKeys.restore(j.targetTableId()), j.encode()));
    }

    void remove(RestoreJob j) {
        store.apply(new WriteBatch().delete(BackupKeys.restore(j.targetTableId())));
    }

    List<RestoreJob> restores() {
        List<RestoreJob> out = new ArrayList<>();
        try (Cursor c = store.scan(BackupKeys.restoresStart(), BackupKeys.restoresEnd(), false)) {
            while (c.next()) {
                out.add(RestoreJob.decode(c.value()));
            }
        }
        return out;
    }

    private static byte[] keyOf(BackupRecord r) {
        return r.kind() == BackupRecord.Kind.USER
                ? BackupKeys.backup(r.id())
                : BackupKeys.base(r.table().id(), r.createdMillis());
    }

    private List<BackupRecord> scan(byte[] start, byte[] end) {
        List<BackupRecord> out = new ArrayList<>();
        try (Cursor c = store.scan(start, end, false)) {
            while (c.next()) {
                out.add(BackupRecord.decode(c.value()));
            }
        }
        return out;
    }
}
