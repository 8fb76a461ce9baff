package dev.kumiko.ignite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kumiko.storage.Transaction;
import dev.kumiko.storage.TransactionMode;
import dev.kumiko.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import org.apache.ignite.sql.ResultSet;
import org.apache.ignite.sql.SqlRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The lock rows a read-write transaction writes before its reads (IgniteTransaction) are kept only
 * while their items exist: a delete removes its key's row, and deleteRange removes the range's.
 */
@Tag("slow")
class IgniteLockRowsTest {
    private IgniteStore store;

    @BeforeEach
    void open() {
        store = TestCluster.emptyStore();
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aReadInATransactionLeavesALockRowAndDeletingTheItemRemovesIt() {
        byte[] key = bytes("t1/a");
        readThenWrite(key, new WriteBatch().put(key, bytes("v")));
        assertThat(lockRows()).isEqualTo(1);
        readThenWrite(key, new WriteBatch().delete(key));
        assertThat(store.get(key)).isNull();
        assertThat(lockRows()).isZero();
    }

    @Test
    void deleteRangeRemovesTheLockRowsOfItsKeysOnly() {
        for (String k : new String[] {"t1/a", "t1/b", "t2/a"}) {
            readThenWrite(bytes(k), new WriteBatch().put(bytes(k), bytes("v")));
        }
        assertThat(lockRows()).isEqualTo(3);
        store.deleteRange(bytes("t1/"), bytes("t10"));
        assertThat(lockRows()).isEqualTo(1);
        assertThat(store.get(bytes("t2/a"))).isNotNull();
    }

    private void readThenWrite(byte[] key, WriteBatch batch) {
        try (Transaction txn = store.begin(new byte[][] {key}, TransactionMode.WAIT)) {
            txn.get(key);
            txn.commit(batch);
        }
    }

    private long lockRows() {
        try (ResultSet<SqlRow> rows =
                store.client().sql().execute(null, "SELECT COUNT(*) FROM " + IgniteSchema.LOCKS)) {
            return rows.next().longValue(0);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
