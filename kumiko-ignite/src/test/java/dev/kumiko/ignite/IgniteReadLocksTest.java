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
 * How a read-write transaction locks what it reads (IgniteTransaction): a key read holds a
 * placeholder that the commit always replaces, so that it never outlives the transaction, and no
 * read writes a lock row any more.
 */
@Tag("slow")
class IgniteReadLocksTest {
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
    void aKeyReadAloneAndNotWrittenKeepsWhatItHeld() {
        byte[] present = bytes("t1/a");
        byte[] absent = bytes("t1/b");
        store.apply(new WriteBatch().put(present, bytes("v")));
        byte[] other = bytes("t1/c");
        for (byte[] key : new byte[][] {present, absent}) {
            try (Transaction txn = store.begin(new byte[][] {key}, TransactionMode.WAIT)) {
                assertThat(txn.get(key)).isEqualTo(key == present ? bytes("v") : null);
                // Read again inside the transaction: still the committed value, not the placeholder.
                assertThat(txn.get(key)).isEqualTo(key == present ? bytes("v") : null);
                txn.commit(new WriteBatch().put(other, bytes("w")));
            }
        }
        assertThat(store.get(present)).isEqualTo(bytes("v"));
        assertThat(store.get(absent)).isNull();
        assertThat(store.get(other)).isEqualTo(bytes("w"));
        assertThat(lockRows()).isZero();
    }

    @Test
    void anAbandonedTransactionLeavesNoPlaceholder() {
        byte[] key = bytes("t1/a");
        store.apply(new WriteBatch().put(key, bytes("v")));
        try (Transaction txn = store.begin(new byte[][] {key}, TransactionMode.WAIT)) {
            txn.get(key);
        }
        assertThat(store.get(key)).isEqualTo(bytes("v"));
    }

    @Test
    void keysReadTogetherAndWrittenInPartKeepWhatTheUnwrittenHeld() {
        byte[][] keys = {bytes("t1/a"), bytes("t1/b"), bytes("t2/a")};
        store.apply(new WriteBatch().put(keys[0], bytes("v0")).put(keys[1], bytes("v1")));
        readAllThenWrite(keys, new WriteBatch().delete(keys[0]).put(keys[2], bytes("w2")));
        assertThat(store.get(keys[0])).isNull();
        assertThat(store.get(keys[1])).isEqualTo(bytes("v1"));
        assertThat(store.get(keys[2])).isEqualTo(bytes("w2"));
        assertThat(lockRows()).isZero();
    }

    private void readAllThenWrite(byte[][] keys, WriteBatch batch) {
        try (Transaction txn = store.begin(keys, TransactionMode.WAIT)) {
            txn.getAll(keys);
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
