package dev.kumiko.ignite;

import dev.kumiko.storage.StoreConflictException;
import java.util.ArrayList;
import java.util.List;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.table.RecordView;
import org.apache.ignite.table.Tuple;
import org.apache.ignite.tx.Transaction;
import org.apache.ignite.tx.TransactionOptions;

/**
 * Keys claimed by running multi-item transactions (TransactionMode.CLAIM), as rows in
 * {@value IgniteSchema#CLAIMS} that every server sees. DynamoDB refuses, rather than queues, a
 * write that meets a TransactWriteItems in flight; Ignite would queue it on its row locks, so the
 * claim is written and committed before the transaction reads anything, and every writer checks
 * the claims of its keys when it begins. A claim carries an expiry, so the claims of a server that
 * died are ignored once it passes.
 */
final class Claims {
    static final String OWNER = "OWNER";
    static final String EXPIRES = "EXPIRES";
    /** Longer than any transaction lives (Ignite aborts one after its timeout). */
    static final long TTL_MILLIS = IgniteTransaction.TIMEOUT_MILLIS * 2;

    private final IgniteClient client;
    private final RecordView<Tuple> claims;

    Claims(IgniteClient client, RecordView<Tuple> claims) {
        this.client = client;
        this.claims = claims;
    }

    /** Fails with a claimed conflict when another holds one of keys; reads outside any transaction. */
    void check(byte[][] keys) {
        throwIfHeld(claims.getAll(null, Rows.keys(keys)), null);
    }

    /** Claims keys for owner, committed before it returns; the rows to give to {@link #release}. */
    List<Tuple> claim(byte[][] keys, String owner) {
        Transaction tx = client.transactions().begin(new TransactionOptions().timeoutMillis(IgniteTransaction.TIMEOUT_MILLIS));
        try {
            throwIfHeld(claims.getAll(tx, Rows.keys(keys)), owner);
            long expires = System.currentTimeMillis() + TTL_MILLIS;
            List<Tuple> rows = new ArrayList<>(keys.length);
            for (byte[] key : keys) {
                rows.add(Rows.key(key).set(OWNER, owner).set(EXPIRES, expires));
            }
            claims.upsertAll(tx, rows);
            tx.commit();
            return rows;
        } catch (StoreConflictException e) {
            CounterFolds.rollbackQuietly(tx);
            throw e;
        } catch (RuntimeException e) {
            CounterFolds.rollbackQuietly(tx);
            if (Conflicts.isConflict(e)) {
                // Another claimant of these keys was writing its claim at the same moment.
                throw new StoreConflictException(null, true);
            }
            throw e;
        }
    }

    /** Removes owner's claims (only those still as written: an expired claim may be another's now). */
    void release(List<Tuple> rows) {
        if (!rows.isEmpty()) {
            claims.deleteAllExact(null, rows);
        }
    }

    private static void throwIfHeld(List<Tuple> found, String owner) {
        long now = System.currentTimeMillis();
        int[] held = new int[found.size()];
        int count = 0;
        for (int i = 0; i < found.size(); i++) {
            Tuple claim = found.get(i);
            if (claim != null && claim.longValue(EXPIRES) > now && !claim.stringValue(OWNER).equals(owner)) {
                held[count++] = i;
            }
        }
        if (count > 0) {
            throw new StoreConflictException(java.util.Arrays.copyOf(held, count), true);
        }
    }
}
