package dev.kumiko.engine.replication;

import dev.kumiko.storage.Cursor;
import dev.kumiko.storage.Store;
import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.WriteBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/** This region's replica sets, one per global table, in the store (ReplicationKeys). */
final class Registry {
    /** A bound on how many global tables one step of the shipper looks at. */
    static final int TABLES_MAX = 10_000;

    private final Store store;

    Registry(Store store) {
        this.store = store;
    }

    @Nullable
    ReplicaSet get(String tableName) {
        byte[] bytes = store.get(ReplicationKeys.set(tableName));
        return bytes == null ? null : ReplicaSet.decode(tableName, bytes);
    }

    List<ReplicaSet> all() {
        List<ReplicaSet> out = new ArrayList<>();
        try (Cursor c = store.scan(ReplicationKeys.setsStart(), ReplicationKeys.setsEnd(), false)) {
            while (out.size() < TABLES_MAX && c.next()) {
                out.add(ReplicaSet.decode(ReplicationKeys.tableNameOfSet(c.key()), c.value()));
            }
        }
        return out;
    }

    /**
     * Keeps set; a current set of one region (or none) is no global table any more and is removed,
     * as is a legacy set of none.
     */
    void put(ReplicaSet set) {
        byte[] key = ReplicationKeys.set(set.tableName());
        store.apply(gone(set) ? new WriteBatch().delete(key) : new WriteBatch().put(key, set.encode()));
    }

    /** Whether set no longer makes a global table. */
    static boolean gone(ReplicaSet set) {
        return set.replicas().size() < (set.legacy() ? 1 : 2);
    }

    void delete(String tableName) {
        store.apply(new WriteBatch().delete(ReplicationKeys.set(tableName)));
    }

    /** Changes the stored set in a store transaction; null when there is none. */
    @Nullable
    ReplicaSet update(String tableName, UnaryOperator<ReplicaSet> change) {
        byte[] key = ReplicationKeys.set(tableName);
        if (store.get(key) == null) {
            return null;
        }
        return Retried.run(() -> {
            try (Transaction txn = store.begin(key)) {
                byte[] bytes = txn.get(key);
                if (bytes == null) {
                    return new ReplicaSet(tableName, List.of()); // removed meanwhile: nothing to change
                }
                ReplicaSet changed = change.apply(ReplicaSet.decode(tableName, bytes));
                txn.commit(gone(changed) ? new WriteBatch().delete(key) : new WriteBatch().put(key, changed.encode()));
                return changed;
            }
        });
    }
}
